// Logic and bit instructions (PTX ISA 9.7.8, 9.7.1.x): and or xor not cnot (bits and predicates)
// lop3 (with the .and/.or predicate form) shl shr shf prmt bfe bfi brev bfind clz popc fns bmsk
// szext dp4a dp2a. Shift amounts, positions and lengths are drawn around and past the widths.
#include <cctype>

#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kBits = {"b16", "b32", "b64"};

// A .u32 bit position or count operand: an immediate weighted at the width, or a register.
std::string amount(Builder& b, unsigned width) {
  return b.percent(55) ? b.shiftImm(width) : b.src(RK::B32, Fl::Int);
}

unsigned widthOf(const std::string& t) { return typeInfo(t).bits; }

void logic(Builder& b) {
  const std::string op = b.pick({"and", "or", "xor"});
  if (b.percent(20)) {
    const std::string f = op + ".pred";
    b.emit(f, args({b.dst(RK::Pred, Fl::Pred), b.predSrc(30), b.predSrc(30)}));
    return;
  }
  const std::string t = b.pick(kBits), f = op + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t, 20)}));
}

void notCnot(Builder& b) {
  if (b.percent(20)) {
    b.emit("not.pred", args({b.dst(RK::Pred, Fl::Pred), b.src(RK::Pred)}));
    return;
  }
  const std::string t = b.pick(kBits), f = std::string(b.pick({"not", "cnot"})) + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t)}));
}

void lop3(Builder& b) {
  const std::string lut = b.u32Imm(b.below(256));
  if (b.percent(30)) {  // lop3.{and,or}.b32 d|p, a, b, c, immLut, q
    const std::string f = std::string("lop3.") + b.pick({"and", "or"}) + ".b32";
    const std::string d = b.dst(RK::B32, Fl::Int), p = b.dst(RK::Pred, Fl::Pred);
    b.emit(f, args({d + "|" + p, b.srcT("b32"), b.srcT("b32", 10), b.srcT("b32", 10), lut,
                    b.predSrc(30)}));
    return;
  }
  b.emit("lop3.b32",
         args({b.dstT("b32"), b.srcT("b32"), b.srcT("b32", 10), b.srcT("b32", 10), lut}));
}

void shift(Builder& b) {
  if (b.percent(40)) {
    const std::string t = b.pick(kBits), f = "shl." + t;
    b.emit(f, args({b.dstT(t), b.srcT(t), amount(b, widthOf(t))}));
    return;
  }
  const std::string t = b.pick({"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"});
  const std::string f = "shr." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), amount(b, widthOf(t))}));
}

void shf(Builder& b) {
  const std::string dir = b.pick({"l", "r"}), mode = b.pick({"clamp", "wrap"});
  const std::string f = "shf." + dir + "." + mode + ".b32";
  b.emit(f, args({b.dstT("b32"), b.srcT("b32"), b.srcT("b32"), amount(b, 32)}));
}

void prmt(Builder& b) {
  std::string f = "prmt.b32";
  if (b.percent(40)) f += std::string(".") + b.pick({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
  b.emit(f, args({b.dstT("b32"), b.srcT("b32"), b.srcT("b32"), b.srcT("b32", 40)}));
}

void bfe(Builder& b) {
  const std::string t = b.pick({"u32", "s32", "u64", "s64"}), f = "bfe." + t;
  const unsigned w = widthOf(t);
  b.emit(f, args({b.dstT(t), b.srcT(t), amount(b, w), amount(b, w)}));
}

void bfi(Builder& b) {
  const std::string t = b.pick({"b32", "b64"}), f = "bfi." + t;
  const unsigned w = widthOf(t);
  b.emit(f, args({b.dstT(t), b.srcT(t), b.srcT(t), amount(b, w), amount(b, w)}));
}

void bitCount(Builder& b) {
  switch (b.below(4)) {
    case 0: {
      const std::string t = b.pick({"b32", "b64"}), f = "brev." + t;
      b.emit(f, args({b.dstT(t), b.srcT(t)}));
      break;
    }
    case 1: {
      const std::string t = b.pick({"u32", "s32", "u64", "s64"});
      const std::string f = std::string("bfind") + (b.percent(40) ? ".shiftamt" : "") + "." + t;
      b.emit(f, args({b.dstT("u32"), b.srcT(t)}));
      break;
    }
    default: {
      const std::string t = b.pick({"b32", "b64"}),
                        f = std::string(b.pick({"clz", "popc"})) + "." + t;
      b.emit(f, args({b.dstT("u32"), b.srcT(t)}));
    }
  }
}

void fns(Builder& b) {
  // base must be <= 31 (PTX: otherwise undefined): an immediate, or a register masked to 0..31.
  std::string base;
  if (b.percent(60)) {
    base = std::to_string(b.below(32));
  } else {
    b.emitRaw("and.b32 %t0," + b.src(RK::B32) + ",31;");
    base = "%t0";
  }
  const std::string offset =
      b.percent(50) ? std::to_string(int(b.below(40)) - 20) : b.src(RK::B32, Fl::Int);
  b.emit("fns.b32", args({b.dstT("b32"), b.srcT("b32"), base, offset}));
}

void bmskSzext(Builder& b) {
  const std::string mode = b.pick({"clamp", "wrap"});
  if (b.percent(50)) {
    // Not both immediates: ptxas would compute the mask itself.
    const std::string f = "bmsk." + mode + ".b32", d = b.dstT("b32"), pos = amount(b, 32);
    const std::string len =
        std::isdigit(static_cast<unsigned char>(pos[0])) ? b.src(RK::B32, Fl::Int) : amount(b, 32);
    b.emit(f, args({d, pos, len}));
    return;
  }
  const std::string t = b.pick({"u32", "s32"}), f = "szext." + mode + "." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t), amount(b, 32)}));
}

void dot(Builder& b) {
  const std::string at = b.pick({"u32", "s32"}), bt = b.pick({"u32", "s32"});
  const std::string ct = at == "s32" || bt == "s32" ? "s32" : "u32";
  std::string f;
  if (b.percent(50))
    f = "dp4a." + at + "." + bt;
  else
    f = std::string("dp2a.") + b.pick({"lo", "hi"}) + "." + at + "." + bt;
  b.emit(f, args({b.dstT(ct), b.srcT(at), b.srcT(bt), b.srcT(ct, 15)}));
}

}  // namespace

std::vector<Op> logicOps() {
  return {
      {"logic.andorxor", 6, kGuardable, logic},    {"logic.not", 3, kGuardable, notCnot},
      {"logic.lop3", 5, kGuardable, lop3},         {"logic.shift", 6, kGuardable, shift},
      {"logic.shf", 3, kGuardable, shf},           {"logic.prmt", 3, kGuardable, prmt},
      {"logic.bfe", 3, kGuardable, bfe},           {"logic.bfi", 3, kGuardable, bfi},
      {"logic.bitcount", 4, kGuardable, bitCount}, {"logic.fns", 2, kGuardable, fns},
      {"logic.bmsk", 2, kGuardable, bmskSzext},    {"logic.dot", 3, kGuardable, dot},
  };
}

}  // namespace warpsim::ptxgen
