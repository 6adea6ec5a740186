// Video instructions (PTX ISA 9.7.10): the scalar vadd vsub vabsdiff vmin vmax vshl vshr vmad
// vset with byte/half-word selectors on their sources, .sat, a secondary .add/.min/.max or a
// merge into a byte or half of c (`d.b1`); the SIMD vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4
// vmin2/4 vmax2/4 vset2/4 with element selectors from both sources, destination masks, .sat or
// the accumulating .add. c of a SIMD form is always a register (ptxas 13 refuses an immediate).
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

const char* sign(Builder& b) { return b.pick({"u32", "s32"}); }

// A source register of type t with a scalar selector (or none).
std::string scalarSrc(Builder& b, const std::string& t) {
  static const char* const kSel[] = {"", "", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
  return b.srcT(t) + b.pick(kSel);
}

// The three operand forms of a scalar video instruction: plain (d, a, b), with a secondary
// operation (d, a, b, c), and merging into a part of c (d.sel, a, b, c).
void scalarForm(Builder& b, std::string f, const std::string& dt, const std::string& a,
                const std::string& bb, bool allowOp2 = true) {
  const unsigned shape = b.below(allowOp2 ? 3 : 2);
  if (shape == 2) f += std::string(".") + b.pick({"add", "min", "max"});
  std::string d = b.dstT(dt);
  if (shape == 1) d += b.pick({".b0", ".b1", ".b2", ".b3", ".h0", ".h1"});
  if (shape == 0)
    b.emit(f, args({d, a, bb}));
  else
    b.emit(f, args({d, a, bb, b.srcT(dt, 15)}));
}

void videoArith(Builder& b) {
  const std::string op = b.pick({"vadd", "vsub", "vabsdiff", "vmin", "vmax"});
  const std::string dt = sign(b), at = sign(b), bt = sign(b);
  std::string f = op + "." + dt + "." + at + "." + bt;
  if (b.percent(50)) f += ".sat";
  scalarForm(b, f, dt, scalarSrc(b, at), scalarSrc(b, bt));
}

void videoShift(Builder& b) {
  const std::string dt = sign(b), at = sign(b);
  std::string f = std::string(b.pick({"vshl", "vshr"})) + "." + dt + "." + at + ".u32";
  if (b.percent(40)) f += ".sat";
  f += b.percent(50) ? ".clamp" : ".wrap";
  const std::string amount = b.percent(50) ? b.shiftImm(32) : scalarSrc(b, "u32");
  scalarForm(b, f, dt, scalarSrc(b, at), amount);
}

void videoMad(Builder& b) {
  const std::string dt = sign(b), at = sign(b), bt = sign(b);
  std::string f = "vmad." + dt + "." + at + "." + bt;
  const bool po = b.percent(25);
  if (po) f += ".po";
  if (b.percent(40)) f += ".sat";
  if (b.percent(40)) f += b.pick({".shr7", ".shr15"});
  std::string a = scalarSrc(b, at), bb = scalarSrc(b, bt), c = b.srcT(dt, 15);
  if (!po) {  // negate the product (one of a, b) or c, or nothing
    switch (b.below(4)) {
      case 1:
        a = "-" + a;
        break;
      case 2:
        bb = "-" + bb;
        break;
      case 3:
        if (c[0] == '%') c = "-" + c;
        break;
    }
  }
  b.emit(f, args({b.dstT(dt), a, bb, c}));
}

void videoSet(Builder& b) {
  const std::string at = sign(b), bt = sign(b);
  const std::string f =
      std::string("vset.") + at + "." + bt + "." + b.pick({"eq", "ne", "lt", "le", "gt", "ge"});
  scalarForm(b, f, "u32", scalarSrc(b, at), scalarSrc(b, bt));
}

// Element selectors and destination masks of the SIMD forms.
std::string simdSel(Builder& b, unsigned n) {
  if (b.percent(50)) return "";
  std::string s = n == 2 ? ".h" : ".b";
  for (unsigned i = 0; i < n; ++i) s += char('0' + b.below(2 * n));
  return s;
}
std::string simdMask(Builder& b, unsigned n) {
  static const char* const k2[] = {"", ".h0", ".h1", ".h10"};
  static const char* const k4[] = {"",     ".b0",   ".b1",   ".b10",  ".b2",  ".b20",
                                   ".b21", ".b210", ".b3",   ".b30",  ".b31", ".b310",
                                   ".b32", ".b320", ".b321", ".b3210"};
  return n == 2 ? b.pick(k2) : b.pick(k4);
}

void videoSimd(Builder& b) {
  const unsigned n = b.percent(50) ? 2 : 4;
  const bool set = b.percent(20);
  std::string f;
  std::string dt = "u32";
  if (set) {
    f = std::string("vset") + char('0' + n) + "." + sign(b) + "." + sign(b) + "." +
        b.pick({"eq", "ne", "lt", "le", "gt", "ge"});
  } else {
    dt = sign(b);
    f = std::string(b.pick({"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"})) + char('0' + n) +
        "." + dt + "." + sign(b) + "." + sign(b);
  }
  const bool add = b.percent(35);
  if (add)
    f += ".add";
  else if (!set && b.percent(50))
    f += ".sat";
  const std::string types = f.substr(f.find('.'));
  const std::string at = set ? types.substr(1, 3) : types.substr(5, 3);
  const std::string bt = set ? types.substr(5, 3) : types.substr(9, 3);
  b.emit(f, args({b.dstT(dt) + simdMask(b, n), b.srcT(at) + simdSel(b, n),
                  b.srcT(bt) + simdSel(b, n), b.srcT(dt)}));
}

}  // namespace

std::vector<Op> videoOps() {
  return {
      {"video.arith", 4, kGuardable | kVideo, videoArith},
      {"video.shift", 2, kGuardable | kVideo, videoShift},
      {"video.mad", 2, kGuardable | kVideo, videoMad},
      {"video.set", 2, kGuardable | kVideo, videoSet},
      {"video.simd", 4, kGuardable | kVideo, videoSimd},
  };
}

}  // namespace warpsim::ptxgen
