// The scalar video instructions (PTX ISA 9.7.10.1): vadd vsub vabsdiff vmin vmax, vshl vshr,
// vmad, vset. Each operand may select a byte or half-word of its register (`%r1.b2`, `%r1.h1`),
// sign- or zero-extended by its type; the 33-bit-plus intermediate is computed exactly in 64
// bits, optionally saturated to the destination's range (a byte or half-word range when the
// destination selects one), then either combined with c by a secondary operation (.add .min
// .max) or merged into c's other bytes (`d.b1`, `d.h0`).
//
// The manual's pseudo-code types the secondary .min/.max as int32_t; here they compare in the
// destination type's signedness (dtype), the reading a device campaign is to confirm
// (harness/ptxgen emits these forms).
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

// optSaturate: the range of the destination type, narrowed to a byte or half-word when the
// destination selects one.
int64_t saturate(int64_t v, bool sign, const Opnd& d) {
  const unsigned bits = d.selKind == 'b' ? 8 : d.selKind == 'h' ? 16 : 32;
  const int64_t lo = sign ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = sign ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return std::clamp(v, lo, hi);
}

// optSecondaryOp, or optMerge when the destination selects a part (the forms exclude each
// other).
uint32_t finish(uint32_t flags, bool sign, const Opnd& d, uint32_t tmp, uint32_t c) {
  if (d.selKind) {
    const unsigned idx = d.selDigits & 0xF;
    const unsigned width = d.selKind == 'b' ? 8 : 16;
    const uint32_t field = ((uint32_t{1} << width) - 1) << (width * idx);
    return ((tmp << (width * idx)) & field) | (c & ~field);
  }
  switch (op2Of(flags)) {
    case kOp2Add:
      return tmp + c;
    case kOp2Min:
      return sign ? uint32_t(std::min(int32_t(tmp), int32_t(c))) : std::min(tmp, c);
    case kOp2Max:
      return sign ? uint32_t(std::max(int32_t(tmp), int32_t(c))) : std::max(tmp, c);
    default:
      return tmp;
  }
}

bool cmp(Cmp c, int64_t a, int64_t b) {
  switch (c) {
    case Cmp::Eq:
      return a == b;
    case Cmp::Ne:
      return a != b;
    case Cmp::Lt:
      return a < b;
    case Cmp::Le:
      return a <= b;
    case Cmp::Gt:
      return a > b;
    default:
      return a >= b;
  }
}

// vmad (PTX ISA 9.7.10.3): (a*b) + c with the product or c negated (one's complement plus one),
// .po adding one, .shr7/.shr15 scaling, in 128 bits before the optional clamp.
uint32_t vmad(const Inst& in, uint32_t a, uint32_t b, uint32_t c) {
  const Opnd &oa = in.ops[1], &ob = in.ops[2], &oc = in.ops[3];
  const bool sa = isSigned(in.mods.type(1)), sb = isSigned(in.mods.type(2));
  const bool negProduct = oa.minus != ob.minus;
  const bool signedFinal = sa || sb || negProduct || oc.minus;
  __int128 tmp = __int128(partSelect(a, sa, oa)) * __int128(partSelect(b, sb, ob));
  unsigned lsb = 0;
  if (in.flags & kPo) {
    lsb = 1;
  } else if (negProduct) {
    tmp = ~tmp;
    lsb = 1;
  } else if (oc.minus) {
    c = ~c;
    lsb = 1;
  }
  const __int128 c128 = signedFinal ? __int128(int32_t(c)) : __int128(c);
  tmp = (tmp + c128 + lsb) >> scaleOf(in.flags);
  if (in.flags & kSat) {
    const __int128 lo = signedFinal ? INT32_MIN : 0;
    const __int128 hi = signedFinal ? __int128(INT32_MAX) : __int128(UINT32_MAX);
    tmp = std::clamp(tmp, lo, hi);
  }
  return uint32_t(uint64_t(tmp));
}

void videoH(Exec& x, const Inst& in) {
  const uint32_t f = in.flags;
  const VOp op = opOf(f);
  // vset has no destination type: its types are atype, btype; the others' are dtype, atype,
  // btype (vshl/vshr: btype is always .u32).
  const size_t t0 = op == VOp::Set ? 0 : 1;
  const bool sd = op != VOp::Set && isSigned(in.mods.type(0));
  const bool sa = isSigned(in.mods.type(t0)), sb = isSigned(in.mods.type(t0 + 1));
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
    int64_t tb = partSelect(uint32_t(rb[l]), op == VOp::Shl || op == VOp::Shr ? false : sb, ob);
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
        tmp = cmp(in.mods.cmp, ta, tb) ? 1 : 0;
        break;
      case VOp::Mad:
        break;
    }
    if (f & kSat) tmp = saturate(tmp, sd, d);
    dr[l] = finish(f, op == VOp::Set ? (sa || sb) : sd, d, uint32_t(tmp), c);
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
      {"vadd", "video", InsnClass::Int, Role::Compute, kVideoTypes, op2, bindVideo<VOp::Add>},
      {"vsub", "video", InsnClass::Int, Role::Compute, kVideoTypes, op2, bindVideo<VOp::Sub>},
      {"vabsdiff", "video", InsnClass::Int, Role::Compute, kVideoTypes, op2,
       bindVideo<VOp::AbsDiff>},
      {"vmin", "video", InsnClass::Int, Role::Compute, kVideoTypes, op2, bindVideo<VOp::Min>},
      {"vmax", "video", InsnClass::Int, Role::Compute, kVideoTypes, op2, bindVideo<VOp::Max>},
      {"vshl",
       "video",
       InsnClass::Int,
       Role::Compute,
       kVideoTypes,
       {"sat", "add", "min", "max", "clamp", "wrap"},
       bindVideo<VOp::Shl>},
      {"vshr",
       "video",
       InsnClass::Int,
       Role::Compute,
       kVideoTypes,
       {"sat", "add", "min", "max", "clamp", "wrap"},
       bindVideo<VOp::Shr>},
      {"vmad",
       "video",
       InsnClass::Int,
       Role::Compute,
       kVideoTypes,
       {"sat", "po", "shr7", "shr15"},
       bindVideo<VOp::Mad>},
      {"vset",
       "video",
       InsnClass::Int,
       Role::Compute,
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
