// f32 / f64 arithmetic (PTX ISA 9.7.3): add sub mul fma mad div sqrt rcp with every IEEE
// rounding mode (.ftz and .sat on f32), abs neg min max (.NaN, .xorsign.abs), copysign, testp;
// with GenOptions::approx also the SFU approximations (ex2 lg2 sin cos tanh rsqrt, rcp/sqrt/div
// .approx, div.full), which are measured rather than modelled exactly.
//
// Every add/sub/mul carries an explicit rounding mode: without one ptxas may fuse a mul and a
// dependent add into an fma (PTX ISA 9.7.3.1), which would make the GPU's result depend on
// code generation rather than on the instruction.
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kRnd = {"rn", "rz", "rm", "rp"};

// ".rnd{.ftz}{.sat}" for f32 (sat only where the instruction has it), ".rnd" for f64.
std::string floatMods(Builder& b, bool f32, bool sat) {
  std::string m = "." + b.pick(kRnd);
  if (f32 && b.percent(35)) m += ".ftz";
  if (f32 && sat && b.percent(25)) m += ".sat";
  return m;
}

std::string fty(Builder& b) { return b.percent(60) ? "f32" : "f64"; }

void addSubMul(Builder& b) {
  const std::string op = b.pick({"add", "sub", "mul"}), t = fty(b);
  const std::string f = op + floatMods(b, t == "f32", true) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 15)}));
}

void fmaMad(Builder& b) {
  const std::string op = b.pick({"fma", "fma", "mad"}), t = fty(b);
  const std::string f = op + floatMods(b, t == "f32", true) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 10), b.srcT(t, 10)}));
}

void divide(Builder& b) {
  const std::string t = fty(b), f = "div" + floatMods(b, t == "f32", false) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 10)}));
}

void sqrtRcp(Builder& b) {
  const std::string op = b.pick({"sqrt", "rcp"}), t = fty(b);
  const std::string f = op + floatMods(b, t == "f32", false) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t)}));
}

void absNeg(Builder& b) {
  const std::string op = b.pick({"abs", "neg"}), t = fty(b);
  const std::string f = op + (t == "f32" && b.percent(35) ? ".ftz" : "") + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t)}));
}

void minMax(Builder& b) {
  const std::string op = b.pick({"min", "max"}), t = fty(b);
  std::string f = op;
  if (t == "f32") {  // .NaN and .xorsign.abs are f32 (and half) only
    if (b.percent(35)) f += ".ftz";
    if (b.percent(35)) f += ".NaN";
    if (b.percent(30)) f += ".xorsign.abs";
  }
  f += "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 10)}));
}

void copysign(Builder& b) {
  const std::string t = fty(b), f = "copysign." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t)}));
}

void testp(Builder& b) {
  const std::string op =
      b.pick({"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
  const std::string t = fty(b), f = "testp." + op + "." + t;
  b.emit(f, args({b.dst(RK::Pred, Fl::Pred), b.srcT(t)}));
}

void approx(Builder& b) {
  const std::string ftz = b.percent(40) ? ".ftz" : "";
  switch (b.below(8)) {
    case 0: {
      const std::string f =
          std::string(b.pick({"ex2", "lg2", "sin", "cos"})) + ".approx" + ftz + ".f32";
      b.emit(f, args({b.dstT("f32"), b.srcT("f32")}));
      break;
    }
    case 1:
      b.emit("tanh.approx.f32", args({b.dstT("f32"), b.srcT("f32")}));
      break;
    case 2: {
      const std::string f =
          std::string(b.pick({"rsqrt", "rcp", "sqrt"})) + ".approx" + ftz + ".f32";
      b.emit(f, args({b.dstT("f32"), b.srcT("f32")}));
      break;
    }
    case 3: {
      const std::string f =
          std::string(b.pick({"rsqrt.approx.f64", "rsqrt.approx.ftz.f64", "rcp.approx.ftz.f64"}));
      b.emit(f, args({b.dstT("f64"), b.srcT("f64")}));
      break;
    }
    case 4: {
      const std::string f = std::string("div.") + b.pick({"approx", "full"}) + ftz + ".f32";
      b.emit(f, args({b.dstT("f32"), b.srcT("f32", 10), b.srcT("f32", 10)}));
      break;
    }
    case 5: {
      const std::string t = b.pick({"f16", "bf16"}),
                        f = std::string("ex2.approx") + (t == "bf16" ? ".ftz." : ".") + t;
      b.emit(f, args({b.dstT(t), b.srcT(t)}));
      break;
    }
    case 6: {
      const std::string t = b.pick({"f16x2", "bf16x2"}),
                        f = std::string("ex2.approx") + (t == "bf16x2" ? ".ftz." : ".") + t;
      b.emit(f, args({b.dstT(t), b.srcT(t)}));
      break;
    }
    default: {
      const std::string t = b.pick({"f16", "f16x2", "bf16", "bf16x2"}), f = "tanh.approx." + t;
      b.emit(f, args({b.dstT(t), b.srcT(t)}));
    }
  }
}

// A contractible sequence (GenOptions::contract): `mul{.ftz}.t %c0, a, b` into a scratch
// register that nothing stores, then an add/sub of the same .ftz consuming it (either operand,
// .sat sometimes), which ptxas fuses into one FFMA/DFMA. Sometimes a neg lies between (folded
// in), a second add/sub consumes the product too (fused as well), or that second consumer has
// .rn, which keeps both pairs apart: each clause of the rule that isa/contract.h implements,
// for the chip to confirm. Only the last instruction may be guarded (a guarded mul never
// fuses). The consumers' destinations avoid the mul's sources, which ptxas (renaming
// registers) would fuse across and warpsim does not. A quarter of the f32 products are the
// quotients of div.full / div.approx, which ptxas fuses like a mul's.
void contractible(Builder& b) {
  const bool f32 = b.percent(70);
  const std::string t = f32 ? "f32" : "f64", c = f32 ? "%cf" : "%cd";
  const std::string ftz = f32 && b.percent(30) ? ".ftz" : "";
  const RK kind = f32 ? RK::F32 : RK::F64;
  const std::string x = b.src(kind, Fl::Float), y = b.src(kind, Fl::Float);
  const std::string product = f32 && b.percent(25) ? b.pick({"div.full", "div.approx"}) : "mul";
  b.emitRaw(product + ftz + "." + t + " " + c + "0," + x + "," + y + ";");
  std::string value = c + "0";
  if (b.percent(20)) {
    b.emitRaw("neg" + ftz + "." + t + " " + c + "1," + c + "0;");
    value = c + "1";
  }
  // A second consumer needs a destination other than the mul's sources for the first (a pool
  // of one or two registers of the kind has none: then there is one consumer).
  const unsigned shape = b.below(100);
  const bool two = (shape < 20 || shape >= 90) && b.poolSize(kind) > 2;
  auto consumer = [&](const std::string& rounding) {
    const std::string op = b.pick({"add", "sub"});
    const std::string sat = f32 && b.percent(15) ? ".sat" : "";
    const std::string d = two ? b.dst(kind, Fl::Float, {x, y}) : b.dst(kind, Fl::Float);
    const std::string other = b.srcT(t, 10);
    const bool first = b.percent(50);
    b.emit(op + rounding + ftz + sat + "." + t,
           args({d, first ? value : other, first ? other : value}));
  };
  if (two && shape < 20) consumer("");      // a product with two consumers: both fuse
  if (two && shape >= 90) consumer(".rn");  // ... one of which cannot: neither fuses
  consumer("");
}

}  // namespace

std::vector<Op> floatOps() {
  return {
      {"float.addsubmul", 10, kGuardable, addSubMul},
      {"float.fma", 6, kGuardable, fmaMad},
      {"float.div", 4, kGuardable, divide},
      {"float.sqrtrcp", 4, kGuardable, sqrtRcp},
      {"float.absneg", 2, kGuardable, absNeg},
      {"float.minmax", 4, kGuardable, minMax},
      {"float.copysign", 1, kGuardable, copysign},
      {"float.testp", 2, kGuardable, testp},
      {"float.approx", 6, kGuardable | kApprox, approx},
      {"float.contract", 10, kGuardable | kContract, contractible},
  };
}

}  // namespace warpsim::ptxgen
