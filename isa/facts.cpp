#include "isa/facts.h"

#include <array>
#include <cassert>

namespace warpsim::isa {
namespace {

// The registers an operand names: itself, a vector's or list's elements, an address's base.
void collect(const Opnd& o, std::vector<RegRef>& out) {
  switch (o.kind) {
    case OpndKind::Reg:
      if (o.declared) out.push_back({o.slot, false});
      break;
    case OpndKind::Pred:
      out.push_back({o.slot, true});
      break;
    case OpndKind::Vec:
    case OpndKind::List:
      for (const Opnd& e : o.elems) collect(e, out);
      break;
    case OpndKind::Addr:
      if (o.baseSlot != kNoSlot) out.push_back({o.baseSlot, false});
      for (const Opnd& e : o.elems) collect(e, out);  // texture coordinates: [h, {x, y}]
      break;
    default:
      break;
  }
}

Flow flowOf(Role role) {
  switch (role) {
    case Role::Branch:
      return Flow::Branch;
    case Role::Call:
      return Flow::Call;
    case Role::Return:
      return Flow::Return;
    case Role::Exit:
      return Flow::Exit;
    case Role::Trap:
      return Flow::Trap;
    case Role::Barrier:
      return Flow::Barrier;
    default:
      return Flow::Next;
  }
}

// bar.red (a reduction: .popc, .and, .or) writes its first operand; other barriers write none.
bool barrierWrites(const Mods& m) { return m.boolOp != BoolOp::None; }

}  // namespace

void deriveFacts(Inst& in, Role role) {
  assert(role != Role::Unset);
  in.flow = flowOf(role);
  in.defs.clear();
  in.uses.clear();
  const bool writesFirst = role == Role::Compute || role == Role::ComputeCarryIn ||
                           (role == Role::Barrier && barrierWrites(in.mods));
  for (size_t i = 0; i < in.ops.size(); ++i) {
    const Opnd& o = in.ops[i];
    // A destination vector's elements are written; a destination address's base is read.
    if (i == 0 && writesFirst && o.kind != OpndKind::Addr)
      collect(o, in.defs);
    else
      collect(o, in.uses);
  }
  if (role == Role::ComputeCarryIn) in.uses.push_back({kCarrySlot, false});
  if (in.mods.has("cc")) in.defs.push_back({kCarrySlot, false});
  if (in.guard != kNoSlot) in.uses.push_back({in.guard, true});
}

bool onlyWritesRegisters(const Inst& in) {
  if (in.flow != Flow::Next || in.defs.empty()) return false;
  switch (in.cls) {
    case InsnClass::Int:
    case InsnClass::Fp32:
    case InsnClass::Fp64:
    case InsnClass::Half:
    case InsnClass::Sfu:
    case InsnClass::Convert:
    case InsnClass::Move:
    case InsnClass::Predicate:
      return true;
    default:
      return false;
  }
}

namespace {

// Whether `in` only writes its registers from its registers and memory reads (markPureLoops).
bool computesOnly(const Inst& in) {
  if (!in.spec || in.spec->role != Role::Compute) return false;
  if (in.readsDynamic || in.sync != SyncRole::None) return false;
  if (onlyWritesRegisters(in)) return true;
  switch (in.cls) {
    case InsnClass::LoadGlobal:
    case InsnClass::LoadShared:
    case InsnClass::LoadLocal:
    case InsnClass::LoadParam:
    case InsnClass::LoadConst:
      return in.flow == Flow::Next;
    default:
      return false;
  }
}

}  // namespace

void markPureLoops(FunctionCode& fn) {
  for (Inst& br : fn.code) {
    br.closesPureLoop = false;
    if (br.flow != Flow::Branch || br.table >= 0 || br.target == kNoPc || br.target > br.pc ||
        br.pc - br.target + 1 > kPureLoopMaxLength)
      continue;
    size_t defs = 0;
    bool pure = true;
    for (uint32_t pc = br.target; pc < br.pc && pure; ++pc) {
      pure = computesOnly(fn.code[pc]);
      defs += fn.code[pc].defs.size();
    }
    br.closesPureLoop = pure && defs <= kPureLoopMaxDefs;
  }
}

Role roleOf(std::string_view opcode) {
  Role role = Role::Unset;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.opcode != opcode) continue;
    assert(role == Role::Unset || role == s.role);  // one opcode, one role (the table test)
    role = s.role;
  }
  return role;
}

bool writesFirstOperand(const std::string& fullOpcode) {
  const size_t dot = fullOpcode.find('.');
  const Role role = roleOf(std::string_view(fullOpcode).substr(0, dot));
  if (role == Role::Compute || role == Role::ComputeCarryIn) return true;
  if (role != Role::Barrier) return false;
  std::vector<std::string> words;
  for (size_t p = dot; p != std::string::npos;) {
    const size_t next = fullOpcode.find('.', p + 1);
    words.push_back(fullOpcode.substr(p + 1, next == std::string::npos ? next : next - p - 1));
    p = next;
  }
  return barrierWrites(decodeMods(words));
}

const char* flowName(Flow f) {
  static constexpr std::array<const char*, 7> kNames = {"next", "branch", "call",   "return",
                                                        "exit", "trap",   "barrier"};
  return kNames[size_t(f)];
}

const char* insnClassName(InsnClass c) {
  static constexpr std::array<const char*, size_t(InsnClass::Count_)> kNames = {
      "int",         "fp32",      "fp64",      "half",      "sfu",       "convert",
      "move",        "predicate", "ld.global", "st.global", "ld.shared", "st.shared",
      "ld.local",    "st.local",  "ld.param",  "st.param",  "ld.const",  "atom.global",
      "atom.shared", "control",   "barrier",   "warp",      "tensor",    "misc"};
  return kNames[size_t(c)];
}

}  // namespace warpsim::isa
