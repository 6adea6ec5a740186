// The SIMD video instructions (PTX ISA 9.7.10.2): vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2
// vset2 on two half-words, and the same with 4 on four bytes. Each element of a and b is picked
// from the eight bytes (four half-words) of {b, a} by the selectors (`.h10`/`.h32`,
// `.b3210`/`.b7654` by default), extended by the operand's type; the results are optionally
// clamped to the element range of the destination type, then either merged into c's elements
// under the destination's mask (`d.h1`, `d.b20`; all elements by default) or, with .add, summed
// into c. Unlike the scalar forms, this is also what the SASS that ptxas emits for them computes
// (per-element PRMT/IADD3/IABS, VABSDIFF4, IDP): every form of tests/data/video_sass_table.txt
// agrees.
#include <algorithm>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/video_select.h"

namespace warpsim::isa::insns {
namespace {

enum class SOp : uint32_t { Add, Sub, Avrg, AbsDiff, Min, Max, Set };

// Inst::flags: op (bits 0-3), .sat (4), .add (5), elements 2 or 4 (bits 8-11), mask (12-15),
// a's and b's element sources (16-23 and 24-31 for two elements; four elements use Opnd digits).
constexpr uint32_t kSat = 1u << 4, kAccumulate = 1u << 5;

// Element i of a or b: its source index into {b, a}'s elements (digit i of the selector or of
// the default), sign- or zero-extended.
int64_t element(uint64_t ba, unsigned n, unsigned src, bool sign) {
  const unsigned width = 32 / n;
  const uint32_t v = uint32_t(ba >> (width * src)) & ((1u << width) - 1);
  if (!sign) return v;
  return n == 2 ? int64_t(int16_t(v)) : int64_t(int8_t(v));
}

unsigned sourceOf(const Opnd& o, unsigned i, uint32_t defaults) {
  return o.selKind ? (o.selDigits >> (4 * i)) & 0xF : (defaults >> (4 * i)) & 0xF;
}

void simdH(Exec& x, const Inst& in) {
  const uint32_t f = in.flags;
  const SOp op = SOp(f & 0xF);
  const unsigned n = (f >> 8) & 0xF, width = 32 / n;
  const uint32_t mask = (f >> 12) & 0xF;
  const size_t t0 = op == SOp::Set ? 0 : 1;
  const bool sd = op != SOp::Set && isSigned(in.mods.type(0));
  const bool sa = isSigned(in.mods.type(t0)), sb = isSigned(in.mods.type(t0 + 1));
  const uint32_t defA = n == 2 ? 0x10 : 0x3210, defB = n == 2 ? 0x32 : 0x7654;
  const Opnd &oa = in.ops[1], &ob = in.ops[2];
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t *ra = x.reg(oa), *rb = x.reg(ob), *rc = x.reg(in.ops[3]);
  const int64_t lo = sd ? -(int64_t{1} << (width - 1)) : 0;
  const int64_t hi = sd ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t ba = (uint64_t(uint32_t(rb[l])) << 32) | uint32_t(ra[l]);
    const uint32_t c = uint32_t(rc[l]);
    uint32_t out = (f & kAccumulate) ? c : 0;
    for (unsigned i = 0; i < n; ++i) {
      const int64_t va = element(ba, n, sourceOf(oa, i, defA), sa);
      const int64_t vb = element(ba, n, sourceOf(ob, i, defB), sb);
      int64_t t = 0;
      switch (op) {
        case SOp::Add:
          t = va + vb;
          break;
        case SOp::Sub:
          t = va - vb;
          break;
        case SOp::Avrg:  // rounds half away from zero for positive sums, down otherwise
          t = (va + vb) >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
          break;
        case SOp::AbsDiff:
          t = va > vb ? va - vb : vb - va;
          break;
        case SOp::Min:
          t = std::min(va, vb);
          break;
        case SOp::Max:
          t = std::max(va, vb);
          break;
        case SOp::Set:
          t = videoCompare(in.mods.cmp, va, vb) ? 1 : 0;
          break;
      }
      if (f & kSat) t = std::clamp(t, lo, hi);
      const bool on = (mask >> i) & 1;
      if (f & kAccumulate) {
        if (on) out += uint32_t(t);
      } else {
        const uint32_t field = ((1u << width) - 1) << (width * i);
        out |= on ? (uint32_t(t) << (width * i)) & field : c & field;
      }
    }
    d[l] = out;
  });
}

template <SOp Op, unsigned N>
std::string bindSimd(Inst& in) {
  const size_t types = Op == SOp::Set ? 2 : 3;
  if (in.mods.types.size() != types)
    return msg(in, types == 2 ? "takes two types (.atype.btype)"
                              : "takes three types (.dtype.atype.btype)");
  for (Type t : in.mods.types)
    if (t != Type::U32 && t != Type::S32) return msg(in, "is defined for .u32 and .s32 only");
  uint32_t f = uint32_t(Op) | (N << 8);
  for (const std::string& w : in.mods.words) {
    if (typeFromName(w)) continue;
    if (w == "sat" && Op != SOp::Set) {
      f |= kSat;
    } else if (w == "add") {
      f |= kAccumulate;
    } else if (Op == SOp::Set && in.mods.cmp != Cmp::None && w.size() == 2) {
      if (in.mods.cmp > Cmp::Ge) return msg(in, "compares with .eq .ne .lt .le .gt .ge only");
    } else {
      return msg(in, "does not take ." + w);
    }
  }
  if (Op == SOp::Set && in.mods.cmp == Cmp::None) return msg(in, "needs a comparison");
  if ((f & kSat) && (f & kAccumulate)) return msg(in, "cannot saturate with .add");
  if (auto e = bindRegs(in, simdH, 4); !e.empty()) return e;
  const char kind = N == 2 ? 'h' : 'b';
  const Opnd& d = in.ops[0];
  uint32_t mask = (1u << N) - 1;
  if (d.selKind) {
    if (d.selKind != kind)
      return msg(in, N == 2 ? "masks d with .h0 .h1 .h10" : "masks d with bytes .b0-.b3");
    mask = 0;
    for (unsigned i = 0; i < d.selCount; ++i) {
      const unsigned e = (d.selDigits >> (4 * i)) & 0xF;
      if (e >= N || (mask >> e) & 1) return msg(in, "has an invalid destination mask");
      mask |= 1u << e;
    }
  }
  f |= mask << 12;
  for (size_t i = 1; i < 3; ++i) {
    const Opnd& o = in.ops[i];
    if (!o.selKind) continue;
    bool ok = o.selKind == kind && o.selCount == N;
    for (unsigned k = 0; ok && k < N; ++k) ok = ((o.selDigits >> (4 * k)) & 0xF) < 2 * N;
    if (!ok)
      return msg(in, N == 2 ? "selects a's and b's elements with .hxy, x and y in 0..3"
                            : "selects a's and b's elements with .bxyzw, each in 0..7");
  }
  if (in.ops[3].selKind) return msg(in, "takes no selector on c");
  in.flags = f;
  return "";
}

const std::vector<Type> kTypes = {Type::U32, Type::S32};
const std::vector<std::string_view> kArith = {"sat", "add"};
const std::vector<std::string_view> kSet = {"eq", "ne", "lt", "le", "gt", "ge", "add"};

}  // namespace

std::vector<OpcodeSpec> videoSimd() {
  std::vector<OpcodeSpec> specs = {
      {"vadd2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Add, 2>},
      {"vsub2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Sub, 2>},
      {"vavrg2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Avrg, 2>},
      {"vabsdiff2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::AbsDiff, 2>},
      {"vmin2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Min, 2>},
      {"vmax2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Max, 2>},
      {"vset2", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kSet,
       bindSimd<SOp::Set, 2>},
      {"vadd4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Add, 4>},
      {"vsub4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Sub, 4>},
      {"vavrg4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Avrg, 4>},
      {"vabsdiff4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::AbsDiff, 4>},
      {"vmin4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Min, 4>},
      {"vmax4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kArith,
       bindSimd<SOp::Max, 4>},
      {"vset4", "video_simd", InsnClass::Int, Role::Compute, Operation::Other, kTypes, kSet,
       bindSimd<SOp::Set, 4>},
  };
  for (OpcodeSpec& s : specs) s.forms.selectors = true;  // element masks and selectors
  return specs;
}

}  // namespace warpsim::isa::insns
