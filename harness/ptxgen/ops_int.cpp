// Integer arithmetic (PTX ISA 9.7.1): add sub (.sat, 16x2) mul mad (.lo .hi .wide, mad.hi.sat)
// mul24 mad24 sad div rem abs neg min max (.relu, 16x2), and carry chains of add.cc addc sub.cc
// subc mad.cc madc.
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kInts = {"u16", "s16", "u32", "s32", "u64", "s64"};
const std::vector<std::string> kNarrow = {"u16", "s16", "u32", "s32"};

std::string wider(const std::string& t) {
  if (t == "u16") return "u32";
  if (t == "s16") return "s32";
  if (t == "u32") return "u64";
  return "s64";
}

void addSub(Builder& b) {
  std::string t = b.pick(kInts), f;
  const unsigned r = b.below(10);
  if (r == 0 && b.options.simulatorGaps) {  // sub has no 16x2 form
    t = b.pick({"u16x2", "s16x2"});
    f = "add." + t;
  } else if (r == 1) {
    t = "s32";
    f = std::string(b.pick({"add", "sub"})) + ".sat.s32";
  } else {
    f = std::string(b.pick({"add", "sub"})) + "." + t;
  }
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 20)}));
}

void mul(Builder& b) {
  const std::string t = b.pick(kInts);
  if (t.substr(1) != "64" && b.percent(35)) {
    const std::string f = "mul.wide." + t;
    b.emit(f, args({b.dstT(wider(t)), b.srcT(t), b.srcT(t, 15)}));
    return;
  }
  const std::string f = std::string("mul.") + b.pick({"lo", "hi"}) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 15)}));
}

void mad(Builder& b) {
  const std::string t = b.pick(kInts);
  const unsigned r = b.below(10);
  if (r < 3 && t.substr(1) != "64") {
    const std::string f = "mad.wide." + t, w = wider(t);
    b.emit(f, args({b.dstT(w), b.srcT(t), b.srcT(t, 10), b.srcT(w, 10)}));
    return;
  }
  if (r == 3) {  // the one saturating form
    b.emit("mad.hi.sat.s32",
           args({b.dstT("s32"), b.srcT("s32"), b.srcT("s32", 10), b.srcT("s32", 10)}));
    return;
  }
  const std::string f = std::string("mad.") + b.pick({"lo", "hi"}) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 10), b.srcT(t, 10)}));
}

void mul24(Builder& b) {
  const std::string t = b.pick({"u32", "s32"}), half = b.pick({"lo", "hi"});
  switch (b.below(3)) {
    case 0: {
      const std::string f = "mul24." + half + "." + t;
      b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 15)}));
      break;
    }
    case 1: {
      const std::string f = "mad24." + half + "." + t;
      b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 10), b.srcT(t, 10)}));
      break;
    }
    default:
      if (!b.options.simulatorGaps) {
        b.emit("mad24.lo.s32",
               args({b.dstT("s32"), b.srcT("s32"), b.srcT("s32"), b.srcT("s32", 10)}));
        break;
      }
      b.emit("mad24.hi.sat.s32",
             args({b.dstT("s32"), b.srcT("s32"), b.srcT("s32"), b.srcT("s32", 10)}));
  }
}

void sad(Builder& b) {
  const std::string t = b.pick(kInts), f = "sad." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 10), b.srcT(t, 10)}));
}

void divRem(Builder& b) {
  // Division by zero and INT_MIN / -1 included: PTX leaves them machine-specific, which is what
  // the differential run measures.
  const std::string t = b.pick(kInts), f = std::string(b.pick({"div", "rem"})) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 25)}));
}

void absNeg(Builder& b) {
  const std::string t = b.pick({"s16", "s32", "s64"}),
                    f = std::string(b.pick({"abs", "neg"})) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t)}));
}

void minMax(Builder& b) {
  const std::string op = b.pick({"min", "max"});
  std::string t = b.pick(kInts), f = op + "." + t;
  switch (b.below(8)) {
    case 0:
      t = "s32";
      f = op + ".relu.s32";
      break;
    case 1:
      if (!b.options.simulatorGaps) break;
      t = "s16x2";
      f = op + (b.percent(50) ? ".relu" : "") + ".s16x2";
      break;
    case 2:
      if (!b.options.simulatorGaps) break;
      t = "u16x2";
      f = op + ".u16x2";
      break;
    default:
      break;
  }
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 15)}));
}

// A carry chain: one .cc producer, consumers that read (and maybe write) CC.CF, the last
// without .cc. Emitted as one unguarded unit so that nothing else runs between the links (the
// carry flag is not a register that survives arbitrary code in PTX's model).
void carryChain(Builder& b) {
  const std::string t = b.pick({"u32", "s32", "u64", "s64"});
  const bool mixTypes = b.percent(15);
  auto link = [&](bool first, bool last) {
    const std::string lt = mixTypes ? std::string(b.pick({"u32", "s32", "u64", "s64"})) : t;
    const unsigned kind = b.below(5);  // 0-1 add, 2-3 sub, 4 mad
    const std::string cc = last ? "" : ".cc";
    if (kind == 4) {
      const std::string f =
          std::string(first ? "mad." : "madc.") + b.pick({"lo", "hi"}) + cc + "." + lt;
      b.emit(f, args({b.dstT(lt), b.srcT(lt), b.srcT(lt, 10), b.srcT(lt, 10)}));
      return;
    }
    const std::string op = kind < 2 ? (first ? "add" : "addc") : (first ? "sub" : "subc");
    const std::string f = op + (first ? ".cc" : cc) + "." + lt;
    b.emit(f, args({b.dstT(lt), b.srcT(lt, 10), b.srcT(lt, 20)}));
  };
  const unsigned n = 2 + b.below(3);
  for (unsigned i = 0; i < n; ++i) link(i == 0, i + 1 == n && b.percent(85));
}

}  // namespace

std::vector<Op> intOps() {
  return {
      {"int.addsub", 8, kGuardable, addSub}, {"int.mul", 5, kGuardable, mul},
      {"int.mad", 5, kGuardable, mad},       {"int.mul24", 3, kGuardable, mul24},
      {"int.sad", 2, kGuardable, sad},       {"int.divrem", 4, kGuardable, divRem},
      {"int.absneg", 2, kGuardable, absNeg}, {"int.minmax", 4, kGuardable, minMax},
      {"int.carry", 4, 0, carryChain},
  };
}

}  // namespace warpsim::ptxgen
