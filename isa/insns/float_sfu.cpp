// The hardware approximations, PTX ISA 9.0 sections 9.7.3.8-9.7.3.22 and 9.7.4.9-9.7.4.10:
// ex2 lg2 sin cos tanh rsqrt (.approx), rcp.approx, sqrt.approx, div.approx, div.full, and the
// f16/bf16 forms of ex2 and tanh. The binders and handlers are here; the models (what each
// form computes, and how far it is known to match the H200) are in isa/sfu/approx.cpp.
#include <cmath>

#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"
#include "isa/sfu/approx.h"

namespace warpsim::isa::insns {
namespace {

using namespace sfu;  // the models

// ---- handlers ------------------------------------------------------------------------------
template <uint32_t (*Fn)(uint32_t, bool), bool Ftz>
struct UnaryF32 {
  static void run(Exec& x, const Inst& in) {
    unary<uint32_t>(x, in, [](uint32_t a) { return Fn(a, Ftz); });
  }
};
template <uint32_t (*Fn)(uint32_t, uint32_t, bool), bool Ftz>
struct BinaryF32 {
  static void run(Exec& x, const Inst& in) {
    binary<uint32_t>(x, in, [](uint32_t a, uint32_t b) { return Fn(a, b, Ftz); });
  }
};
template <uint64_t (*Fn)(uint64_t)>
struct UnaryF64 {
  static void run(Exec& x, const Inst& in) { unary<uint64_t>(x, in, Fn); }
};
template <uint16_t (*Fn)(uint16_t), bool Packed>
struct UnaryHalf {
  static void run(Exec& x, const Inst& in) {
    unary<uint32_t>(x, in, [](uint32_t a) -> uint32_t {
      if constexpr (!Packed) return Fn(lowHalf(a));
      return packHalves(Fn(lowHalf(a)), Fn(highHalf(a)));
    });
  }
};

template <uint32_t (*Fn)(uint32_t, bool)>
Handler pickF32(bool ftz) {
  return ftz ? UnaryF32<Fn, true>::run : UnaryF32<Fn, false>::run;
}

// Shared checks: .approx present (or .full for div), no rounding, one type.
std::string checkApprox(const Inst& in, std::initializer_list<std::string_view> allowed) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.rounding.present) return bindError(in, "an approximation takes no rounding modifier");
  if (!in.mods.has("approx") && !in.mods.has("full")) return bindError(in, "requires .approx");
  return checkModifiers(in, allowed);
}

// ex2.approx{.ftz}.f32, ex2.approx.{f16,f16x2}, ex2.approx.ftz.{bf16,bf16x2}.
std::string bindEx2(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "ftz"}); !e.empty()) return e;
  const bool ftz = in.mods.has("ftz");
  switch (in.mods.type()) {
    case Type::F32:
      return bindRegs(in, pickF32<ex2ApproxF32>(ftz), 2, InsnClass::Sfu);
    case Type::F16:
    case Type::F16x2:
      if (ftz) return bindError(in, ".ftz is not defined for the .f16 forms");
      return bindRegs(in,
                      in.mods.type() == Type::F16 ? UnaryHalf<ex2ApproxF16, false>::run
                                                  : UnaryHalf<ex2ApproxF16, true>::run,
                      2, InsnClass::Sfu);
    case Type::BF16:
    case Type::BF16x2:
      if (!ftz) return bindError(in, "the .bf16 forms require .ftz (ex2.approx.ftz.bf16)");
      return bindRegs(in,
                      in.mods.type() == Type::BF16 ? UnaryHalf<ex2ApproxFtzBF16, false>::run
                                                   : UnaryHalf<ex2ApproxFtzBF16, true>::run,
                      2, InsnClass::Sfu);
    default:
      return bindError(in, "unsupported type");
  }
}

// tanh.approx.{f32,f16,f16x2,bf16,bf16x2}: no .ftz.
std::string bindTanh(Inst& in) {
  if (auto e = checkApprox(in, {"approx"}); !e.empty()) return e;
  Handler h = nullptr;
  switch (in.mods.type()) {
    case Type::F32:
      h = UnaryF32<tanhApproxF32, false>::run;
      break;
    case Type::F16:
      h = UnaryHalf<tanhApproxF16, false>::run;
      break;
    case Type::F16x2:
      h = UnaryHalf<tanhApproxF16, true>::run;
      break;
    case Type::BF16:
      h = UnaryHalf<tanhApproxBF16, false>::run;
      break;
    case Type::BF16x2:
      h = UnaryHalf<tanhApproxBF16, true>::run;
      break;
    default:
      break;
  }
  return bindRegs(in, h, 2, InsnClass::Sfu);
}

// lg2 / sin / cos: .approx{.ftz}.f32 only.
template <uint32_t (*Fn)(uint32_t, bool)>
std::string bindF32Only(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "ftz"}); !e.empty()) return e;
  if (in.mods.type() != Type::F32) return bindError(in, "is defined for .f32 only");
  return bindRegs(in, pickF32<Fn>(in.mods.has("ftz")), 2, InsnClass::Sfu);
}

// rsqrt.approx{.ftz}.f32, rsqrt.approx.f64, rsqrt.approx.ftz.f64.
std::string bindRsqrt(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "ftz"}); !e.empty()) return e;
  const bool ftz = in.mods.has("ftz");
  if (in.mods.type() == Type::F32)
    return bindRegs(in, pickF32<rsqrtApproxF32>(ftz), 2, InsnClass::Sfu);
  return bindRegs(in, ftz ? UnaryF64<rsqrtApproxFtzF64>::run : UnaryF64<rsqrtApproxF64>::run, 2,
                  InsnClass::Sfu);
}

}  // namespace

// rcp.approx{.ftz}.f32 and rcp.approx.ftz.f64 (the f64 form exists with .ftz only).
std::string bindRcpApprox(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "ftz"}); !e.empty()) return e;
  const bool ftz = in.mods.has("ftz");
  if (in.mods.type() == Type::F32)
    return bindRegs(in, pickF32<rcpApproxF32>(ftz), 2, InsnClass::Sfu);
  if (!ftz) return bindError(in, "the .f64 approximation is rcp.approx.ftz.f64");
  return bindRegs(in, UnaryF64<rcpApproxFtzF64>::run, 2, InsnClass::Sfu);
}

// sqrt.approx{.ftz}.f32.
std::string bindSqrtApprox(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "ftz"}); !e.empty()) return e;
  if (in.mods.type() != Type::F32) return bindError(in, "sqrt.approx is defined for .f32 only");
  return bindRegs(in, pickF32<sqrtApproxF32>(in.mods.has("ftz")), 2, InsnClass::Sfu);
}

// div.approx{.ftz}.f32 and div.full{.ftz}.f32.
std::string bindDivApprox(Inst& in) {
  if (auto e = checkApprox(in, {"approx", "full", "ftz"}); !e.empty()) return e;
  if (in.mods.has("approx") && in.mods.has("full"))
    return bindError(in, "takes one of .approx and .full");
  if (in.mods.type() != Type::F32) return bindError(in, "div.approx/div.full are .f32 only");
  const bool ftz = in.mods.has("ftz");
  Handler h =
      in.mods.has("full")
          ? (ftz ? BinaryF32<divFullF32, true>::run : BinaryF32<divFullF32, false>::run)
          : (ftz ? BinaryF32<divApproxF32, true>::run : BinaryF32<divApproxF32, false>::run);
  return bindRegs(in, h, 3, InsnClass::Sfu);
}

std::vector<OpcodeSpec> floatSpecial() {
  constexpr std::string_view kFamily = "float_sfu";
  const std::vector<Type> f32 = {Type::F32};
  const std::vector<Type> halves = {Type::F32, Type::F16, Type::F16x2, Type::BF16, Type::BF16x2};
  return {
      {"ex2",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       halves,
       {"approx", "ftz"},
       bindEx2},
      {"tanh",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       halves,
       {"approx"},
       bindTanh},
      {"lg2",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       f32,
       {"approx", "ftz"},
       bindF32Only<lg2ApproxF32>},
      {"sin",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       f32,
       {"approx", "ftz"},
       bindF32Only<sinApproxF32>},
      {"cos",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       f32,
       {"approx", "ftz"},
       bindF32Only<cosApproxF32>},
      {"rsqrt",
       kFamily,
       InsnClass::Sfu,
       Role::Compute,
       Operation::Other,
       {Type::F32, Type::F64},
       {"approx", "ftz"},
       bindRsqrt},
  };
}

}  // namespace warpsim::isa::insns
