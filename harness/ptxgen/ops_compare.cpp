// Comparison and selection (PTX ISA 9.7.9, 9.7.4.x): setp with every comparison of each type
// (and the .and/.or/.xor combining forms, p|q destinations, f16/f16x2/bf16/bf16x2), selp, set
// (integer, float and half destinations), slct.
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const std::vector<std::string> kBitCmp = {"eq", "ne"};
const std::vector<std::string> kSignedCmp = {"eq", "ne", "lt", "le", "gt", "ge"};
const std::vector<std::string> kUnsignedCmp = {"eq", "ne", "lt", "le", "gt",
                                               "ge", "lo", "ls", "hi", "hs"};
const std::vector<std::string> kFloatCmp = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                            "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
const std::vector<std::string> kIntTypes = {"b16", "b32", "b64", "u16", "u32",
                                            "u64", "s16", "s32", "s64"};

std::string cmpFor(Builder& b, const std::string& t) {
  if (t[0] == 'b' && t.size() == 3 && t != "bf16") return b.pick(kBitCmp);
  if (t[0] == 'u') return b.pick(kUnsignedCmp);
  if (t[0] == 's') return b.pick(kSignedCmp);
  return b.pick(kFloatCmp);
}

std::string boolOp(Builder& b) {
  return b.percent(30) ? "." + std::string(b.pick({"and", "or", "xor"})) : "";
}

// The source type of a comparison: mostly integers and f32/f64, sometimes halves.
std::string compareType(Builder& b, bool halves) {
  const unsigned r = b.below(20);
  if (r < 8) return b.pick(kIntTypes);
  if (r < 12) return "f32";
  if (r < 15) return "f64";
  if (!halves) return "f32";
  return b.pick({"f16", "f16x2", "bf16", "bf16x2"});
}

bool ftzOk(const std::string& t) { return t == "f32" || t == "f16" || t == "f16x2"; }

void setp(Builder& b) {
  const std::string t = compareType(b, true), cmp = cmpFor(b, t), bop = boolOp(b);
  const std::string ftz = ftzOk(t) && b.percent(35) ? ".ftz" : "";
  const std::string f = "setp." + cmp + bop + ftz + "." + t;
  // p|q: the packed types always write both halves' results; the others may add the
  // complement (q = !p, combined the same way).
  const bool packed = t == "f16x2" || t == "bf16x2";
  const bool pair = packed || (t != "f16" && t != "bf16" && b.percent(30));
  std::string d = b.dst(RK::Pred, Fl::Pred);
  if (pair) d += "|" + b.dst(RK::Pred, Fl::Pred, {d});
  if (bop.empty())
    b.emit(f, args({d, b.srcT(t, 15), b.srcT(t, 10)}));
  else
    b.emit(f, args({d, b.srcT(t, 15), b.srcT(t, 10), b.predSrc(40)}));
}

void selp(Builder& b) {
  const std::string t =
      b.pick({"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"});
  const std::string f = "selp." + t;
  b.emit(f, args({b.dstT(t), b.srcT(t, 10), b.srcT(t, 10), b.src(RK::Pred)}));
}

void set(Builder& b) {
  std::string dt, st;
  switch (b.below(6)) {
    case 0:  // a half destination from any comparable source
      dt = b.pick({"f16", "bf16"});
      st = b.percent(30) ? dt : compareType(b, false);
      break;
    case 1:  // 16-bit integer masks from halves
      dt = b.pick({"u16", "s16"});
      st = b.pick({"f16", "bf16"});
      break;
    case 2:  // packed halves: per-half results
      st = b.pick({"f16x2", "bf16x2"});
      dt = b.percent(50) ? st : std::string(b.pick({"u32", "s32"}));
      break;
    default:
      dt = b.pick({"u32", "s32", "f32"});
      st = compareType(b, true);
      if (dt == "f32" && st.find("16") != std::string::npos) st = "f32";  // no f32.f16
  }
  const std::string cmp = cmpFor(b, st), bop = boolOp(b);
  const bool ftz = ftzOk(st) && dt.find("bf16") == std::string::npos && b.percent(30);
  const std::string f = "set." + cmp + bop + (ftz ? ".ftz" : "") + "." + dt + "." + st;
  if (bop.empty())
    b.emit(f, args({b.dstT(dt), b.srcT(st, 15), b.srcT(st, 10)}));
  else
    b.emit(f, args({b.dstT(dt), b.srcT(st, 15), b.srcT(st, 10), b.predSrc(40)}));
}

void slct(Builder& b) {
  const std::string dt =
      b.pick({"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"});
  if (b.percent(50)) {
    const std::string f = "slct." + dt + ".s32";
    b.emit(f, args({b.dstT(dt), b.srcT(dt, 10), b.srcT(dt, 10), b.srcT("s32")}));
  } else {
    const std::string f = std::string("slct") + (b.percent(40) ? ".ftz" : "") + "." + dt + ".f32";
    b.emit(f, args({b.dstT(dt), b.srcT(dt, 10), b.srcT(dt, 10), b.srcT("f32")}));
  }
}

}  // namespace

std::vector<Op> compareOps() {
  return {
      {"cmp.setp", 10, kGuardable, setp},
      {"cmp.selp", 4, kGuardable, selp},
      {"cmp.set", 4, kGuardable, set},
      {"cmp.slct", 3, kGuardable, slct},
  };
}

}  // namespace warpsim::ptxgen
