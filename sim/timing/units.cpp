#include "sim/timing/units.h"

namespace warpsim::sim::timing {

const char* unitName(Unit u) {
  switch (u) {
    case Unit::Fp32:
      return "fp32";
    case Unit::Int:
      return "int";
    case Unit::Fp64:
      return "fp64";
    case Unit::Sfu:
      return "sfu";
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

ClassTable::ClassTable(const TimingConfig& c) {
  using K = isa::InsnClass;
  auto set = [&](K k, Unit u, uint32_t lat, uint32_t ii, bool mem = false) {
    rows[size_t(k)] = {u, lat, ii, mem};
  };
  set(K::Int, Unit::Int, c.latInt, c.iiInt);
  set(K::Fp32, Unit::Fp32, c.latFp32, c.iiFp32);
  set(K::Fp64, Unit::Fp64, c.latFp64, c.iiFp64);
  set(K::Half, Unit::Fp32, c.latHalf, c.iiFp32);  // HFMA2 runs on the FMA pipe
  set(K::Sfu, Unit::Sfu, c.latSfu, c.iiSfu);
  set(K::Convert, Unit::Sfu, c.latConvert, c.iiSfu);  // conversions share the quarter-rate XU
  set(K::Move, Unit::Int, c.latMove, c.iiInt);
  set(K::Predicate, Unit::Int, c.latPredicate, c.iiInt);
  set(K::Control, Unit::Branch, c.latControl, c.iiBranch);
  set(K::Barrier, Unit::Branch, c.latBarrier, c.iiBranch);
  set(K::Warp, Unit::Mio, c.latWarp, 1);
  set(K::Tensor, Unit::Tensor, c.latTensor, c.iiTensor);
  set(K::Misc, Unit::Int, c.latMisc, c.iiInt);
  for (K k : {K::LoadGlobal, K::StoreGlobal, K::LoadLocal, K::StoreLocal, K::AtomicGlobal})
    set(k, Unit::Lsu, 0, 1, true);
  for (K k : {K::LoadShared, K::StoreShared, K::AtomicShared}) set(k, Unit::Mio, 0, 1, true);
  // Kernel parameters and constants are constant-bank operands in SASS.
  set(K::LoadParam, Unit::None, c.constLatency, 1);
  set(K::StoreParam, Unit::None, c.constLatency, 1);
  set(K::LoadConst, Unit::None, c.constLatency, 1);
}

}  // namespace warpsim::sim::timing
