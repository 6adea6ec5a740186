#include "sim/timing/folds.h"

#include <algorithm>
#include <vector>

#include "isa/insn_table.h"
#include "isa/types.h"
#include "sim/timing/units.h"

namespace warpsim::sim::timing {

namespace {

using Op = isa::Operation;

// How operand `o` reads register slot `slot`: 0 not at all, 1 as an address's base only, 2 as
// a value.
int readsSlot(const isa::Opnd& o, uint32_t slot) {
  if (o.kind == isa::OpndKind::Reg && o.declared && o.slot == slot) return 2;
  if (o.kind == isa::OpndKind::Addr && o.baseSlot == slot) return 1;
  int r = 0;
  for (const isa::Opnd& e : o.elems) r = std::max(r, readsSlot(e, slot));
  return r;
}

// How instruction `u` reads `slot` among its sources (an instruction that defines registers
// names the first of them first: its destination).
int readsSlot(const isa::Inst& u, uint32_t slot) {
  int how = 0;
  for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k)
    how = std::max(how, readsSlot(u.ops[k], slot));
  return how;
}

Op operationOf(const isa::Inst& in) { return in.spec ? in.spec->operation : Op::Other; }

// An integer add of two sources into one register without the carry flag (addc, the high half
// of a wide add, keeps its IADD3.X; add.cc defines the flag): what an addressing mode or IADD3's
// negated operand can stand for.
bool plainIntAdd(const isa::Inst& in) {
  return in.cls == isa::InsnClass::Int && operationOf(in) == Op::Add && !touchesCarry(in) &&
         in.defs.size() == 1 && !in.defs[0].pred && in.ops.size() == 3;
}

// A plain add of 32 bits or fewer: what IADD3 computes with a third source to spare.
bool narrowIntAdd(const isa::Inst& in) {
  return plainIntAdd(in) && isa::typeBits(in.mods.type()) <= 32;
}

// How many of `u`'s sources read `slot` as a value.
int valueReads(const isa::Inst& u, uint32_t slot) {
  int n = 0;
  for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k)
    n += readsSlot(u.ops[k], slot) == 2;
  return n;
}

// Whether `u` can take a float operand negated or absolute (-R, |R|): FADD, FMUL, FFMA, FMNMX,
// DADD, DMUL, DFMA and MUFU do; a division or a full-precision reciprocal or root is a
// subroutine in SASS.
bool takesFloatModifier(const isa::Inst& u) {
  using K = isa::InsnClass;
  if (u.cls == K::Sfu) return true;
  if (u.cls != K::Fp32 && u.cls != K::Fp64) return false;
  switch (operationOf(u)) {
    case Op::Add:
    case Op::Subtract:
    case Op::Multiply:
    case Op::MultiplyAdd:
    case Op::Min:
    case Op::Max:
      return true;
    default:
      return false;
  }
}

// Whether every read of `in`'s result between `pc` and `end` is one that `takes` accepts, and
// there is at least one (a redefinition ends the search: later reads are not its).
template <typename Takes>
bool readOnlyBy(const isa::FunctionCode& f, uint32_t pc, uint32_t end, Takes takes) {
  const uint32_t slot = f.code[pc].defs[0].slot;
  bool read = false;
  for (uint32_t i = pc + 1; i < end; ++i) {
    const isa::Inst& u = f.code[i];
    const int how = readsSlot(u, slot);
    if (how && !takes(u, how)) return false;
    read = read || how;
    for (const isa::RegRef& d : u.defs)
      if (!d.pred && d.slot == slot) return read;
  }
  return read;
}

// How many times operand `o` names predicate `slot`.
int predicateUses(const isa::Opnd& o, uint32_t slot) {
  int n = o.kind == isa::OpndKind::Pred && o.slot == slot;
  for (const isa::Opnd& e : o.elems) n += predicateUses(e, slot);
  return n;
}

// How many times `u` reads predicate `slot`: as its guard and among its sources.
int predicateReads(const isa::Inst& u, uint32_t slot) {
  int n = u.guard == slot;
  for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k) n += predicateUses(u.ops[k], slot);
  return n;
}

bool definesRegister(const isa::Inst& u, isa::RegRef r) {
  return std::find(u.defs.begin(), u.defs.end(), r) != u.defs.end();
}

// The instruction of [begin, pc) that last defines `r` before `pc`, or kNoPc.
uint32_t lastDefinition(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, isa::RegRef r) {
  for (uint32_t i = pc; i-- > begin;)
    if (definesRegister(f.code[i], r)) return i;
  return isa::kNoPc;
}

// How many times `u` reads `r` (predicates: guard and sources; registers: sources).
int readsOf(const isa::Inst& u, isa::RegRef r) {
  if (r.pred) return predicateReads(u, r.slot);
  int n = 0;
  for (size_t k = u.defs.empty() ? 0 : 1; k < u.ops.size(); ++k)
    n += readsSlot(u.ops[k], r.slot) != 0;
  return n;
}

// Whether the value `f.code[d]` (its block [begin, end)) gives `r` may be read outside the rest
// of the block: not when the block defines `r` again after `d`; else by any read of another
// block, or of its own block before `d` that no definition in the block precedes (a loop back
// to it). The one test of every fold that needs its register in its block alone.
bool escapesBlock(const isa::FunctionCode& f, uint32_t begin, uint32_t d, uint32_t end,
                  isa::RegRef r) {
  for (uint32_t i = d + 1; i < end; ++i)
    if (definesRegister(f.code[i], r)) return false;
  for (uint32_t i = begin; i < d; ++i) {
    if (readsOf(f.code[i], r)) return true;
    if (definesRegister(f.code[i], r)) break;
  }
  for (uint32_t i = 0; i < f.code.size(); ++i)
    if ((i < begin || i >= end) && readsOf(f.code[i], r)) return true;
  return false;
}

// Whether source `k` of `f.code[pc]` (its block [begin, end)) is made in the block before it by
// an unguarded instruction that `makes` accepts, for this reader alone: read once by it, by
// nothing between, and by nothing after it unless the block makes it again first (another
// block, or a loop back to this one, could read it otherwise).
template <typename Makes>
bool madeForItAlone(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, uint32_t end, size_t k,
                    Makes makes) {
  const isa::Opnd& o = f.code[pc].ops[k];
  const bool pred = o.kind == isa::OpndKind::Pred;
  if (!pred && (o.kind != isa::OpndKind::Reg || !o.declared)) return false;
  const isa::RegRef r{o.slot, pred};
  const uint32_t d = lastDefinition(f, begin, pc, r);
  if (d == isa::kNoPc) return false;
  const isa::Inst& maker = f.code[d];
  if (maker.guard != isa::kNoSlot || maker.defs.size() != 1 || !makes(maker) ||
      readsOf(f.code[pc], r) != 1)
    return false;
  for (uint32_t i = d + 1; i < pc; ++i)
    if (readsOf(f.code[i], r)) return false;
  if (definesRegister(f.code[pc], r)) return true;
  for (uint32_t i = pc + 1; i < end; ++i) {
    if (readsOf(f.code[i], r)) return false;
    if (definesRegister(f.code[i], r)) return true;
  }
  return !escapesBlock(f, begin, d, end, r);
}

// A compare that ISETP (FSETP, DSETP, HSETP2) can combine with a third predicate: a setp into
// one predicate that combines nothing yet.
bool combinableCompare(const isa::Inst& c) {
  return operationOf(c) == Op::Compare && !c.ops.empty() && c.ops[0].kind == isa::OpndKind::Pred &&
         c.mods.boolOp == isa::BoolOp::None;
}

// An instruction whose result SASS can write under a predicate in place of a select: integer,
// float or move arithmetic.
bool predicableArithmetic(const isa::Inst& c) {
  using K = isa::InsnClass;
  return c.cls == K::Int || c.cls == K::Fp32 || c.cls == K::Fp64 || c.cls == K::Move;
}

}  // namespace

bool foldedIntoAddress(const isa::FunctionCode& f, uint32_t pc, uint32_t end) {
  const isa::Inst& in = f.code[pc];
  if (!plainIntAdd(in)) return false;
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
  return readOnlyBy(f, pc, end, [](const isa::Inst&, int how) { return how == 1; });
}

bool foldedIntoOperand(const isa::FunctionCode& f, uint32_t pc, uint32_t end) {
  const isa::Inst& in = f.code[pc];
  const Op op = operationOf(in);
  if ((op != Op::Negate && op != Op::Absolute) || in.defs.size() != 1 || in.defs[0].pred ||
      in.ops.size() != 2)
    return false;
  if (in.cls == isa::InsnClass::Fp32 || in.cls == isa::InsnClass::Fp64)
    return readOnlyBy(
        f, pc, end, [](const isa::Inst& u, int how) { return how == 2 && takesFloatModifier(u); });
  // IADD3 negates a source; an integer abs is IABS, an instruction of its own.
  if (in.cls == isa::InsnClass::Int && op == Op::Negate && isa::typeBits(in.mods.type()) <= 32)
    return readOnlyBy(f, pc, end, [](const isa::Inst& u, int how) {
      return how == 2 && plainIntAdd(u) && isa::typeBits(u.mods.type()) <= 32;
    });
  return false;
}

bool foldedAway(const isa::FunctionCode& f, uint32_t pc, uint32_t end, FoldRules rules) {
  return (rules.addresses && foldedIntoAddress(f, pc, end)) ||
         (rules.modifiers && foldedIntoOperand(f, pc, end));
}

bool foldedIntoCompare(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, uint32_t end) {
  const isa::Inst& in = f.code[pc];
  const Op op = operationOf(in);
  if (in.cls != isa::InsnClass::Predicate || (op != Op::And && op != Op::Or && op != Op::Xor) ||
      in.ops.size() != 3 || in.guard != isa::kNoSlot)
    return false;
  for (size_t k = 1; k <= 2; ++k)
    if (madeForItAlone(f, begin, pc, end, k, combinableCompare)) return true;
  return false;
}

bool foldedIntoSources(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, uint32_t end) {
  const isa::Inst& in = f.code[pc];
  if (operationOf(in) != Op::Select || in.ops.size() != 4 || in.guard != isa::kNoSlot) return false;
  return madeForItAlone(f, begin, pc, end, 1, predicableArithmetic) &&
         madeForItAlone(f, begin, pc, end, 2, predicableArithmetic);
}

void addFolded(const isa::FunctionCode& f, FoldRules rules,
               std::unordered_set<const isa::Inst*>& out) {
  // A basic block ends at a branch target or after an instruction that moves control.
  std::vector<bool> starts(f.code.size() + 1, false);
  starts[0] = true;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const isa::Inst& in = f.code[pc];
    if (in.target != isa::kNoPc && in.target < starts.size()) starts[in.target] = true;
    if (in.flow != isa::Flow::Next) starts[pc + 1] = true;
  }
  uint32_t end = uint32_t(f.code.size());
  std::vector<uint32_t> candidates;
  for (uint32_t pc = uint32_t(f.code.size()); pc-- > 0;) {
    if (starts[pc + 1]) end = pc + 1;
    if (foldedAway(f, pc, end, rules)) candidates.push_back(pc);
    if (!starts[pc]) continue;
    for (const uint32_t c : candidates)
      if (!escapesBlock(f, pc, c, end, f.code[c].defs[0])) out.insert(&f.code[c]);
    candidates.clear();
  }
  // The one reader of the add at `pc` in its block [pc, end): an add that reads it as one
  // source, neither folded itself nor holding three sources already; kNoPc if there is none.
  std::vector<bool> takesThree(f.code.size(), false);
  const auto pairedReader = [&](uint32_t pc, uint32_t end) {
    const uint32_t slot = f.code[pc].defs[0].slot;
    uint32_t reader = isa::kNoPc;
    for (uint32_t i = pc + 1; i < end; ++i) {
      const isa::Inst& u = f.code[i];
      if (readsSlot(u, slot)) {
        if (reader != isa::kNoPc || !narrowIntAdd(u) || valueReads(u, slot) != 1 || takesThree[i] ||
            out.count(&u))
          return isa::kNoPc;
        reader = i;
      }
      if (definesRegister(u, {slot, false})) break;
    }
    return reader;
  };
  uint32_t begin = 0, blockEnd = 0;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    if (starts[pc]) {  // a new block [begin, blockEnd)
      begin = pc;
      blockEnd = pc + 1;
      while (blockEnd < f.code.size() && !starts[blockEnd]) ++blockEnd;
    }
    const isa::Inst& in = f.code[pc];
    // A predicates' and or a selp is no add: these folds and the pairs' do not meet.
    if ((rules.predicates && foldedIntoCompare(f, begin, pc, blockEnd)) ||
        (rules.selects && foldedIntoSources(f, begin, pc, blockEnd))) {
      out.insert(&in);
      continue;
    }
    if (!rules.addPairs || !narrowIntAdd(in) || takesThree[pc] || out.count(&in)) continue;
    const uint32_t reader = pairedReader(pc, blockEnd);
    if (reader == isa::kNoPc || escapesBlock(f, begin, pc, blockEnd, in.defs[0])) continue;
    out.insert(&in);
    takesThree[reader] = true;
  }
}

}  // namespace warpsim::sim::timing
