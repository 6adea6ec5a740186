// Conversions (PTX ISA 9.7.9.21 cvt): between every integer and float type with every
// rounding, .ftz, .sat, .relu and .satfinite combination ptxas 13 accepts for sm_90 (the rules
// below were read off ptxas itself, type pair by type pair), the packing forms f16x2/bf16x2 from
// two f32, tf32, and the fp8 pairs (e4m3x2, e5m2x2).
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kIntTypes = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"};
const std::vector<std::string> kFloatTypes = {"f16", "bf16", "f32", "f64"};
const std::vector<std::string> kRnd = {"rn", "rz", "rm", "rp"};
const std::vector<std::string> kIrnd = {"rni", "rzi", "rmi", "rpi"};

unsigned bitsOf(const std::string& t) { return typeInfo(t).bits; }
bool isSigned(const std::string& t) { return t[0] == 's'; }

// Whether every value of integer type a is representable in d (then .sat is refused).
bool fits(const std::string& d, const std::string& a) {
  if (d == a) return true;
  const unsigned bd = bitsOf(d), ba = bitsOf(a);
  if (isSigned(a) && !isSigned(d)) return false;
  if (!isSigned(a) && isSigned(d)) return bd > ba;
  return bd >= ba;
}

// An 8-bit integer lives in a b16 or (relaxed type rules, PTX ISA 5.5.1) a b32 register.
std::string intDst(Builder& b, const std::string& t) {
  if (bitsOf(t) == 8 && b.percent(40)) return b.dst(RK::B32, Fl::Int);
  return b.dstT(t);
}
std::string intSrc(Builder& b, const std::string& t) {
  if (bitsOf(t) == 8 && b.percent(40)) return b.src(RK::B32, Fl::Int);
  return b.srcT(t);
}

void intToInt(Builder& b) {
  const std::string d = b.pick(kIntTypes), a = b.pick(kIntTypes);
  const std::string f =
      std::string("cvt") + (!fits(d, a) && b.percent(45) ? ".sat" : "") + "." + d + "." + a;
  b.emit(f, args({intDst(b, d), intSrc(b, a)}));
}

void intToFloat(Builder& b) {
  const std::string d = b.pick(kFloatTypes);
  std::string a = b.pick(kIntTypes);
  if (d == "bf16" && bitsOf(a) == 8) a = a[0] == 'u' ? "u16" : "s16";  // no 8-bit bf16 forms
  std::string f = "cvt." + b.pick(kRnd);
  if (d == "f32" && b.percent(20)) f += ".ftz";
  if (d != "bf16" && b.percent(25)) f += ".sat";
  f += "." + d + "." + a;
  b.emit(f, args({b.dstT(d), intSrc(b, a)}));
}

void floatToInt(Builder& b) {
  const std::string a = b.pick(kFloatTypes);
  std::string d = b.pick(kIntTypes);
  if (a == "bf16" && bitsOf(d) == 8) d = d[0] == 'u' ? "u16" : "s16";
  std::string f = "cvt." + b.pick(kIrnd);
  if (a == "f32" && b.percent(30)) f += ".ftz";
  if (a != "bf16" && b.percent(30)) f += ".sat";
  f += "." + d + "." + a;
  b.emit(f, args({intDst(b, d), b.srcT(a)}));
}

// The modifiers of cvt.d.a between float types. Built one statement at a time: the order of
// the random draws must not depend on the compiler's order of evaluating `+` operands.
std::string floatFloatMods(Builder& b, const std::string& d, const std::string& a) {
  std::string m;
  auto opt = [&](const char* w, unsigned p) {
    if (b.percent(p)) m += w;
  };
  auto rnd = [&] { m += "." + b.pick(kRnd); };
  auto relu = [&] {  // (.rn|.rz){.relu}{.satfinite}
    m += b.percent(50) ? ".rn" : ".rz";
    opt(".relu", 50);
    opt(".satfinite", 50);
  };
  if (d == a) {
    if (b.percent(60)) m += "." + b.pick(kIrnd);
    if (d == "f32") opt(".ftz", 40);
    if (d != "bf16") opt(".sat", 30);
  } else if (d == "f32" && a == "f16") {
    opt(".ftz", 40);
    opt(".sat", 30);
  } else if (d == "f64" && a == "f16") {
    opt(".sat", 30);
  } else if (d == "f64" && a == "f32") {
    opt(".ftz", 40);
    opt(".sat", 30);
  } else if (d == "f32" && a == "bf16") {
    if (b.percent(30)) rnd();
    opt(".ftz", 40);
  } else if (d == "f64" && a == "bf16") {
    if (b.percent(30)) rnd();
  } else if (d == "f16" && a == "f32") {
    if (b.percent(30)) {
      relu();
    } else {
      rnd();
      opt(".ftz", 35);
      opt(".sat", 30);
    }
  } else if (d == "bf16" && a == "f32") {
    if (b.percent(40)) {
      relu();
    } else {
      rnd();
      opt(".ftz", 35);
    }
  } else if (d == "f16" && a == "f64") {
    rnd();
    opt(".sat", 30);
  } else if (d == "f32" && a == "f64") {
    rnd();
    opt(".ftz", 35);
    opt(".sat", 30);
  } else if (d == "bf16" && a == "f64") {
    rnd();
  } else if (b.percent(60)) {  // f16 <-> bf16
    rnd();
  }
  return m;
}

void floatToFloat(Builder& b) {
  const std::string d = b.pick(kFloatTypes), a = b.pick(kFloatTypes);
  const std::string f = "cvt" + floatFloatMods(b, d, a) + "." + d + "." + a;
  b.emit(f, args({b.dstT(d), b.srcT(a)}));
}

void pack(Builder& b) {
  if (b.percent(30)) {  // tf32: .rna{.satfinite}, or .rn/.rz{.relu} (.satfinite there is sm_100)
    std::string f;
    if (b.percent(50)) {
      f = std::string("cvt.rna") + (b.percent(40) ? ".satfinite" : "") + ".tf32.f32";
    } else {
      const std::string r = b.pick({"rn", "rz"});
      f = "cvt." + r + (b.percent(40) ? ".relu" : "") + ".tf32.f32";
    }
    b.emit(f, args({b.dst(RK::B32, Fl::Int), b.srcT("f32")}));
    return;
  }
  const std::string t = b.pick({"f16x2", "bf16x2"}), r = b.pick({"rn", "rz"});
  std::string f = "cvt." + r;
  if (b.percent(35)) f += ".relu";
  if (b.percent(35)) f += ".satfinite";
  f += "." + t + ".f32";
  b.emit(f, args({b.dstT(t), b.srcT("f32", 5), b.srcT("f32", 5)}));
}

void fp8(Builder& b) {
  const std::string t = b.pick({"e4m3x2", "e5m2x2"}), relu = b.percent(40) ? ".relu" : "";
  switch (b.below(3)) {
    case 0: {
      const std::string f = "cvt.rn.satfinite" + relu + "." + t + ".f32";
      b.emit(f, args({b.dst(RK::B16, Fl::Int), b.srcT("f32"), b.srcT("f32")}));
      break;
    }
    case 1: {
      const std::string f = "cvt.rn.satfinite" + relu + "." + t + ".f16x2";
      b.emit(f, args({b.dst(RK::B16, Fl::Int), b.srcT("f16x2")}));
      break;
    }
    default: {
      const std::string f = "cvt.rn" + relu + ".f16x2." + t;
      b.emit(f, args({b.dstT("f16x2"), b.src(RK::B16)}));
    }
  }
}

}  // namespace

std::vector<Op> convertOps() {
  return {
      {"cvt.int.int", 5, kGuardable, intToInt},
      {"cvt.int.float", 5, kGuardable, intToFloat},
      {"cvt.float.int", 5, kGuardable, floatToInt},
      {"cvt.float.float", 6, kGuardable, floatToFloat},
      {"cvt.pack", 3, kGuardable, pack},
      {"cvt.fp8", 2, kGuardable | kFp8, fp8},
  };
}

}  // namespace warpsim::ptxgen
