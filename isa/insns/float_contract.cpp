// The fused multiply-adds that the contraction pass (isa/contract.h) puts in place of a mul and
// the add/sub that consumes it: d = (+-a) * b + (+-c), rounded once to nearest even, as the
// FFMA/DFMA that ptxas emits for such a pair. The signs come from the pair's shape: a*b - c is
// fma(a, b, -c), c - a*b is fma(-a, b, c), and a `neg` of the product flips the product's sign.
// Flipping a sign bit is exact, so the result is the infinitely precise (+-a*b) + (+-c) rounded
// once. `.ftz` flushes subnormal inputs and results (the pair's common .ftz) and `.sat` clamps
// the result to [0, 1] (the add's .sat: FFMA.SAT). A quotient of div.approx/div.full fuses as
// its last multiply (the reciprocal times the scaled dividend: isa/sfu/approx.h, divFmaF32).
#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"
#include "isa/sfu/approx.h"

namespace warpsim::isa::insns {
namespace {

constexpr unsigned kFtz = 1, kSat = 2, kNegProduct = 4, kNegAddend = 8;

template <unsigned Flags>
struct FusedF32 {
  static void run(Exec& x, const Inst& in) {
    if constexpr ((Flags & kFtz) != 0 && (Flags & kSat) == 0) {
      ftzFmaLanes<(Flags & kNegProduct) != 0, (Flags & kNegAddend) != 0>(x, in);
      return;
    }
    ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
      if constexpr ((Flags & kNegProduct) != 0) a ^= 0x80000000u;
      if constexpr ((Flags & kNegAddend) != 0) c ^= 0x80000000u;
      float v = fp::fma(fp::f32(a), fp::f32(b), fp::f32(c), fp::Round::RN, (Flags & kFtz) != 0);
      if constexpr ((Flags & kSat) != 0) v = fp::saturate(v);
      return fp::bits(v);
    });
  }
};

template <unsigned Flags>
struct FusedF64 {
  static void run(Exec& x, const Inst& in) {
    ternary<uint64_t>(x, in, [](uint64_t a, uint64_t b, uint64_t c) {
      if constexpr ((Flags & 1) != 0) a ^= uint64_t{1} << 63;
      if constexpr ((Flags & 2) != 0) c ^= uint64_t{1} << 63;
      return fp::bits(fp::fma(fp::f64(a), fp::f64(b), fp::f64(c), fp::Round::RN));
    });
  }
};

// A quotient's flags: those above, and kFull (div.full, else div.approx).
constexpr unsigned kFull = 16;

template <unsigned Flags>
struct FusedDivF32 {
  static void run(Exec& x, const Inst& in) {
    ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
      const uint32_t d = sfu::divFmaF32(a, b, c, (Flags & kFull) != 0, (Flags & kFtz) != 0,
                                        (Flags & kNegProduct) != 0, (Flags & kNegAddend) != 0);
      if constexpr ((Flags & kSat) != 0) return fp::bits(fp::saturate(fp::f32(d)));
      return d;
    });
  }
};

}  // namespace

Handler fusedDivideAdd(bool full, bool ftz, bool sat, bool negProduct, bool negAddend) {
  return pickFlags<FusedDivF32, 5>((ftz ? kFtz : 0) | (sat ? kSat : 0) |
                                   (negProduct ? kNegProduct : 0) | (negAddend ? kNegAddend : 0) |
                                   (full ? kFull : 0));
}

Handler fusedMultiplyAdd(Type type, bool ftz, bool sat, bool negProduct, bool negAddend) {
  if (type == Type::F32)
    return pickFlags<FusedF32, 4>((ftz ? kFtz : 0) | (sat ? kSat : 0) |
                                  (negProduct ? kNegProduct : 0) | (negAddend ? kNegAddend : 0));
  if (type == Type::F64 && !ftz && !sat)
    return pickFlags<FusedF64, 2>((negProduct ? 1u : 0u) | (negAddend ? 2u : 0u));
  if (type == Type::F64) return nullptr;
  return fusedMultiplyAddHalf(type, ftz, sat, negProduct, negAddend);
}

}  // namespace warpsim::isa::insns
