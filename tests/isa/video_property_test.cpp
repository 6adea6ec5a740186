// A RapidCheck property over the scalar video forms: random forms (types, .sat, secondary
// operation or merge destination, operand selectors, shift mode, comparison, vmad's .po,
// scale and negations) and 32 random input vectors each, one per lane, against a small
// reference written from the SASS that ptxas emits for them (docs/FIDELITY.md, "Video
// instructions"; checked against that SASS by scripts/video_sass_table.py's table, which
// video_vectors_test.cpp replays). It is kept apart from isa/insns/video.cpp's code on
// purpose: Python's arbitrary-precision integers written out in __int128.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/exec_harness.h"
#include "tests/support/rc_check.h"

namespace warpsim::test {
namespace {

using H = ExecHarness;
using I128 = __int128;

enum class Op { Add, Sub, AbsDiff, Min, Max, Shl, Shr, Set, Mad };
const char* const kNames[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax",
                              "vshl", "vshr", "vset",     "vmad"};
const char* const kCmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
const char* const kSecondary[] = {"", "add", "min", "max"};

struct Form {
  Op op = Op::Add;
  bool sd = false, sa = false, sb = false, sat = false, clamp = false, po = false;
  unsigned secondary = 0;  // index into kSecondary
  char dKind = 0;          // merge destination: 'b', 'h' or none
  unsigned dIdx = 0;
  char aKind = 0, bKind = 0;  // operand selectors
  unsigned aIdx = 0, bIdx = 0;
  unsigned cmp = 0, scale = 0;
  bool negA = false, negB = false, negC = false;

  std::string opcode() const {
    auto t = [](bool s) { return s ? ".s32" : ".u32"; };
    std::string s = kNames[int(op)];
    if (op != Op::Set) s += t(sd);
    s += t(sa);
    s += op == Op::Shl || op == Op::Shr ? ".u32" : t(sb);
    if (sat) s += ".sat";
    if (op == Op::Shl || op == Op::Shr) s += clamp ? ".clamp" : ".wrap";
    if (op == Op::Set) s += std::string(".") + kCmps[cmp];
    if (op == Op::Mad && po) s += ".po";
    if (op == Op::Mad && scale) s += scale == 7 ? ".shr7" : ".shr15";
    if (secondary) s += std::string(".") + kSecondary[secondary];
    return s;
  }
  bool hasC() const { return op == Op::Mad || secondary || dKind; }
};

I128 sx(I128 v, unsigned bits) {
  const I128 m = (I128(1) << bits) - 1;
  v &= m;
  return (v >> (bits - 1)) & 1 ? v - (I128(1) << bits) : v;
}

I128 part(uint32_t v, char kind, unsigned idx, bool sign) {
  const unsigned w = kind == 'b' ? 8 : kind == 'h' ? 16 : 32;
  const I128 x = (v >> (w * idx)) & uint32_t((uint64_t{1} << w) - 1);
  return sign ? sx(x, w) : x;
}

// What ptxas's SASS computes for the form.
uint32_t reference(const Form& f, uint32_t a, uint32_t b, uint32_t c) {
  const I128 ta = part(a, f.aKind, f.aIdx, f.sa);
  const bool shift = f.op == Op::Shl || f.op == Op::Shr;
  const I128 tb = part(b, f.bKind, f.bIdx, shift ? false : f.sb);
  if (f.op == Op::Mad) {
    const bool negP = f.negA != f.negB, sign = f.sa || f.sb || negP || f.negC;
    I128 prod = sx(ta, 32) * sx(tb, 32), lsb = 0;
    if (negP) prod = -prod - 1, lsb = 1;
    uint32_t cc = c;
    if (f.negC) cc = ~cc, lsb = 1;
    if (f.po) lsb = 1;
    I128 t = sx(prod + sx(cc, 32) + lsb, 64);
    t = sign ? t >> f.scale : sx((t & ((I128(1) << 64) - 1)) >> f.scale, 64);
    if (f.sat)
      t = sign ? std::clamp<I128>(t, INT32_MIN, INT32_MAX) : std::clamp<I128>(t, 0, UINT32_MAX);
    return uint32_t(t);
  }
  const bool sd = f.op == Op::Set ? f.sa : f.sd;
  I128 wide = 0;
  switch (f.op) {
    case Op::Add:
      wide = ta + tb;
      break;
    case Op::Sub:
      wide = ta - tb;
      break;
    case Op::AbsDiff:
      wide = ta > tb ? ta - tb : tb - ta;
      break;
    case Op::Min:
      wide = std::min(ta, tb);
      break;
    case Op::Max:
      wide = std::max(ta, tb);
      break;
    case Op::Shl:
    case Op::Shr: {
      const unsigned s = f.clamp ? unsigned(std::min<I128>(tb, 32)) : unsigned(tb & 31);
      wide = sx(f.op == Op::Shl ? ta << s : ta >> s, 64);
      break;
    }
    case Op::Set: {
      const bool r[] = {ta == tb, ta != tb, ta<tb, ta <= tb, ta> tb, ta >= tb};
      wide = r[f.cmp];
      break;
    }
    case Op::Mad:
      break;
  }
  const bool keepsValue = f.op == Op::Min || f.op == Op::Max || f.op == Op::AbsDiff;
  I128 tmp = 0;
  if (f.sat && f.dKind && !shift) {
    const I128 narrow = f.dKind == 'b' ? (sd ? 0x7f : 0xff) : (sd ? 0x7fff : 0xffff);
    tmp = std::min<I128>(wide & ((I128(1) << 64) - 1), narrow);  // unsigned 64-bit minimum
  } else if (f.sat) {
    const I128 t = shift ? sx(wide, 34) : wide;
    I128 r = sd ? std::clamp<I128>(t, INT32_MIN, INT32_MAX)
                : (t < 0   ? 0
                   : shift ? std::min<I128>(t, UINT32_MAX)
                           : t);
    tmp = keepsValue ? r : sx(r, 32);
  } else {
    tmp = f.op == Op::Add || f.op == Op::Sub ? sx(wide, 32) : wide;
  }
  if (f.dKind == 'b') {
    const uint32_t field = 0xFFu << (8 * f.dIdx);
    return ((uint32_t(tmp) & 0xFF) << (8 * f.dIdx)) | (c & ~field);
  }
  if (f.dKind == 'h') {
    const uint32_t field = 0xFFFFu << (16 * f.dIdx);
    return (uint32_t(tmp) & field) | (c & ~field);
  }
  if (f.secondary == 1) return uint32_t(tmp) + c;
  if (f.secondary >= 2) {
    const I128 x = sd ? sx(tmp, 64) : tmp & ((I128(1) << 64) - 1);
    const I128 y = sd ? sx(c, 32) : I128(c);
    return uint32_t(f.secondary == 2 ? std::min(x, y) : std::max(x, y));
  }
  return uint32_t(tmp);
}

rc::Gen<uint32_t> word() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::arbitrary<uint32_t>()},
       {2, rc::gen::elementOf(std::vector<uint32_t>{0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF,
                                                    0x7FFFFFFF, 0x80000000, 0xFFFFFFFF})},
       {1, rc::gen::inRange<uint32_t>(0, 66)}});
}

isa::Opnd selected(isa::Opnd o, char kind, unsigned idx) {
  o.selKind = kind;
  o.selCount = kind ? 1 : 0;
  o.selDigits = idx;
  return o;
}

// One case: a random form run on 32 lanes of random inputs.
void checkOneForm() {
  Form f;
  f.op = Op(*rc::gen::inRange(0, 9));
  f.sd = *rc::gen::arbitrary<bool>(), f.sa = *rc::gen::arbitrary<bool>();
  f.sb = *rc::gen::arbitrary<bool>();
  f.sat = f.op != Op::Set && *rc::gen::arbitrary<bool>();
  f.clamp = *rc::gen::arbitrary<bool>();
  f.cmp = *rc::gen::inRange(0, 6);
  const auto sel = [](char& kind, unsigned& idx) {
    kind = *rc::gen::element<char>('\0', '\0', 'b', 'h');
    idx = kind == 'b' ? *rc::gen::inRange(0, 4) : kind == 'h' ? *rc::gen::inRange(0, 2) : 0;
  };
  sel(f.aKind, f.aIdx);
  sel(f.bKind, f.bIdx);
  if (f.op == Op::Mad) {
    f.po = *rc::gen::arbitrary<bool>();
    f.scale = *rc::gen::element(0u, 7u, 15u);
    if (!f.po) {
      f.negA = *rc::gen::arbitrary<bool>(), f.negB = *rc::gen::arbitrary<bool>();
      f.negC = f.negA == f.negB && *rc::gen::arbitrary<bool>();
    }
  } else if (*rc::gen::arbitrary<bool>()) {
    sel(f.dKind, f.dIdx);
  }
  if (f.op != Op::Mad && !f.dKind) f.secondary = *rc::gen::inRange(0, 4);
  isa::Opnd oa = selected(H::reg(2), f.aKind, f.aIdx), ob = selected(H::reg(3), f.bKind, f.bIdx);
  isa::Opnd oc = H::reg(4);
  oa.minus = f.negA, ob.minus = f.negB, oc.minus = f.negC;
  std::vector<isa::Opnd> ops = {selected(H::reg(1), f.dKind, f.dIdx), oa, ob};
  if (f.hasC()) ops.push_back(oc);
  H h(f.opcode(), ops);
  std::vector<uint32_t> a(32), b(32), c(32);
  for (unsigned l = 0; l < 32; ++l) {
    a[l] = *word(), b[l] = *word(), c[l] = *word();
    h.set(2, l, a[l]), h.set(3, l, b[l]), h.set(4, l, c[l]);
  }
  h.run(0xFFFFFFFFu);
  for (unsigned l = 0; l < 32; ++l) {
    const uint32_t got = uint32_t(h.get(1, l)), want = reference(f, a[l], b[l], c[l]);
    if (got != want)
      RC_FAIL(f.opcode() + " d" +
              (f.dKind ? std::string(".") + f.dKind + std::to_string(f.dIdx) : "") + " a=" +
              std::to_string(a[l]) + " b=" + std::to_string(b[l]) + " c=" + std::to_string(c[l]) +
              ": simulator " + std::to_string(got) + ", reference " + std::to_string(want));
  }
}

// 2,000 forms (64,000 vectors): the default 100 would meet a rare form (a signed byte merge
// with .sat) a few times only; 2,000 take about 0.2 s.
TEST(VideoProps, ScalarFormsComputeWhatPtxasSassComputes) {
  checkProperty("video scalar forms against the SASS reference", 2000, 100, checkOneForm);
}

}  // namespace
}  // namespace warpsim::test
