#include "sim/timing/if_convert.h"

#include <algorithm>

#include "isa/insn_table.h"

namespace warpsim::sim::timing {

namespace {

// Instructions that end or split a predicated region in SASS: control flow, barriers and the
// warp-synchronous operations (their member masks are not a predicate's business).
bool keepsBranch(const isa::Inst& in) {
  using K = isa::InsnClass;
  return in.flow != isa::Flow::Next || in.cls == K::Barrier || in.cls == K::Warp ||
         in.sync != isa::SyncRole::None;
}

// How operand `o` reads register slot `slot`: 0 not at all, 1 as an address's base only, 2 as
// a value.
int readsSlot(const isa::Opnd& o, uint32_t slot) {
  if (o.kind == isa::OpndKind::Reg && o.declared && o.slot == slot) return 2;
  if (o.kind == isa::OpndKind::Addr && o.baseSlot == slot) return 1;
  int r = 0;
  for (const isa::Opnd& e : o.elems) r = std::max(r, readsSlot(e, slot));
  return r;
}

}  // namespace

bool ifConverted(const isa::FunctionCode& f, uint32_t pc, uint32_t maxBody) {
  const isa::Inst& br = f.code[pc];
  if (br.flow != isa::Flow::Branch || br.guard == isa::kNoSlot || br.target == isa::kNoPc ||
      br.target <= pc + 1 || br.target - pc - 1 > maxBody || br.table >= 0)
    return false;
  // A branch to the function's end becomes `@P EXIT` (reduce_interleaved's `if (tid == 0)`
  // store: `@P0 EXIT` and the body unpredicated): the skipping warps leave at once.
  const isa::Flow end = f.code[br.target].flow;
  if (end == isa::Flow::Exit || end == isa::Flow::Return) return false;
  for (uint32_t i = pc + 1; i < br.target; ++i)
    if (keepsBranch(f.code[i])) return false;
  // Another branch into the body makes it a join, not a region to predicate.
  for (const isa::Inst& o : f.code)
    if (o.flow == isa::Flow::Branch && &o != &br && o.target > pc + 1 && o.target < br.target)
      return false;
  return true;
}

void addIfConverted(const isa::FunctionCode& f, uint32_t maxBody, PredicatedBodies& out) {
  if (!maxBody) return;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    if (!ifConverted(f, pc, maxBody)) continue;
    std::vector<uint32_t>& body = out[&f.code[pc]];
    for (uint32_t i = pc + 1; i < f.code[pc].target; ++i)
      if (!foldedIntoAddress(f, i, f.code[pc].target)) body.push_back(i);
  }
}

bool foldedIntoAddress(const isa::FunctionCode& f, uint32_t pc, uint32_t end) {
  const isa::Inst& in = f.code[pc];
  // An integer add without carry-in (addc, the high half of a wide add, keeps its IADD3.X) and
  // without carry-out: add.cc defines the carry flag as well (two defs), which an addressing
  // mode does not compute, so its IADD3 stays too.
  if (in.cls != isa::InsnClass::Int || !in.spec || in.spec->operation != isa::Operation::Add ||
      in.spec->role != isa::Role::Compute || in.defs.size() != 1 || in.defs[0].pred ||
      in.ops.size() != 3)
    return false;
  // The other operand: an immediate ([R+imm]), or a register that holds a symbol's address, the
  // same in every thread ([R+UR]: a shared variable's address in a uniform register).
  const auto symbolAddress = [&](const isa::Opnd& o) {
    if (o.kind != isa::OpndKind::Reg || !o.declared) return false;
    bool defined = false;
    for (const isa::Inst& d : f.code) {
      if (std::find(d.defs.begin(), d.defs.end(), isa::RegRef{o.slot, false}) == d.defs.end())
        continue;
      if (d.cls != isa::InsnClass::Move || d.ops.size() != 2 ||
          d.ops[1].symbolSpace == isa::Space::None || d.ops[1].declared)
        return false;
      defined = true;
    }
    return defined;
  };
  const isa::Opnd& imm = in.ops[2];
  const bool immediate = imm.kind == isa::OpndKind::Reg && !imm.declared;
  if (!immediate && !symbolAddress(in.ops[1]) && !symbolAddress(in.ops[2])) return false;
  const uint32_t slot = in.defs[0].slot;
  bool addressed = false;
  for (uint32_t i = pc + 1; i < end; ++i) {
    const isa::Inst& u = f.code[i];
    int how = 0;
    // An instruction that defines registers names the first of them first (its destination).
    for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k)
      how = std::max(how, readsSlot(u.ops[k], slot));
    if (how == 2) return false;
    addressed = addressed || how == 1;
    for (const isa::RegRef& d : u.defs)
      if (!d.pred && d.slot == slot) return addressed;  // redefined: later reads are not its
  }
  return addressed;
}

void addFoldedAdds(const isa::FunctionCode& f, std::unordered_set<const isa::Inst*>& out) {
  // A basic block ends at a branch target or after an instruction that moves control.
  std::vector<bool> starts(f.code.size() + 1, false);
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const isa::Inst& in = f.code[pc];
    if (in.target != isa::kNoPc && in.target < starts.size()) starts[in.target] = true;
    if (in.flow != isa::Flow::Next) starts[pc + 1] = true;
  }
  // Read anywhere outside (pc, end): another block needs the register itself.
  const auto readElsewhere = [&](uint32_t pc, uint32_t end, uint32_t slot) {
    for (uint32_t i = 0; i < f.code.size(); ++i) {
      if (i > pc && i < end) continue;
      const isa::Inst& u = f.code[i];
      for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k)
        if (readsSlot(u.ops[k], slot)) return true;
    }
    return false;
  };
  uint32_t end = uint32_t(f.code.size());
  for (uint32_t pc = uint32_t(f.code.size()); pc-- > 0;) {
    if (starts[pc + 1]) end = pc + 1;
    if (foldedIntoAddress(f, pc, end) && !readElsewhere(pc, end, f.code[pc].defs[0].slot))
      out.insert(&f.code[pc]);
  }
}

}  // namespace warpsim::sim::timing
