// Half-precision arithmetic (PTX ISA 9.7.4): add sub mul fma (.rn, .ftz, .sat, .relu, .oob) neg
// abs min max (.NaN, .xorsign.abs) on f16, f16x2, bf16 and bf16x2. .ftz and .sat exist for
// the f16 types only; .rn is written on add/sub/mul so that ptxas cannot fuse them.
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kHalves = {"f16", "f16x2", "bf16", "bf16x2"};

bool isF16(const std::string& t) { return t == "f16" || t == "f16x2"; }

void addSubMul(Builder& b) {
  const std::string op = b.pick({"add", "sub", "mul"}), t = b.pick(kHalves);
  std::string f = op + ".rn";
  if (isF16(t) && b.percent(35)) f += ".ftz";
  if (isF16(t) && b.percent(30)) f += ".sat";
  f += "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t)}));
}

void fma(Builder& b) {
  const std::string t = b.pick(kHalves);
  std::string f = "fma.rn";
  if (b.percent(15)) {
    f += ".oob";
    if (b.percent(40)) f += ".relu";
  } else if (isF16(t)) {
    if (b.percent(35)) f += ".ftz";
    const unsigned r = b.below(3);  // .sat and .relu exclude each other
    if (r == 1) f += ".sat";
    if (r == 2) f += ".relu";
  } else if (b.percent(40)) {
    f += ".relu";
  }
  f += "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t), b.srcT(t)}));
}

void absNeg(Builder& b) {
  const std::string op = b.pick({"abs", "neg"}), t = b.pick(kHalves);
  const std::string f = op + (isF16(t) && b.percent(35) ? ".ftz" : "") + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t)}));
}

void minMax(Builder& b) {
  const std::string op = b.pick({"min", "max"}), t = b.pick(kHalves);
  std::string f = op;
  if (isF16(t) && b.percent(35)) f += ".ftz";
  if (b.percent(35)) f += ".NaN";
  if (b.percent(30)) f += ".xorsign.abs";
  f += "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t)}));
}

}  // namespace

std::vector<Op> halfOps() {
  return {
      {"half.addsubmul", 6, kGuardable, addSubMul},
      {"half.fma", 4, kGuardable, fma},
      {"half.absneg", 2, kGuardable, absNeg},
      {"half.minmax", 3, kGuardable, minMax},
  };
}

}  // namespace warpsim::ptxgen
