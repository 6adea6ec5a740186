#include "isa/invariants.h"

#include <vector>

#include "isa/insn_table.h"

namespace warpsim::isa {

namespace {

// What a slot holds, as far as invariance goes.
enum class SlotKind : uint8_t { Variant, Invariant, Unknown };

bool operationIs(const Inst& in, Operation op) { return in.spec && in.spec->operation == op; }

// Whether `in` computes a launch-invariant value from its register source (`source`: kNoSlot
// when it has none), not yet looking at that source: the three forms named in invariants.h, with
// one register destination.
bool invariantForm(const FunctionCode& fn, const Inst& in, uint32_t& source) {
  source = kNoSlot;
  if (in.ops.size() != 2 || in.ops[0].kind != OpndKind::Reg || in.readsDynamic) return false;
  const Opnd& a = in.ops[1];
  if (operationIs(in, Operation::Load)) {
    // A kernel parameter: no base register, an address below the frames' .param areas.
    return in.cls == InsnClass::LoadParam && a.kind == OpndKind::Addr && a.baseSlot == kNoSlot &&
           uint64_t(a.offset) < kLaneParamBase;
  }
  if (operationIs(in, Operation::Move) && in.cls == InsnClass::Move && a.kind == OpndKind::Reg) {
    source = a.slot;
    return true;
  }
  if (operationIs(in, Operation::ConvertAddress) && a.kind == OpndKind::Reg &&
      (in.mods.space == Space::Global || in.mods.space == Space::Const)) {
    source = a.slot;
    return true;
  }
  return false;
}

}  // namespace

void markLaunchInvariants(FunctionCode& fn) {
  fn.numInvariants = 0;
  if (!fn.isEntry) return;  // the CTA keeps the lanes of the kernel's frame only (sim/func/warp.h)
  const size_t n = fn.numSlots;
  std::vector<uint32_t> defs(n, 0);
  for (const Inst& in : fn.code)
    for (const RegRef& r : in.defs)
      if (!r.pred && r.slot < n) ++defs[r.slot];
  std::vector<SlotKind> kind(n, SlotKind::Unknown);
  for (const auto& [slot, value] : fn.constants) kind[slot] = SlotKind::Invariant;
  for (const auto& [slot, s] : fn.specials)
    kind[slot] = isPlaceSpecial(s) ? SlotKind::Invariant : SlotKind::Variant;
  kind[kCarrySlot] = SlotKind::Variant;
  for (uint32_t slot : fn.zeroAtEntry) kind[slot] = SlotKind::Variant;
  std::vector<bool> invariant(fn.code.size(), false);
  // A register is invariant once its one definition is; definitions come before their uses in
  // almost every function, so this settles in one or two rounds.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t pc = 0; pc < fn.code.size(); ++pc) {
      const Inst& in = fn.code[pc];
      uint32_t source;
      if (invariant[pc] || !invariantForm(fn, in, source)) continue;
      const uint32_t d = in.ops[0].slot;
      if (d >= n || defs[d] != 1 || kind[d] != SlotKind::Unknown) continue;
      if (source != kNoSlot && (source >= n || kind[source] != SlotKind::Invariant)) continue;
      invariant[pc] = true;
      kind[d] = SlotKind::Invariant;
      changed = true;
    }
  }
  fn.numInvariants = 0;
  for (size_t pc = 0; pc < fn.code.size() && fn.numInvariants < kNoInvariant; ++pc)
    if (invariant[pc]) fn.code[pc].invariant = uint16_t(fn.numInvariants++);
}

}  // namespace warpsim::isa
