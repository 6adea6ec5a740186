// Floating-point arithmetic on .f32 and .f64, PTX ISA 9.0 section 9.7.3: testp copysign add sub
// mul fma mad div rcp sqrt (the IEEE-rounded forms) abs neg min max. The hardware approximations
// (div.approx, div.full, rcp.approx, sqrt.approx) are bound by float_sfu.cpp; the half-precision
// forms of the same opcodes live in half_arith.cpp (the table picks the spec by type).
//
// Every result goes through isa/fp.h, which rounds exactly in each mode: the f32 results are
// bit-exact for the IEEE operations, NaN results are the canonical 0x7FFFFFFF (CUDA C++
// Programming Guide, "Floating-Point Standard") and f64 NaN payloads follow fp::nanResult64.
#include <type_traits>

#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

using fp::Round;

constexpr uint32_t kSign32 = 0x80000000u;
constexpr uint64_t kSign64 = uint64_t{1} << 63;

uint32_t flush32(uint32_t a) { return fp::bits(fp::flushSubnormal(fp::f32(a))); }

// ---- add sub mul div (binary) and fma (ternary), rounding from the instruction ----------
// `ftz`: the .rn .ftz fast path's host result of the flushed operands (fp.h's; the answer where
// fp::ftzFastHolds).
struct AddOp {
  static float f(float a, float b, Round r, bool z) { return fp::add(a, b, r, z); }
  static double d(double a, double b, Round r) { return fp::add(a, b, r); }
  static float ftz(float a, float b) { return fp::ftzAddFast(a, b); }
};
struct SubOp {
  static float f(float a, float b, Round r, bool z) { return fp::sub(a, b, r, z); }
  static double d(double a, double b, Round r) { return fp::sub(a, b, r); }
  static float ftz(float a, float b) { return fp::ftzAddFast(a, fp::f32(fp::bits(b) ^ kSign32)); }
};
struct MulOp {
  static float f(float a, float b, Round r, bool z) { return fp::mul(a, b, r, z); }
  static double d(double a, double b, Round r) { return fp::mul(a, b, r); }
  static float ftz(float a, float b) { return fp::ftzMulFast(a, b); }
};
struct DivOp {
  static float f(float a, float b, Round r, bool z) { return fp::div(a, b, r, z); }
  static double d(double a, double b, Round r) { return fp::div(a, b, r); }
  static float ftz(float a, float b) { return fp::ftzDivFast(a, b); }
};

// The handlers below are flattened: fp::add & co. are inline fast paths around out-of-line exact
// engines, and GCC left them as calls per lane; flattened, a full warp of .rn operations is a
// vector loop (the engines stay calls, on the rare lanes that need them).
// .sat (PTX ISA 9.7.3.3): "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f".
// It applies to the rounded (and, with .ftz, flushed) result.
template <class Op, bool Ftz, bool Sat>
struct BinaryF32 {
  [[gnu::flatten]] static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;  // .rn when absent
    if constexpr (Ftz && !Sat) {
      if (r == Round::RN) {  // the fast path for the warp, then the border lanes exactly
        const uint64_t *a = x.reg(in.ops[1]), *b = x.reg(in.ops[2]);
        forLanesTwoPass(
            x.mask, x.reg(in.ops[0]),
            [&](unsigned l, bool& slow) {
              const float v = Op::ftz(fp::f32(uint32_t(a[l])), fp::f32(uint32_t(b[l])));
              slow = !fp::ftzFastHolds(v);
              return ftzCanonicalBits(v);
            },
            [&](unsigned l) -> uint64_t {
              return fp::bits(Op::f(fp::f32(uint32_t(a[l])), fp::f32(uint32_t(b[l])), r, true));
            });
        return;
      }
    }
    auto lanes = [&](auto mode) {  // .rn, the common mode, as a constant: the lanes vectorize
      binary<uint32_t>(x, in, [mode](uint32_t a, uint32_t b) {
        float v = Op::f(fp::f32(a), fp::f32(b), Round(mode), Ftz);
        if constexpr (Sat) v = fp::saturate(v);
        return fp::bits(v);
      });
    };
    if (r == Round::RN)
      lanes(std::integral_constant<Round, Round::RN>{});
    else
      lanes(r);
  }
};
template <class Op>
struct BinaryF64 {
  [[gnu::flatten]] static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    binary<uint64_t>(
        x, in, [r](uint64_t a, uint64_t b) { return fp::bits(Op::d(fp::f64(a), fp::f64(b), r)); });
  }
};

// fma and mad (sm_20+): "computes the product of a and b to infinite precision and then adds c
// to this product, again in infinite precision", then rounds once (9.7.3.6, 9.7.3.7).
template <bool Ftz, bool Sat>
struct FmaF32 {
  [[gnu::flatten]] static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    if constexpr (Ftz && !Sat) {
      if (r == Round::RN) {
        ftzFmaLanes(x, in);
        return;
      }
    }
    auto lanes = [&](auto mode) {  // .rn as a constant, as in BinaryF32
      ternary<uint32_t>(x, in, [mode](uint32_t a, uint32_t b, uint32_t c) {
        float v = fp::fma(fp::f32(a), fp::f32(b), fp::f32(c), Round(mode), Ftz);
        if constexpr (Sat) v = fp::saturate(v);
        return fp::bits(v);
      });
    };
    if (r == Round::RN)
      lanes(std::integral_constant<Round, Round::RN>{});
    else
      lanes(r);
  }
};
struct FmaF64 {
  [[gnu::flatten]] static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    ternary<uint64_t>(x, in, [r](uint64_t a, uint64_t b, uint64_t c) {
      return fp::bits(fp::fma(fp::f64(a), fp::f64(b), fp::f64(c), r));
    });
  }
};

// rcp.rnd / sqrt.rnd: correctly rounded 1/a and sqrt(a) (9.7.3.13, 9.7.3.15).
template <bool Ftz>
struct RcpF32 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint32_t>(x, in, [r](uint32_t a) { return fp::bits(fp::rcp(fp::f32(a), r, Ftz)); });
  }
};
struct RcpF64 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint64_t>(x, in, [r](uint64_t a) { return fp::bits(fp::rcp(fp::f64(a), r)); });
  }
};
template <bool Ftz>
struct SqrtF32 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint32_t>(x, in, [r](uint32_t a) { return fp::bits(fp::sqrt(fp::f32(a), r, Ftz)); });
  }
};
struct SqrtF64 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint64_t>(x, in, [r](uint64_t a) { return fp::bits(fp::sqrt(fp::f64(a), r)); });
  }
};

template <bool Ftz, bool Sat>
using AddF32 = BinaryF32<AddOp, Ftz, Sat>;
template <bool Ftz, bool Sat>
using SubF32 = BinaryF32<SubOp, Ftz, Sat>;
template <bool Ftz, bool Sat>
using MulF32 = BinaryF32<MulOp, Ftz, Sat>;

template <template <bool, bool> class H>
Handler pick2(bool a, bool b) {
  if (a) return b ? H<true, true>::run : H<true, false>::run;
  return b ? H<false, true>::run : H<false, false>::run;
}

// add/sub/mul{.rnd}{.ftz}{.sat}.f32 and add/sub/mul{.rnd}.f64 (9.7.3.3-9.7.3.5): without a
// rounding modifier the default is .rn (the optimizer may contract it, which is the PTX
// producer's business: executed as written, it is .rn).
template <template <bool, bool> class H32, class Op>
std::string bindBinary(Inst& in) {
  if (in.mods.types.size() != 1)
    return bindError(in,
                     "takes one type (the mixed-precision .f32.f16/.f32.bf16 forms "
                     "require sm_100)");
  if (auto e = checkFloatRounding(in, false); !e.empty()) return e;
  if (in.mods.type() == Type::F32) {
    if (auto e = checkModifiers(in, {"ftz", "sat"}); !e.empty()) return e;
    return bindRegs(in, pick2<H32>(in.mods.has("ftz"), in.mods.has("sat")), 3, InsnClass::Fp32);
  }
  if (auto e = checkModifiers(in, {}); !e.empty()) return e;
  return bindRegs(in, BinaryF64<Op>::run, 3, InsnClass::Fp64);
}

// fma.rnd / mad.rnd (9.7.3.6-9.7.3.7): the rounding modifier is required ("no default"; for
// mad.f32 since PTX ISA 3.2, for mad.f64 since 1.4, per the mad Errata and PTX ISA Notes).
std::string bindFma(Inst& in) {
  if (in.mods.types.size() != 1)
    return bindError(in, "takes one type (the mixed-precision forms require sm_100)");
  if (auto e = checkFloatRounding(in, true); !e.empty()) return e;
  if (in.mods.type() == Type::F32) {
    if (auto e = checkModifiers(in, {"ftz", "sat"}); !e.empty()) return e;
    return bindRegs(in, pick2<FmaF32>(in.mods.has("ftz"), in.mods.has("sat")), 4, InsnClass::Fp32);
  }
  if (auto e = checkModifiers(in, {}); !e.empty()) return e;
  return bindRegs(in, FmaF64::run, 4, InsnClass::Fp64);
}

// div / rcp / sqrt: .approx (and div.full) are the SFU approximations of float_sfu.cpp; the
// rest requires an IEEE rounding modifier (9.7.3.8, 9.7.3.13, 9.7.3.15: "one of .approx, .full,
// or .rnd is required"). .sat does not exist for them.
std::string bindDiv(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.has("approx") || in.mods.has("full")) return bindDivApprox(in);
  if (auto e = checkFloatRounding(in, true); !e.empty())
    return bindError(in, "requires one of .approx, .full, .rn, .rz, .rm, .rp");
  if (in.mods.type() == Type::F32) {
    if (auto e = checkModifiers(in, {"ftz"}); !e.empty()) return e;
    return bindRegs(in,
                    in.mods.has("ftz") ? BinaryF32<DivOp, true, false>::run
                                       : BinaryF32<DivOp, false, false>::run,
                    3, InsnClass::Fp32);
  }
  if (auto e = checkModifiers(in, {}); !e.empty()) return e;
  return bindRegs(in, BinaryF64<DivOp>::run, 3, InsnClass::Fp64);
}

// `ftz64`: ptxas (sm_90) accepts rcp.rnd.ftz.f64, where .ftz changes nothing (measured on the
// H200: subnormal inputs and results of rcp.rn.ftz.f64 are those of rcp.rn.f64).
template <template <bool> class H32, class H64>
std::string bindRoundedUnary(Inst& in, bool ftz64) {
  if (auto e = checkFloatRounding(in, true); !e.empty())
    return bindError(in, "requires one of .approx, .rn, .rz, .rm, .rp");
  if (in.mods.type() == Type::F32) {
    if (auto e = checkModifiers(in, {"ftz"}); !e.empty()) return e;
    return bindRegs(in, in.mods.has("ftz") ? H32<true>::run : H32<false>::run, 2, InsnClass::Fp32);
  }
  if (auto e = checkModifiers(in, ftz64 ? std::initializer_list<std::string_view>{"ftz"}
                                        : std::initializer_list<std::string_view>{});
      !e.empty())
    return e;
  return bindRegs(in, H64::run, 2, InsnClass::Fp64);
}

std::string bindRcp(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.has("approx")) return bindRcpApprox(in);
  return bindRoundedUnary<RcpF32, RcpF64>(in, true);
}
std::string bindSqrt(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.has("approx")) return bindSqrtApprox(in);
  return bindRoundedUnary<SqrtF32, SqrtF64>(in, false);
}

// ---- testp (9.7.3.1) ---------------------------------------------------------------------
enum class Test : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };

template <class T, Test K>
bool testProperty(T v) {
  // fp.h follows the manual: "positive and negative zero are considered normal numbers".
  if constexpr (K == Test::Finite) return fp::isFinite(v);
  if constexpr (K == Test::Infinite) return fp::isInfinite(v);
  if constexpr (K == Test::Number) return fp::isNumber(v);
  if constexpr (K == Test::NotANumber) return fp::isNotANumber(v);
  if constexpr (K == Test::Normal) return fp::isNormal(v);
  if constexpr (K == Test::Subnormal) return fp::isSubnormal(v);
  return false;
}

template <class T, Test K>
struct Testp {
  static void run(Exec& x, const Inst& in) {
    const uint64_t* a = x.reg(in.ops[1]);
    uint32_t v = 0;
    forLanes(x.mask, [&](unsigned l) { v |= testProperty<T, K>(as<T>(a[l])) ? 1u << l : 0u; });
    uint32_t& d = x.pred(in.ops[0]);
    d = (d & ~x.mask) | v;
  }
};

template <class T>
Handler pickTest(const Mods& m) {
  if (m.has("finite")) return Testp<T, Test::Finite>::run;
  if (m.has("infinite")) return Testp<T, Test::Infinite>::run;
  if (m.has("number")) return Testp<T, Test::Number>::run;
  if (m.has("notanumber")) return Testp<T, Test::NotANumber>::run;
  if (m.has("normal")) return Testp<T, Test::Normal>::run;
  if (m.has("subnormal")) return Testp<T, Test::Subnormal>::run;
  return nullptr;
}

std::string bindTestp(Inst& in) {
  const Mods& m = in.mods;
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (auto e =
          checkModifiers(in, {"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
      !e.empty())
    return e;
  if (m.rounding.present) return bindError(in, "takes no rounding modifier");
  if (m.words.size() != 2)
    return bindError(in,
                     "takes one property (.finite .infinite .number .notanumber .normal "
                     ".subnormal) and one type");
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Pred || in.ops[0].negated)
    return bindError(in, "writes a predicate");
  if (auto e = expectRegs(in, {1}); !e.empty()) return e;
  const bool f64 = m.type() == Type::F64;
  in.run = f64 ? pickTest<double>(m) : pickTest<float>(m);
  in.cls = f64 ? InsnClass::Fp64 : InsnClass::Fp32;
  return "";
}

// ---- copysign (9.7.3.2): "Copy sign bit of a into value of b" -- a bit operation ---------
template <class U>
struct Copysign {
  static void run(Exec& x, const Inst& in) {
    constexpr U sign = U(1) << (8 * sizeof(U) - 1);
    binary<U>(x, in, [](U a, U b) { return U((b & ~sign) | (a & sign)); });
  }
};

std::string bindCopysign(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (auto e = checkModifiers(in, {}); !e.empty()) return e;
  if (in.mods.rounding.present) return bindError(in, "takes no rounding modifier");
  const bool f64 = in.mods.type() == Type::F64;
  return bindRegs(in, f64 ? Copysign<uint64_t>::run : Copysign<uint32_t>::run, 3,
                  f64 ? InsnClass::Fp64 : InsnClass::Fp32);
}

// ---- abs neg (9.7.3.9-9.7.3.10) ----------------------------------------------------------
// The manual leaves the NaN results unspecified ("For abs.f32, NaN input yields unspecified
// NaN. For abs.f64, NaN input is passed through unchanged"). Measured on the H200: f32 NaNs
// give the canonical 0x7FFFFFFF (for abs and neg, with or without .ftz) where ptxas emits an
// f32 operation, which it does for most; where it folds them into a neighbour as a sign-bit
// operation the NaN keeps its payload (61 first divergences in 10,000 ISA programs, and a
// sign-bit model loses more programs than it wins: 1,323 vs 1,415 of 2,000 agree). f64 NaNs
// come back with their sign and payload but the quiet bit set (fp::nanResult64's rule).
template <bool Neg, bool Ftz>
struct AbsNegF32 {
  static void run(Exec& x, const Inst& in) {
    unary<uint32_t>(x, in, [](uint32_t a) -> uint32_t {
      if (fp::isNaN(fp::f32(a))) return fp::kCanonicalNaN32;
      if constexpr (Ftz) a = flush32(a);
      return Neg ? a ^ kSign32 : a & ~kSign32;
    });
  }
};
template <bool Neg>
struct AbsNegF64 {
  static void run(Exec& x, const Inst& in) {
    unary<uint64_t>(x, in, [](uint64_t a) -> uint64_t {
      if (fp::isNaN(fp::f64(a))) return fp::bits(fp::nanResult64(fp::f64(a), fp::f64(a)));
      return Neg ? a ^ kSign64 : a & ~kSign64;
    });
  }
};

template <bool Neg>
std::string bindAbsNeg(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.rounding.present) return bindError(in, "takes no rounding modifier");
  if (in.mods.type() == Type::F32) {
    if (auto e = checkModifiers(in, {"ftz"}); !e.empty()) return e;
    return bindRegs(in, in.mods.has("ftz") ? AbsNegF32<Neg, true>::run : AbsNegF32<Neg, false>::run,
                    2, InsnClass::Fp32);
  }
  if (auto e = checkModifiers(in, {}); !e.empty()) return e;
  return bindRegs(in, AbsNegF64<Neg>::run, 2, InsnClass::Fp64);
}

// ---- min max (9.7.3.11-9.7.3.12) ---------------------------------------------------------
// Flags: .ftz, .NaN, .xorsign.abs (two inputs) or .abs (three inputs). The manual's semantics:
// the xorsign is taken from the inputs before .abs; min_num returns the non-NaN operand,
// min_nan a canonical NaN; "-0.0 < +0.0"; a NaN result ignores .xorsign and .abs.
constexpr unsigned kMmFtz = 1, kMmNaN = 2, kMmAbs = 4;

template <bool IsMax>
uint32_t minMax32(uint32_t a, uint32_t b, bool nan) {
  const float r =
      IsMax ? fp::fmax(fp::f32(a), fp::f32(b), nan) : fp::fmin(fp::f32(a), fp::f32(b), nan);
  return fp::bits(r);
}

template <bool IsMax>
struct MinMaxF32 {
  template <unsigned F>
  struct Two {
    static void run(Exec& x, const Inst& in) {
      binary<uint32_t>(x, in, [](uint32_t a, uint32_t b) {
        if constexpr (F & kMmFtz) a = flush32(a), b = flush32(b);
        const uint32_t xorsign = (a ^ b) & kSign32;
        if constexpr (F & kMmAbs) a &= ~kSign32, b &= ~kSign32;
        uint32_t d = minMax32<IsMax>(a, b, F & kMmNaN);
        if constexpr (F & kMmAbs)  // .xorsign.abs
          if (!fp::isNaN(fp::f32(d))) d = (d & ~kSign32) | xorsign;
        return d;
      });
    }
  };
  // min{.ftz}{.NaN}{.abs}.f32 d, a, b, c (PTX ISA 8.8, sm_100+): min(min(a, b), c).
  template <unsigned F>
  struct Three {
    static void run(Exec& x, const Inst& in) {
      ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
        if constexpr (F & kMmFtz) a = flush32(a), b = flush32(b), c = flush32(c);
        if constexpr (F & kMmAbs) a &= ~kSign32, b &= ~kSign32, c &= ~kSign32;
        return minMax32<IsMax>(minMax32<IsMax>(a, b, F & kMmNaN), c, F & kMmNaN);
      });
    }
  };
};

template <bool IsMax>
struct MinMaxF64 {
  static void run(Exec& x, const Inst& in) {
    binary<uint64_t>(x, in, [](uint64_t a, uint64_t b) {
      return fp::bits(IsMax ? fp::fmax(fp::f64(a), fp::f64(b)) : fp::fmin(fp::f64(a), fp::f64(b)));
    });
  }
};

template <bool IsMax>
std::string bindMinMax(Inst& in) {
  const Mods& m = in.mods;
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (m.rounding.present) return bindError(in, "takes no rounding modifier");
  if (m.type() == Type::F64) {
    if (auto e = checkModifiers(in, {}); !e.empty()) return e;
    if (sameSourceRegister(in)) return bindRegs(in, copyFirstSource<uint64_t>, 3, InsnClass::Fp64);
    return bindRegs(in, MinMaxF64<IsMax>::run, 3, InsnClass::Fp64);
  }
  if (auto e = checkModifiers(in, {"ftz", "NaN", "xorsign", "abs"}); !e.empty()) return e;
  const bool three = in.ops.size() == 4;
  const bool xorsign = m.has("xorsign"), abs = m.has("abs");
  if (three && xorsign) return bindError(in, ".xorsign cannot be used with three inputs");
  if (!three && abs != xorsign) return bindError(in, ".xorsign and .abs go together");
  const unsigned flags =
      (m.has("ftz") ? kMmFtz : 0) | (m.has("NaN") ? kMmNaN : 0) | (abs ? kMmAbs : 0);
  using H = MinMaxF32<IsMax>;
  if (three) return bindRegs(in, pickFlags<H::template Three, 3>(flags), 4, InsnClass::Fp32);
  if (flags == 0 && sameSourceRegister(in))
    return bindRegs(in, copyFirstSource<uint32_t>, 3, InsnClass::Fp32);
  return bindRegs(in, pickFlags<H::template Two, 3>(flags), 3, InsnClass::Fp32);
}

const std::vector<Type> kF32F64 = {Type::F32, Type::F64};
constexpr std::string_view kFamily = "float_arith";

}  // namespace

std::vector<OpcodeSpec> floatArithmetic() {
  const std::vector<std::string_view> rnd = {"rn", "rz", "rm", "rp"};
  auto with = [&](std::initializer_list<std::string_view> extra) {
    std::vector<std::string_view> v = rnd;
    v.insert(v.end(), extra);
    return v;
  };
  return {
      {"testp",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Other,
       kF32F64,
       {"finite", "infinite", "number", "notanumber", "normal", "subnormal"},
       bindTestp},
      {"copysign",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Other,
       kF32F64,
       {},
       bindCopysign},
      {"add", kFamily, InsnClass::Fp32, Role::Compute, Operation::Add, kF32F64,
       with({"ftz", "sat"}), bindBinary<AddF32, AddOp>},
      {"sub", kFamily, InsnClass::Fp32, Role::Compute, Operation::Subtract, kF32F64,
       with({"ftz", "sat"}), bindBinary<SubF32, SubOp>},
      {"mul", kFamily, InsnClass::Fp32, Role::Compute, Operation::Multiply, kF32F64,
       with({"ftz", "sat"}), bindBinary<MulF32, MulOp>},
      {"fma", kFamily, InsnClass::Fp32, Role::Compute, Operation::MultiplyAdd, kF32F64,
       with({"ftz", "sat"}), bindFma},
      {"mad", kFamily, InsnClass::Fp32, Role::Compute, Operation::MultiplyAdd, kF32F64,
       with({"ftz", "sat"}), bindFma},
      {"div", kFamily, InsnClass::Fp32, Role::Compute, Operation::Divide, kF32F64,
       with({"ftz", "approx", "full"}), bindDiv},
      {"rcp", kFamily, InsnClass::Fp32, Role::Compute, Operation::Other, kF32F64,
       with({"ftz", "approx"}), bindRcp},
      {"sqrt", kFamily, InsnClass::Fp32, Role::Compute, Operation::Other, kF32F64,
       with({"ftz", "approx"}), bindSqrt},
      {"abs",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Absolute,
       kF32F64,
       {"ftz"},
       bindAbsNeg<false>},
      {"neg",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Negate,
       kF32F64,
       {"ftz"},
       bindAbsNeg<true>},
      {"min",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Min,
       kF32F64,
       {"ftz", "NaN", "xorsign", "abs"},
       bindMinMax<false>},
      {"max",
       kFamily,
       InsnClass::Fp32,
       Role::Compute,
       Operation::Max,
       kF32F64,
       {"ftz", "NaN", "xorsign", "abs"},
       bindMinMax<true>},
  };
}

}  // namespace warpsim::isa::insns
