// The scalar video instructions (PTX ISA 9.7.10.1): vadd vsub vabsdiff vmin vmax, vshl vshr,
// vmad, vset. Each operand may select a byte or half-word of its register (`%r1.b2`, `%r1.h1`),
// sign- or zero-extended by its type.
//
// sm_90 has no video datapath: ptxas expands each of these into integer SASS (PRMT, IADD3,
// SHF, ISETP, SEL, IMAD.WIDE), and that expansion is what the H200 computes, which is not
// always the manual's pseudo-code. The rules below are read from that SASS, form by form
// (docs/FIDELITY.md, "Video instructions"), and checked against the chip's own results
// (tests/data/video_h200_vectors.txt) and a table of every form evaluated on the SASS
// (tests/data/video_sass_table.txt, scripts/video_sass_table.py):
//  - the result is exact in 64 bits (tmp); vadd and vsub keep only its low word, sign-extended;
//  - .sat into a whole word clamps s32 to its range; u32 only clamps negatives to 0 (a sum past
//    2^32 keeps its low word), but for shifts, which clamp a 34-bit tmp to [0, 2^32 - 1];
//  - .sat into a byte or half-word (`d.b1`, `d.h0`) takes min(tmp as unsigned 64, 0x7f/0xff
//    or 0x7fff/0xffff by dtype), so a negative tmp becomes the maximum (shifts saturate to the
//    word as above);
//  - the merge writes tmp's byte 0 into `d.bN`, but tmp's half-word N into `d.hN`;
//  - .min/.max compare the 64-bit tmp with c extended by dtype (vset: atype), in dtype's
//    signedness; .add wraps.
#include <algorithm>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/video_select.h"

namespace warpsim::isa::insns {
namespace {

enum class VOp : uint32_t { Add, Sub, AbsDiff, Min, Max, Shl, Shr, Mad, Set };
enum Op2 : uint32_t { kNoOp2 = 0, kOp2Add = 1, kOp2Min = 2, kOp2Max = 3 };

// Inst::flags: op (bits 0-3), .sat (4), secondary op (5-6), .clamp (7), .po (8),
// scale shift (9-13: 0, 7 or 15).
constexpr uint32_t kSat = 1u << 4, kClamp = 1u << 7, kPo = 1u << 8;
VOp opOf(uint32_t f) { return VOp(f & 0xF); }
uint32_t op2Of(uint32_t f) { return (f >> 5) & 3; }
uint32_t scaleOf(uint32_t f) { return (f >> 9) & 0x1F; }

bool isShift(VOp op) { return op == VOp::Shl || op == VOp::Shr; }

// The low `bits` bits of v, sign-extended.
int64_t signExtend(int64_t v, unsigned bits) {
  return int64_t(uint64_t(v) << (64 - bits)) >> (64 - bits);
}

// Clamps a signed 64-bit value to [INT32_MIN, INT32_MAX] or [0, UINT32_MAX].
int64_t clampWord(int64_t v, bool sign) {
  return sign ? std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)
              : std::clamp<int64_t>(v, 0, UINT32_MAX);
}

// .sat, per the SASS (see the top of the file); `d` selects the byte or half-word merged into.
int64_t saturate(VOp op, int64_t tmp, bool sign, const Opnd& d) {
  if (d.selKind && !isShift(op)) {
    const unsigned bits = d.selKind == 'b' ? 8 : 16;
    const uint64_t hi = (uint64_t{1} << (sign ? bits - 1 : bits)) - 1;
    return int64_t(std::min(uint64_t(tmp), hi));
  }
  int64_t r = 0;
  if (isShift(op))
    r = clampWord(signExtend(tmp, 34), sign);
  else
    r = sign ? clampWord(tmp, true) : std::max<int64_t>(tmp, 0);
  // vmin, vmax and vabsdiff go on with the clamped value, the others with its low word.
  return op == VOp::Min || op == VOp::Max || op == VOp::AbsDiff ? r : signExtend(r, 32);
}

// The merge into a byte or half-word of c, or the secondary operation with c, or neither (the
// forms exclude each other).
uint32_t finish(uint32_t flags, bool sign, const Opnd& d, int64_t tmp, uint32_t c) {
  if (d.selKind) {
    const unsigned idx = d.selDigits & 0xF;
    if (d.selKind == 'b') {
      const uint32_t field = 0xFFu << (8 * idx);
      return ((uint32_t(tmp) & 0xFF) << (8 * idx)) | (c & ~field);
    }
    const uint32_t field = 0xFFFFu << (16 * idx);
    return (uint32_t(tmp) & field) | (c & ~field);
  }
  const uint32_t op2 = op2Of(flags);
  if (op2 == kOp2Add) return uint32_t(tmp) + c;
  if (op2 == kNoOp2) return uint32_t(tmp);
  // tmp < c and tmp > c, in 64 bits
  const bool less = sign ? tmp < int64_t(int32_t(c)) : uint64_t(tmp) < uint64_t(c);
  const bool greater = sign ? tmp > int64_t(int32_t(c)) : uint64_t(tmp) > uint64_t(c);
  return (op2 == kOp2Min ? less : greater) ? uint32_t(tmp) : c;
}

// vmad (PTX ISA 9.7.10.3), as ptxas expands it (IMAD.WIDE): a and b, extended by their types
// to a word, multiply as signed words (a full .u32 word from 2^31 counts as negative); c is
// sign-extended after its negation (one's complement plus one), the product is negated as a
// 64-bit one's complement plus one, .po adds one; .shr7/.shr15 shift the 64-bit sum,
// arithmetically when any operand is signed or negated, and .sat clamps it to that
// signedness's word range.
uint32_t vmad(const Inst& in, uint32_t a, uint32_t b, uint32_t c) {
  const Opnd &oa = in.ops[1], &ob = in.ops[2], &oc = in.ops[3];
  const bool sa = isSigned(in.mods.type(1)), sb = isSigned(in.mods.type(2));
  const bool negProduct = oa.minus != ob.minus;
  const bool signedFinal = sa || sb || negProduct || oc.minus;
  int64_t tmp = int64_t(int32_t(uint32_t(partSelect(a, sa, oa)))) *
                int64_t(int32_t(uint32_t(partSelect(b, sb, ob))));
  unsigned lsb = 0;
  if (negProduct) tmp = ~tmp, lsb = 1;
  if (oc.minus) c = ~c, lsb = 1;
  if (in.flags & kPo) lsb = 1;
  tmp += int64_t(int32_t(c)) + lsb;
  const unsigned scale = scaleOf(in.flags);
  tmp = signedFinal ? tmp >> scale : int64_t(uint64_t(tmp) >> scale);
  if (in.flags & kSat) tmp = clampWord(tmp, signedFinal);
  return uint32_t(tmp);
}

void videoH(Exec& x, const Inst& in) {
  const uint32_t f = in.flags;
  const VOp op = opOf(f);
  // vset has no destination type: its types are atype, btype, and its .min/.max compare in
  // atype's signedness; the others' are dtype, atype, btype (vshl/vshr: btype is always .u32).
  const size_t t0 = op == VOp::Set ? 0 : 1;
  const bool sa = isSigned(in.mods.type(t0)), sb = isSigned(in.mods.type(t0 + 1));
  const bool sd = op == VOp::Set ? sa : isSigned(in.mods.type(0));
  const Opnd &d = in.ops[0], &oa = in.ops[1], &ob = in.ops[2];
  const bool hasC = in.ops.size() > 3;
  uint64_t* dr = x.reg(d);
  const uint64_t *ra = x.reg(oa), *rb = x.reg(ob), *rc = hasC ? x.reg(in.ops[3]) : nullptr;
  forLanes(x.mask, [&](unsigned l) {
    const uint32_t c = rc ? uint32_t(rc[l]) : 0;
    if (op == VOp::Mad) {
      dr[l] = vmad(in, uint32_t(ra[l]), uint32_t(rb[l]), c);
      return;
    }
    const int64_t ta = partSelect(uint32_t(ra[l]), sa, oa);
    int64_t tb = partSelect(uint32_t(rb[l]), isShift(op) ? false : sb, ob);
    int64_t tmp = 0;
    switch (op) {
      case VOp::Add:
        tmp = ta + tb;
        break;
      case VOp::Sub:
        tmp = ta - tb;
        break;
      case VOp::AbsDiff:
        tmp = ta > tb ? ta - tb : tb - ta;
        break;
      case VOp::Min:
        tmp = std::min(ta, tb);
        break;
      case VOp::Max:
        tmp = std::max(ta, tb);
        break;
      case VOp::Shl:
      case VOp::Shr:
        tb = (f & kClamp) ? std::min<int64_t>(tb, 32) : (tb & 0x1F);
        tmp = op == VOp::Shl ? int64_t(uint64_t(ta) << tb) : (ta >> tb);
        break;
      case VOp::Set:
        tmp = videoCompare(in.mods.cmp, ta, tb) ? 1 : 0;
        break;
      case VOp::Mad:
        break;
    }
    if (f & kSat)
      tmp = saturate(op, tmp, sd, d);
    else if (op == VOp::Add || op == VOp::Sub)
      tmp = signExtend(tmp, 32);
    dr[l] = finish(f, sd, d, tmp, c);
  });
}

template <VOp Op>
std::string bindVideo(Inst& in) {
  const size_t types = Op == VOp::Set ? 2 : 3;
  if (in.mods.types.size() != types)
    return msg(in, types == 2 ? "takes two types (.atype.btype)"
                              : "takes three types (.dtype.atype.btype)");
  for (Type t : in.mods.types)
    if (t != Type::U32 && t != Type::S32) return msg(in, "is defined for .u32 and .s32 only");
  if ((Op == VOp::Shl || Op == VOp::Shr) && in.mods.type(2) != Type::U32)
    return msg(in, "shifts by a .u32 amount (btype must be .u32)");
  uint32_t f = uint32_t(Op);
  int op2 = 0;
  for (const std::string& w : in.mods.words) {
    if (typeFromName(w)) continue;
    if (w == "sat" && Op != VOp::Set) {
      f |= kSat;
    } else if ((w == "add" || w == "min" || w == "max") && Op != VOp::Mad) {
      f |= (w == "add" ? kOp2Add : w == "min" ? kOp2Min : kOp2Max) << 5;
      ++op2;
    } else if ((Op == VOp::Shl || Op == VOp::Shr) && (w == "clamp" || w == "wrap")) {
      if (w == "clamp") f |= kClamp;
    } else if (Op == VOp::Mad && (w == "po" || w == "shr7" || w == "shr15")) {
      if (w == "po") f |= kPo;
      if (w != "po") f |= (w == "shr7" ? 7u : 15u) << 9;
    } else if (Op == VOp::Set && in.mods.cmp != Cmp::None && w.size() == 2) {
      if (in.mods.cmp > Cmp::Ge) return msg(in, "compares with .eq .ne .lt .le .gt .ge only");
    } else {
      return msg(in, "does not take ." + w);
    }
  }
  if (op2 > 1) return msg(in, "takes at most one secondary operation");
  if (Op == VOp::Set && in.mods.cmp == Cmp::None) return msg(in, "needs a comparison");
  if ((Op == VOp::Shl || Op == VOp::Shr) && !in.mods.has("clamp") && !in.mods.has("wrap"))
    return msg(in, "needs a shift mode, .clamp or .wrap");
  if (Op == VOp::Mad && in.mods.has("shr7") && in.mods.has("shr15"))
    return msg(in, "takes one scale, .shr7 or .shr15");
  const bool merge = !in.ops.empty() && in.ops[0].selKind != 0;
  const size_t operands = Op == VOp::Mad || merge || op2 ? 4 : 3;
  if (merge && op2) return msg(in, "cannot both merge into a part of d and apply .add/.min/.max");
  if (auto e = bindRegs(in, videoH, operands); !e.empty()) return e;
  for (size_t i = 0; i < 3; ++i)
    if (auto e = checkScalarSelector(in.ops[i]); !e.empty()) return msg(in, e);
  if (in.ops.size() > 3 && in.ops[3].selKind) return msg(in, "takes no selector on c");
  if (Op == VOp::Mad) {
    if (in.ops[0].selKind) return msg(in, "takes no destination selector");
    if ((f & kPo) && (in.ops[1].minus || in.ops[2].minus || in.ops[3].minus))
      return msg(in, "cannot negate operands in .po mode");
    if (in.ops[1].minus != in.ops[2].minus && in.ops[3].minus)
      return msg(in, "negates either the product or c, not both");
  }
  in.flags = f;
  return "";
}

const std::vector<Type> kVideoTypes = {Type::U32, Type::S32};

}  // namespace

std::vector<OpcodeSpec> video() {
  const std::vector<std::string_view> op2 = {"sat", "add", "min", "max"};
  std::vector<OpcodeSpec> specs = {
      {"vadd", "video", InsnClass::Int, Role::Compute, Operation::Other, kVideoTypes, op2,
       bindVideo<VOp::Add>},
      {"vsub", "video", InsnClass::Int, Role::Compute, Operation::Other, kVideoTypes, op2,
       bindVideo<VOp::Sub>},
      {"vabsdiff", "video", InsnClass::Int, Role::Compute, Operation::Other, kVideoTypes, op2,
       bindVideo<VOp::AbsDiff>},
      {"vmin", "video", InsnClass::Int, Role::Compute, Operation::Other, kVideoTypes, op2,
       bindVideo<VOp::Min>},
      {"vmax", "video", InsnClass::Int, Role::Compute, Operation::Other, kVideoTypes, op2,
       bindVideo<VOp::Max>},
      {"vshl",
       "video",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kVideoTypes,
       {"sat", "add", "min", "max", "clamp", "wrap"},
       bindVideo<VOp::Shl>},
      {"vshr",
       "video",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kVideoTypes,
       {"sat", "add", "min", "max", "clamp", "wrap"},
       bindVideo<VOp::Shr>},
      {"vmad",
       "video",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kVideoTypes,
       {"sat", "po", "shr7", "shr15"},
       bindVideo<VOp::Mad>},
      {"vset",
       "video",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kVideoTypes,
       {"eq", "ne", "lt", "le", "gt", "ge", "add", "min", "max"},
       bindVideo<VOp::Set>},
  };
  for (OpcodeSpec& s : specs) {
    s.forms.selectors = true;
    s.forms.negatedRegisters = s.opcode == "vmad";  // vmad's -a, -b, -c (PTX ISA 9.7.17.1)
  }
  return specs;
}

}  // namespace warpsim::isa::insns
