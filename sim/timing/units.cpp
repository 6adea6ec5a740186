#include "sim/timing/units.h"

#include <algorithm>
#include <cmath>

#include "isa/insn_table.h"
#include "isa/types.h"

namespace warpsim::sim::timing {

const char* unitName(Unit u) {
  switch (u) {
    case Unit::Alu:
      return "alu";
    case Unit::FmaHeavy:
      return "fmaheavy";
    case Unit::FmaLite:
      return "fmalite";
    case Unit::Fp64:
      return "fp64";
    case Unit::Sfu:
      return "xu";
    case Unit::Tensor:
      return "tensor";
    case Unit::Branch:
      return "branch";
    case Unit::Lsu:
      return "lsu";
    case Unit::Mio:
      return "mio";
    default:
      return "none";
  }
}

ClassTable::ClassTable(const TimingConfig& c) : intOnFmaHeavy(c.intOnFmaHeavy != 0) {
  using K = isa::InsnClass;
  intervals[size_t(Unit::Alu)] = c.iiAlu;
  intervals[size_t(Unit::FmaHeavy)] = intervals[size_t(Unit::FmaLite)] = c.iiFma;
  intervals[size_t(Unit::Fp64)] = c.iiFp64;
  intervals[size_t(Unit::Sfu)] = c.iiSfu;
  // A tensor instruction holds the pipe for its own work (tensor_work.h); this is one HMMA's.
  intervals[size_t(Unit::Tensor)] = uint32_t(std::ceil(c.iiTensor));
  intervals[size_t(Unit::Branch)] = c.iiBranch;
  intervals[size_t(Unit::Lsu)] = intervals[size_t(Unit::Mio)] = intervals[size_t(Unit::None)] = 1;
  auto set = [&](K k, Unit u, uint32_t lat, bool mem = false) {
    rows[size_t(k)] = {u, lat, intervals[size_t(u)], mem};
  };
  set(K::Int, Unit::Alu, c.latInt);
  set(K::Fp32, Unit::FmaLite, c.latFp32);
  set(K::Fp64, Unit::Fp64, c.latFp64);
  set(K::Half, Unit::FmaLite, c.latHalf);  // HFMA2 runs on the FMA pipe
  set(K::Sfu, Unit::Sfu, c.latSfu);
  set(K::Convert, Unit::Sfu, c.latConvert);  // conversions share the quarter-rate XU
  set(K::Move, Unit::Alu, c.latMove);
  set(K::Predicate, Unit::Alu, c.latPredicate);
  set(K::Control, Unit::Branch, c.latControl);
  set(K::Barrier, Unit::Branch, c.latBarrier);
  set(K::Warp, Unit::Mio, c.latWarp);
  set(K::Tensor, Unit::Tensor, c.latTensor);
  set(K::Misc, Unit::Alu, c.latMisc);
  for (K k : {K::LoadGlobal, K::StoreGlobal, K::LoadLocal, K::StoreLocal, K::AtomicGlobal})
    set(k, Unit::Lsu, 0, true);
  for (K k : {K::LoadShared, K::StoreShared, K::AtomicShared}) set(k, Unit::Mio, 0, true);
  // Kernel parameters and constants are constant-bank operands in SASS.
  set(K::LoadParam, Unit::None, c.constLatency);
  set(K::StoreParam, Unit::None, c.constLatency);
  set(K::LoadConst, Unit::None, c.constLatency);
}

bool touchesCarry(const isa::Inst& in) {
  const isa::RegRef carry{isa::kCarrySlot, false};
  return std::find(in.defs.begin(), in.defs.end(), carry) != in.defs.end() ||
         std::find(in.uses.begin(), in.uses.end(), carry) != in.uses.end();
}

namespace {

// Whether one of `in`'s sources is a constant (an immediate, or a special register's slot).
bool hasConstantSource(const isa::Inst& in) {
  for (size_t k = 1; k < in.ops.size(); ++k)
    if (in.ops[k].kind == isa::OpndKind::Reg && !in.ops[k].declared) return true;
  return false;
}

}  // namespace

// ptxas's forms (the suite's SASS, tests/recorded/sass): FFMA/FMUL/FADD/HFMA2, IMAD (mul, mad,
// IMAD.WIDE), IMAD.SHL (a shift left by a constant) and VIADD (an add of a constant) are FMA
// pipe instructions; LOP3, SHF, ISETP/FSETP, SEL, FMNMX/VIMNMX, PRMT and the bit operations
// are the ALU's.
FixedPipe fixedPipeOf(const isa::Inst& in) {
  using K = isa::InsnClass;
  using Op = isa::Operation;
  const Op op = in.spec ? in.spec->operation : Op::Other;
  switch (in.cls) {
    case K::Fp32:
    case K::Half:
      return op == Op::Min || op == Op::Max ? FixedPipe::Alu : FixedPipe::Fma;
    case K::Int:
      if (op == Op::Multiply || op == Op::MultiplyAdd) return FixedPipe::Fma;
      if (op == Op::ShiftLeft) return hasConstantSource(in) ? FixedPipe::Fma : FixedPipe::Alu;
      if (op == Op::Add || op == Op::Subtract) {
        if (isa::typeBits(in.mods.type()) > 32 || touchesCarry(in)) return FixedPipe::Alu;
        return hasConstantSource(in) ? FixedPipe::Fma : FixedPipe::Unknown;
      }
      return FixedPipe::Alu;
    case K::Predicate:
      return FixedPipe::Alu;
    default:
      return FixedPipe::Unknown;
  }
}

PipeChoice ClassTable::pipesOf(const isa::Inst& in) const {
  const Unit u = rows[size_t(in.cls)].unit;
  if (u == Unit::FmaLite) return {Unit::FmaLite, Unit::FmaHeavy};  // FFMA, HFMA2: either half
  if (!intOnFmaHeavy || (in.cls != isa::InsnClass::Int && in.cls != isa::InsnClass::Move))
    return {u, Unit::None};
  if (in.cls == isa::InsnClass::Move) return {Unit::Alu, Unit::FmaHeavy};  // MOV or IMAD.MOV
  const isa::Operation op = in.spec ? in.spec->operation : isa::Operation::Other;
  // Integer multiplies are the IMAD family's alone (IMAD, IMAD.WIDE, IMAD.HI).
  if (op == isa::Operation::Multiply || op == isa::Operation::MultiplyAdd)
    return {Unit::FmaHeavy, Unit::None};
  // A 32-bit (or narrower) add or subtract without a carry: IADD3 or IMAD.IADD. A 64-bit one is
  // two ALU instructions in SASS (IADD3 and IADD3.X), timed here as one.
  if ((op == isa::Operation::Add || op == isa::Operation::Subtract) &&
      isa::typeBits(in.mods.type()) <= 32 && !touchesCarry(in))
    return {Unit::Alu, Unit::FmaHeavy};
  return {Unit::Alu, Unit::None};
}

}  // namespace warpsim::sim::timing
