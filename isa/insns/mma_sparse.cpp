// mma with a structured-sparse A (PTX ISA, "Warp-level matrix multiply-accumulate with sparse
// matrix A"), every form sm_90 has (ptxas 13 -arch=sm_90 accepts exactly these):
//   mma.sp{::ordered_metadata}.sync.aligned.m16n8k16 / m16n8k32
//   .row.col.{f32,f16}.f16.f16.{f32,f16}
//                                                                  (C and D of one type)
//                                         .m16n8k16 / m16n8k32 .row.col.f32.bf16.bf16.f32
//                                         .m16n8k8 / m16n8k16 .row.col.f32.tf32.tf32.f32
//                                         .m16n8k32 / m16n8k64
//                                         .row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32 .m16n8k64 /
//                                         m16n8k128 .row.col{.satfinite}.s32.{s4,u4}.{s4,u4}.s32
//                                         .m16n8k64 .row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32
//   operands: d, a, b, c, e (the metadata register), f (the sparsity selector, an immediate).
//
// A row of A is K elements in chunks of four "units" of which two are stored: a unit is an
// element for the 16- and 8-bit types, a pair of elements for s4/u4 (the manual: "indices of
// four non-zero elements from a 8-wide chunk"), and half an element for tf32 (its chunks are two
// elements, one stored; the only meaningful nibbles, 0b0100 and 0b1110, name the unit pairs
// (0, 1) and (2, 3)). A chunk's nibble holds the first stored unit's index in bits 0..1 and the
// second's in bits 2..3. The manual calls 0b0000, 0b0101, 0b1010, 0b1111 (an index twice)
// undefined; the model is the multiplexer it describes whatever the nibble: each stored unit
// meets B at the position its index names (a repeated index meets that B element twice), and a
// tf32 element sits at unit (index of its first half) / 2. The chip decides those cases
// (scripts/device_mma.sh's meta-odd mode).
//
// The stored A fragment is the dense A fragment of the shape with half the K (the manual's
// "row = groupID (+8), col = [firstcol ... lastcol]"); B, C and D are the dense ones of the
// shape (m16n8k32 f16 and m16n8k16 tf32 B extend the dense k16 / k8 figures by 8 / 4 rows a
// register; m16n8k64 8-bit and m16n8k128 4-bit B are the packed layout of four registers).
// Metadata (figures "Sparse MMA ... metadata layout"; the sparsity selector picks which threads
// of each group of four supply it):
//   16-bit types and tf32 (4 or 8 chunks a row; 1 or 2 threads, selector 0..3 or 0..1): thread
//     sel * T + c / 4 of group g holds rows g (bits 0..15) and g + 8 (bits 16..31), chunk c at
//     bits 4 (c % 4);
//   8-bit and 4-bit types (8 or 16 chunks a row; 2 or 4 threads, selector 0..1 or 0): thread
//     sel * T + j, j = (row >= 8) + 2 (c / 8), holds chunk c at bits 16 ((c / 4) % 2) + 4 (c % 4).
//
// Numerics: integer forms are exact (wrapping, or clamped with .satfinite); f16, bf16 and tf32
// are one HMMA.SP on sm_90 (nvdisasm), summed by sparseDot with the dense adder (kMmaAdder);
// fp8 is ptxas's routine (nvdisasm of ptxas 13 -arch=sm_90): the elements unpacked to f16, two
// HMMA.SP.16832.F32, the first over the chunks of even index (each A register's low half) from
// +0, the second over the odd ones from the first's result, then C added by FADD (RN).
#include "isa/insns/mma_sparse.h"

#include <algorithm>
#include <array>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/matrix_elements.h"

namespace warpsim::isa::insns {

uint64_t sparseDot(const double* a, const double* b, unsigned n, unsigned blockSlots,
                   fp::Format aFormat, fp::Format bFormat, const MmaAdder& adder, uint64_t c,
                   fp::Format cFormat, fp::Format dFormat, SparseGrouping grouping) {
  if (grouping == SparseGrouping::Compressed || blockSlots == 0 || blockSlots >= n)
    return mmaDot(a, b, n, aFormat, bFormat, adder, c, cFormat, dFormat);
  uint64_t d = c;
  for (unsigned from = 0; from < n; from += blockSlots)
    d = mmaDot(a + from, b + from, blockSlots, aFormat, bFormat, adder, d, from ? dFormat : cFormat,
               dFormat);
  return d;
}

namespace {

// Elements a chunk spans: 4 (2 stored), tf32 2 (1 stored), s4/u4 8 (two pairs stored).
unsigned chunkElems(unsigned elemBits) { return elemBits == 32 ? 2 : elemBits == 4 ? 8 : 4; }

// Threads of a group of four that hold metadata: 16 rows x chunks x 4 bits over 8 groups.
unsigned metaThreads(unsigned elemBits, unsigned k) { return k / chunkElems(elemBits) / 4; }

}  // namespace

unsigned sparseSelectors(unsigned elemBits, unsigned k) { return 4 / metaThreads(elemBits, k); }

void sparseColumns(unsigned elemBits, unsigned k, const uint64_t* meta, unsigned sel, unsigned row,
                   uint8_t* columns) {
  const unsigned chunks = k / chunkElems(elemBits), T = metaThreads(elemBits, k), g = row % 8;
  for (unsigned c = 0; c < chunks; ++c) {
    // Where the chunk's nibble is (see the top of the file).
    unsigned lane, bit;
    if (elemBits >= 16) {
      lane = 4 * g + sel * T + c / 4, bit = 16 * (row / 8) + 4 * (c % 4);
    } else {
      lane = 4 * g + sel * T + row / 8 + 2 * (c / 8), bit = 16 * ((c / 4) % 2) + 4 * (c % 4);
    }
    const unsigned nib = unsigned(meta[lane] >> bit) & 0xF;
    const unsigned i0 = nib & 3, i1 = nib >> 2;
    if (elemBits == 32) {
      columns[c] = uint8_t(2 * c + i0 / 2);
    } else if (elemBits == 4) {
      for (unsigned e = 0; e < 2; ++e) {
        columns[4 * c + e] = uint8_t(8 * c + 2 * i0 + e);
        columns[4 * c + 2 + e] = uint8_t(8 * c + 2 * i1 + e);
      }
    } else {
      columns[2 * c] = uint8_t(4 * c + i0);
      columns[2 * c + 1] = uint8_t(4 * c + i1);
    }
  }
}

namespace {

enum class Elem : uint8_t { F16, BF16, TF32, Int8, Fp8, Int4 };

// Inst::flags
enum : uint32_t {
  kKShift = 0,        // K in bits 0..7
  kElemShift = 8,     // Elem, bits 8..10
  kF16Acc = 1 << 11,  // C and D f16
  kAUnsigned = 1 << 12,
  kBUnsigned = 1 << 13,
  kAE5M2 = 1 << 14,
  kBE5M2 = 1 << 15,
  kSatFinite = 1 << 16,
};

struct Shape {
  Elem elem;
  unsigned k;
  unsigned bits() const {
    return elem == Elem::TF32                        ? 32
           : elem == Elem::F16 || elem == Elem::BF16 ? 16
           : elem == Elem::Int4                      ? 4
                                                     : 8;
  }
  unsigned perReg() const { return 32 / bits(); }
  unsigned aRegs() const { return 16 * k / 2 / 32 / perReg(); }  // 16 rows, K/2 stored
  unsigned bRegs() const { return k * 8 / 32 / perReg(); }
  // The compressed slots of a dense block (DenseBlocks): the dense shape's K over two.
  unsigned blockSlots() const { return elem == Elem::TF32 ? 4 : 8; }
  unsigned chunks() const { return k / (elem == Elem::TF32 ? 2 : elem == Elem::Int4 ? 8 : 4); }
};

Shape shapeOf(const Inst& in) {
  return {Elem((in.flags >> kElemShift) & 7), (in.flags >> kKShift) & 0xFF};
}

constexpr unsigned kMaxK = 128;

// An element's raw field from register word w, element j of perReg.
uint32_t field(uint64_t w, unsigned j, unsigned bits) {
  return uint32_t(w >> (j * bits)) & uint32_t((uint64_t(1) << bits) - 1);
}

double floatValue(Elem e, uint32_t f, bool e5m2) {
  switch (e) {
    case Elem::F16:
      return f16Exact(uint16_t(f));
    case Elem::BF16:
      return fp::bf16ToF32(uint16_t(f));
    case Elem::TF32:
      return fp::f32(f & 0xFFFFE000u);
    default:
      return fp8Value(e5m2, f);
  }
}

inline const uint64_t* fragReg(const Exec& x, const Opnd& o, unsigned reg) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[reg] : o);
}

// The 16 x 8 C and D fragment: element i of lane (g, t) at row g (+8 for i >= 2), col 2t + i % 2.
constexpr unsigned cRow(unsigned i, unsigned lane) { return lane / 4 + (i >= 2 ? 8 : 0); }
constexpr unsigned cCol(unsigned i, unsigned lane) { return (lane % 4) * 2 + (i & 1); }

void mmaSparse(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const Shape s = shapeOf(in);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  const unsigned sel = unsigned(x.reg(in.ops[5])[0]);
  if (sel >= sparseSelectors(s.bits(), s.k))
    x.machine->trap(in, x.mask, "sparsity selector out of range");
  const uint64_t* meta = x.reg(in.ops[4]);
  const unsigned bits = s.bits(), p = s.perReg(), half = s.k / 2;
  const bool isInt = s.elem == Elem::Int8 || s.elem == Elem::Int4;
  // A's stored elements by row and compressed slot, B by column and k (raw fields).
  std::array<std::array<uint32_t, kMaxK / 2>, 16> A{};
  std::array<std::array<uint32_t, kMaxK>, 8> B{};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned g = lane / 4, t = lane % 4;
    for (unsigned r = 0; r < s.aRegs(); ++r) {
      const uint64_t w = fragReg(x, aOp, r)[lane];
      for (unsigned j = 0; j < p; ++j)
        A[g + 8 * (r & 1)][t * p + j + 4 * p * (r >> 1)] = field(w, j, bits);
    }
    for (unsigned r = 0; r < s.bRegs(); ++r) {
      const uint64_t w = fragReg(x, bOp, r)[lane];
      for (unsigned j = 0; j < p; ++j) B[g][t * p + j + 4 * p * r] = field(w, j, bits);
    }
  }
  std::array<std::array<uint8_t, kMaxK / 2>, 16> kOf;
  for (unsigned row = 0; row < 16; ++row) sparseColumns(bits, s.k, meta, sel, row, kOf[row].data());
  // C, read whole before D is written (D may name C's registers).
  const bool f16Acc = in.flags & kF16Acc;
  uint64_t C[4][kWarpSize], D[4][kWarpSize];
  for (unsigned i = 0; i < 4; ++i) {
    const uint64_t* reg = fragReg(x, cOp, f16Acc ? i / 2 : i);
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      C[i][lane] = f16Acc ? (reg[lane] >> (i % 2 * 16)) & 0xFFFF : reg[lane] & 0xFFFFFFFFu;
  }
  if (isInt) {
    const bool aU = in.flags & kAUnsigned, bU = in.flags & kBUnsigned, sat = in.flags & kSatFinite;
    auto value = [&](uint32_t f, bool u) { return u ? int64_t(f) : int64_t(signExtend(f, bits)); };
    for (unsigned i = 0; i < 4; ++i)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const unsigned row = cRow(i, lane), col = cCol(i, lane);
        int64_t sum = int32_t(uint32_t(C[i][lane]));
        for (unsigned j = 0; j < half; ++j)
          sum += value(A[row][j], aU) * value(B[col][kOf[row][j]], bU);
        D[i][lane] = uint32_t(sat ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX) : sum);
      }
  } else {
    const bool aE5 = in.flags & kAE5M2, bE5 = in.flags & kBE5M2;
    const fp::Format input = s.elem == Elem::BF16   ? fp::kBF16
                             : s.elem == Elem::TF32 ? fp::kTF32
                                                    : fp::kF16;
    const fp::Format acc = f16Acc ? fp::kF16 : fp::kF32;
    std::array<std::array<double, kMaxK / 2>, 16> Av;
    std::array<std::array<double, kMaxK>, 8> Bv;
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned j = 0; j < half; ++j) Av[r][j] = floatValue(s.elem, A[r][j], aE5);
    for (unsigned c = 0; c < 8; ++c)
      for (unsigned k = 0; k < s.k; ++k) Bv[c][k] = floatValue(s.elem, B[c][k], bE5);
    for (unsigned i = 0; i < 4; ++i)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const unsigned row = cRow(i, lane), col = cCol(i, lane);
        if (s.elem != Elem::Fp8) {
          double b[kMaxK / 2];
          for (unsigned j = 0; j < half; ++j) b[j] = Bv[col][kOf[row][j]];
          D[i][lane] = sparseDot(Av[row].data(), b, half, s.blockSlots(), input, input, kMmaAdder,
                                 C[i][lane], acc, acc, kSparseGrouping);
          continue;
        }
        // fp8: two f16 HMMA.SP steps over the even and the odd chunks, then + C (RN).
        uint64_t d = 0;
        for (unsigned step = 0; step < 2; ++step) {
          double a[16], b[16];
          unsigned n = 0;
          for (unsigned c = step; c < s.chunks(); c += 2)
            for (unsigned e = 0; e < 2; ++e, ++n) {
              a[n] = Av[row][2 * c + e];
              b[n] = Bv[col][kOf[row][2 * c + e]];
            }
          d = sparseDot(a, b, n, 8, fp::kF16, fp::kF16, kMmaAdder, d, fp::kF32, fp::kF32,
                        kSparseGrouping);
        }
        D[i][lane] = fp::addBits(fp::kF32, C[i][lane], d, fp::Round::RN, false);
      }
  }
  if (f16Acc) {
    for (unsigned reg = 0; reg < 2; ++reg) {
      uint64_t* out = x.reg(dOp.elems[reg]);
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        out[lane] = D[2 * reg][lane] | D[2 * reg + 1][lane] << 16;
    }
  } else {
    for (unsigned i = 0; i < 4; ++i) {
      uint64_t* out = x.reg(dOp.elems[i]);
      for (unsigned lane = 0; lane < kWarpSize; ++lane) out[lane] = D[i][lane];
    }
  }
}

bool isImmediate(const Opnd& o) { return o.kind == OpndKind::Reg && !o.declared; }

}  // namespace

std::string bindMmaSparse(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  if (!m.has("row") || !m.has("col"))
    return msg(in, "takes .row.col (A row-major, B column-major)");
  const std::vector<std::string> tw = matrixTypeWords(m);
  if (tw.size() != 4) return msg(in, "takes four types: .dtype.atype.btype.ctype");
  const std::string &d = tw[0], &a = tw[1], &b = tw[2], &c = tw[3];
  auto in2 = [](const std::string& t, const char* x, const char* y) { return t == x || t == y; };
  unsigned k = 0;
  for (unsigned shape : {8u, 16u, 32u, 64u, 128u})
    if (m.has("m16n8k" + std::to_string(shape))) k = shape;
  if (k == 0) return msg(in, "takes the shapes .m16n8k8/k16/k32/k64/k128 (sparse)");
  Elem elem;
  uint32_t flags = 0;
  bool shapeOk;
  if (in2(a, "f16", "bf16") || a == "tf32") {
    if (b != a) return msg(in, "takes A and B of one type");
    elem = a == "f16" ? Elem::F16 : a == "bf16" ? Elem::BF16 : Elem::TF32;
    shapeOk = elem == Elem::TF32 ? (k == 8 || k == 16) : (k == 16 || k == 32);
    if (c != d) return msg(in, "takes C and D of one type");
    if (elem == Elem::F16 ? !in2(d, "f32", "f16") : d != "f32")
      return msg(in,
                 "accumulates ." + a + " into " + (elem == Elem::F16 ? ".f32 or .f16" : ".f32"));
    if (d == "f16") flags |= kF16Acc;
  } else if (in2(a, "e4m3", "e5m2")) {
    if (!in2(b, "e4m3", "e5m2")) return msg(in, "takes A and B both fp8 (.e4m3/.e5m2)");
    elem = Elem::Fp8;
    shapeOk = k == 64;
    if (d != "f32" || c != "f32")
      return msg(in, "accumulates fp8 into .f32 (ptxas: no f16 accumulator on sm_90)");
    flags |= (a == "e5m2" ? kAE5M2 : 0u) | (b == "e5m2" ? kBE5M2 : 0u);
  } else if (in2(a, "s8", "u8") || in2(a, "s4", "u4")) {
    const bool four = in2(a, "s4", "u4");
    if (four ? !in2(b, "s4", "u4") : !in2(b, "s8", "u8"))
      return msg(in, "takes A and B both 8-bit (.s8/.u8) or both 4-bit (.s4/.u4) integers");
    elem = four ? Elem::Int4 : Elem::Int8;
    shapeOk = four ? (k == 64 || k == 128) : (k == 32 || k == 64);
    if (d != "s32" || c != "s32") return msg(in, "accumulates integers into .s32");
    flags |= (a[0] == 'u' ? kAUnsigned : 0u) | (b[0] == 'u' ? kBUnsigned : 0u);
  } else {
    return msg(in, "has an A type sparse mma does not take on sm_90 (." + a + ")");
  }
  if (!shapeOk) return msg(in, "does not take .m16n8k" + std::to_string(k) + " with ." + a);
  if (m.has("satfinite")) {
    if (elem != Elem::Int8 && elem != Elem::Int4)
      return msg(in, "takes .satfinite only for integer types");
    flags |= kSatFinite;
  }
  if (m.rounding.present) return msg(in, "takes no rounding modifier");
  flags |= k << kKShift | uint32_t(elem) << kElemShift;
  in.flags = flags;
  const Shape s = shapeOf(in);
  const unsigned cRegs = flags & kF16Acc ? 2 : 4;
  if (auto e = checkMmaFragments(in, cRegs, s.aRegs(), s.bRegs(), cRegs, 6); !e.empty()) return e;
  if (in.ops[4].kind != OpndKind::Reg || !in.ops[4].declared)
    return msg(in, "takes the metadata (operand 5) in a register");
  if (!isImmediate(in.ops[5]))
    return msg(in, "takes the sparsity selector (operand 6) as an immediate (0.." +
                       std::to_string(sparseSelectors(s.bits(), s.k) - 1) + ")");
  in.cls = InsnClass::Tensor;
  in.run = mmaSparse;
  return "";
}

}  // namespace warpsim::isa::insns
