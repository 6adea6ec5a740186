// Warp-level matrix multiply-accumulate (PTX ISA, "mma"): D = A * B + C over the 32 threads of a
// warp, every matrix spread over the threads' registers in the fragment layouts of the PTX ISA
// ("Matrix Fragments for mma.m16n8k16 / m16n8k8 / m8n8k4 / m16n8k32 / m16n8k64 / m8n8k32 /
// m8n8k128 / m16n8k128 / m16n8k256"; groupID = laneid >> 2, threadID_in_group = laneid % 4):
//   mma.sync.aligned.m16n8k16.row.col.{f32,f16}.f16.f16.{f32,f16}   (D and C of one type),
//                                     .f32.bf16.bf16.f32
//   mma.sync.aligned.m16n8k8.row.col.{f32,f16}.f16.f16.{f32,f16}    (likewise),
//                                    .f32.bf16.bf16.f32, .f32.tf32.tf32.f32
//   mma.sync.aligned.m8n8k4.row.col{.rn,.rz,.rm,.rp}.f64.f64.f64.f64
//   mma.sync.aligned.m16n8k32 / m16n8k16 .row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32
//   mma.sync.aligned.m8n8k32 / m16n8k32 / m16n8k64 .row.col{.satfinite}.s32.{s4,u4}.{s4,u4}.s32
//   mma.sync.aligned.m8n8k128 / m16n8k128 / m16n8k256 .row.col.s32.b1.b1.s32.{and,xor}.popc
//   mma.sync.aligned.m16n8k32.row.col.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}.{f32,f16} (C = D type)
//   mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f32,f16}.f16.f16.{f32,f16} (bound here, run by
//                                    mma_m8n8k4_f16.h: ptxas's CUDA-core routines, quad pairs)
// Integer forms are exact (the sum wraps modulo 2^32, or clamps with .satfinite; .b1 sums the
// population counts of A's row AND/XOR B's column); the f64 form is a chain of fused
// multiply-adds in k order from C, each rounded in the instruction's mode; the narrow
// floating-point forms go through mmaDot (mma_accumulate.h), the model of the tensor core's
// undocumented summation fitted to the H200 (fp8: ptxas's two f16 HMMAs, see kFp8Steps).
// .aligned: every thread of the warp executes it. The sparse forms (mma.sp,
// mma.sp::ordered_metadata) are mma_sparse.cpp's: bindMma hands them over.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/matrix_elements.h"
#include "isa/insns/mma_accumulate.h"
#include "isa/insns/mma_m8n8k4_f16.h"
#include "isa/insns/mma_sparse.h"

namespace warpsim::isa::insns {
namespace {

enum class Form : uint8_t {
  F16K16,
  Bf16K16,
  F16K8,
  Bf16K8,
  Tf32K8,
  F64K4,
  IntK32,  // s8/u8
  IntK16,
  Int4M8K32,  // s4/u4
  Int4K32,
  Int4K64,
  B1M8K128,  // b1
  B1K128,
  B1K256,
  Fp8K32,  // e4m3/e5m2
  Count
};

// Inst::flags
enum : uint32_t {
  kCF16 = 1,       // C is f16 (f16x2 registers)
  kDF16 = 2,       // D is f16
  kAUnsigned = 4,  // .u8 / .u4 A
  kBUnsigned = 8,  // .u8 / .u4 B
  kSatFinite = 16,
  kAE5M2 = 32,      // fp8: A is .e5m2 (else .e4m3)
  kBE5M2 = 64,      // fp8: B is .e5m2
  kBitAnd = 128,    // b1: .and.popc (else .xor.popc)
  kRoundShift = 8,  // f64: fp::Round in bits 8..10
};

struct Geometry {
  unsigned m, n, k;
  unsigned aElems, aPerReg, bElems, bPerReg;  // elements, elements per 32/64-bit register
};

constexpr Geometry geometry(Form f) {
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {16, 8, 16, 8, 2, 4, 2};
    case Form::F16K8:
    case Form::Bf16K8:
      return {16, 8, 8, 4, 2, 2, 2};
    case Form::Tf32K8:
      return {16, 8, 8, 4, 1, 2, 1};
    case Form::F64K4:
      return {8, 8, 4, 1, 1, 1, 1};
    case Form::IntK32:
    case Form::Fp8K32:
      return {16, 8, 32, 16, 4, 8, 4};
    case Form::IntK16:
      return {16, 8, 16, 8, 4, 4, 4};
    case Form::Int4M8K32:
      return {8, 8, 32, 8, 8, 8, 8};
    case Form::Int4K32:
      return {16, 8, 32, 16, 8, 8, 8};
    case Form::Int4K64:
      return {16, 8, 64, 32, 8, 16, 8};
    case Form::B1M8K128:
      return {8, 8, 128, 32, 32, 32, 32};
    case Form::B1K128:
      return {16, 8, 128, 64, 32, 32, 32};
    case Form::B1K256:
      return {16, 8, 256, 128, 32, 64, 32};
    case Form::Count:
      break;
  }
  return {};
}

// The forms whose A and B are integers (s8/u8, s4/u4, b1): exact sums, no rounding.
constexpr bool isIntForm(Form f) {
  return f == Form::IntK32 || f == Form::IntK16 || f == Form::Int4M8K32 || f == Form::Int4K32 ||
         f == Form::Int4K64 || f == Form::B1M8K128 || f == Form::B1K128 || f == Form::B1K256;
}

// The forms whose A and B registers pack sub-word elements in k order: 8-, 4- and 1-bit
// integers and fp8. One layout for all of them, the manual's figures for every such shape:
// element j of A's register r sits in row g (+ 8 for odd r of the 16-row shapes), column
// t * p + j (+ 4p for r >= 2), p the elements per register; B's register r holds rows
// t * p + j + 4p r of column g. So a register is p consecutive k of one row (column).
constexpr bool isPackedForm(Form f) { return isIntForm(f) || f == Form::Fp8K32; }

struct RowCol {
  unsigned row, col;
};

constexpr RowCol packedA(const Geometry& G, unsigned i, unsigned g, unsigned t) {
  const unsigned p = G.aPerReg, r = i / p, j = i % p;
  return {g + (G.m == 16 ? (r & 1) * 8 : 0), t * p + j + (r >= 2 ? 4 * p : 0)};
}
constexpr RowCol packedB(const Geometry& G, unsigned i, unsigned g, unsigned t) {
  const unsigned p = G.bPerReg, r = i / p, j = i % p;
  return {t * p + j + 4 * p * r, g};
}

// Where element i of a thread's A fragment sits (g = groupID, t = threadID_in_group).
constexpr RowCol aAt(Form f, unsigned i, unsigned g, unsigned t) {
  if (isPackedForm(f)) return packedA(geometry(f), i, g, t);
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {g + ((i >> 1) & 1) * 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
    case Form::F16K8:
    case Form::Bf16K8:
      return {g + (i >= 2 ? 8 : 0), t * 2 + (i & 1)};
    case Form::Tf32K8:
      return {g + (i & 1) * 8, t + (i >= 2 ? 4 : 0)};
    default:  // F64K4
      return {g, t};
  }
}

constexpr RowCol bAt(Form f, unsigned i, unsigned g, unsigned t) {
  if (isPackedForm(f)) return packedB(geometry(f), i, g, t);
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
    case Form::F16K8:
    case Form::Bf16K8:
      return {t * 2 + i, g};
    case Form::Tf32K8:
      return {t + i * 4, g};
    default:  // F64K4
      return {t, g};
  }
}

// C and D: four elements per thread for the 16x8 shapes, two for the 8x8 ones.
constexpr unsigned cElemsOf(Form f) { return geometry(f).m == 8 ? 2 : 4; }
constexpr RowCol cAt(Form f, unsigned i, unsigned g, unsigned t) {
  if (geometry(f).m == 8) return {g, t * 2 + i};
  return {g + (i >= 2 ? 8 : 0), t * 2 + (i & 1)};
}

// The register holding element i of a fragment operand (a vector, or one register).
inline const uint64_t* fragReg(const Exec& x, const Opnd& o, unsigned reg) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[reg] : o);
}

// The format of A's and B's elements, for the alignment exponents of mmaDot. fp8 elements are
// aligned as the f16 values they convert to exactly (kFp8Steps).
constexpr fp::Format inputFormat(Form f) {
  switch (f) {
    case Form::Bf16K16:
    case Form::Bf16K8:
      return fp::kBF16;
    case Form::Tf32K8:
      return fp::kTF32;
    default:
      return fp::kF16;
  }
}

// How the fp8 form sums its 32 products: the H200 has no fp8 mma.sync datapath, and ptxas (13,
// sm_90; nvdisasm) unpacks the fp8 elements to f16 (F2FP.F16.E4M3/E5M2.UNPACK_B, exact) and
// issues two f16 m16n8k16 HMMAs with D's accumulator (.F32 or .F16), the first from +0 (RZ) and
// the second from the first's result, then adds C by FADD (f32) or HADD2 (f16), rounding to
// nearest. Each A and B register holds four consecutive k: its two low bytes feed the first
// HMMA and its two high bytes the second, so k = 4q + r lands in step r / 2 at HMMA position
// 2q + r % 2 (fp8Slot). Measured: `bash scripts/device_mma.sh 1080 100000` (docs/FIDELITY.md).
constexpr unsigned kFp8Steps = 2;
constexpr unsigned fp8Slot(unsigned k) { return (k & 2 ? 16 : 0) + (k >> 2) * 2 + (k & 1); }

// Where a 32-bit word of a row of A (a column of B) sits in the fragments: each register of
// the narrow forms holds perReg consecutive k of one row (column), so word w of a row (k from
// w * perReg) is one register of one lane. Derived from aAt/bAt, which stay the layouts' one
// description.
struct WordAt {
  uint8_t reg, lane;
};
struct WordTables {
  std::array<std::array<WordAt, 8>, 16> a{};  // [row of A][word along k]
  std::array<std::array<WordAt, 8>, 8> b{};   // [column of B][word along k]
  bool runs = true;  // every register's elements are consecutive k of one row (column)
};

template <Form F>
constexpr WordTables wordTables() {
  constexpr Geometry G = geometry(F);
  WordTables w;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned g = lane >> 2, t = lane & 3;
    for (unsigned reg = 0; reg < G.aElems / G.aPerReg; ++reg) {
      const RowCol rc = aAt(F, reg * G.aPerReg, g, t);
      w.runs &= rc.col % G.aPerReg == 0;
      for (unsigned j = 1; j < G.aPerReg; ++j) {
        const RowCol next = aAt(F, reg * G.aPerReg + j, g, t);
        w.runs &= next.row == rc.row && next.col == rc.col + j;
      }
      w.a[rc.row][rc.col / G.aPerReg] = {uint8_t(reg), uint8_t(lane)};
    }
    for (unsigned reg = 0; reg < G.bElems / G.bPerReg; ++reg) {
      const RowCol rc = bAt(F, reg * G.bPerReg, g, t);
      w.runs &= rc.row % G.bPerReg == 0;
      for (unsigned j = 1; j < G.bPerReg; ++j) {
        const RowCol next = bAt(F, reg * G.bPerReg + j, g, t);
        w.runs &= next.col == rc.col && next.row == rc.row + j;
      }
      w.b[rc.col][rc.row / G.bPerReg] = {uint8_t(reg), uint8_t(lane)};
    }
  }
  return w;
}

// The exact value of an A or B element of a narrow floating-point form (e5m2: of an fp8 one).
template <Form F>
double narrowValue(uint32_t bits, bool e5m2) {
  if constexpr (F == Form::Tf32K8)  // tf32: the f32 encoding's upper 19 bits
    return fp::f32(bits & 0xFFFFE000u);
  else if constexpr (F == Form::Bf16K16 || F == Form::Bf16K8)
    return fp::bf16ToF32(uint16_t(bits));
  else if constexpr (F == Form::Fp8K32)
    return fp8Value(e5m2, bits);
  else
    return f16Exact(uint16_t(bits));
}

// k values of a row of A (column of B) from its `Words` words of `PerReg` elements each, in k
// order: the words' elements are little-endian fields, so the words' bytes are the elements
// in k order, and the loop over them is branch-free for f16, bf16 and tf32 (vectorized).
template <Form F, unsigned Words, unsigned PerReg>
void decodeWords(const uint32_t* words, bool e5m2, double* out) {
  using Field =
      std::conditional_t<PerReg == 1, uint32_t, std::conditional_t<PerReg == 2, uint16_t, uint8_t>>;
  static_assert(sizeof(Field) * PerReg == 4 && std::endian::native == std::endian::little);
  Field e[Words * PerReg];
  std::memcpy(e, words, sizeof e);
  for (unsigned i = 0; i < Words * PerReg; ++i) out[i] = narrowValue<F>(e[i], e5m2);
}

// fp8: each row's (column's) values, decoded in k order, moved to their steps' slots
// (fp8Slot); the rows lie 32 values apart.
template <Form F>
void toSlots(double* v, unsigned rows) {
  if constexpr (F == Form::Fp8K32) {
    for (unsigned r = 0; r < rows; ++r, v += 32) {
      double byK[32];
      std::copy(v, v + 32, byK);
      for (unsigned k = 0; k < 32; ++k) v[fp8Slot(k)] = byK[k];
    }
  }
}

// Where element i of lane `lane`'s C (D) fragment sits in the m x n grid of dots (row * n +
// column). Elements i and i + 1 (i even) are neighbouring cells, and a lane's cells are two
// after the previous lane's: so cell(i, lane) = cell(i, 0) + 2 lane, and C and D move between
// registers and grid as interleaved pairs of registers (checked below for every form).
template <Form F>
constexpr unsigned cellOf(unsigned i, unsigned lane) {
  const RowCol rc = cAt(F, i, lane >> 2, lane & 3);
  return rc.row * geometry(F).n + rc.col;
}
template <Form F>
constexpr bool cellsInterleave() {
  for (unsigned i = 0; i < cElemsOf(F); ++i)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (cellOf<F>(i, lane) != cellOf<F>(i & ~1u, 0) + (i & 1) + 2 * lane) return false;
  return cElemsOf(F) % 2 == 0;
}

// out[2 lane] = lo[lane] and out[2 lane + 1] = hi[lane] for every lane (a pair of C registers
// into the grid), four lanes to a host vector where a loop per lane took two loads and stores.
inline void interleaveLanes(const uint64_t* lo, const uint64_t* hi, uint64_t* out) {
  using Q4 = uint64_t __attribute__((vector_size(32)));
  for (unsigned l = 0; l < kWarpSize; l += 4) {
    Q4 a, b;
    std::memcpy(&a, lo + l, sizeof a);
    std::memcpy(&b, hi + l, sizeof b);
    const Q4 first = __builtin_shufflevector(a, b, 0, 4, 1, 5),
             second = __builtin_shufflevector(a, b, 2, 6, 3, 7);
    std::memcpy(out + 2 * l, &first, sizeof first);
    std::memcpy(out + 2 * l + 4, &second, sizeof second);
  }
}

// The reverse (the grid into a pair of D registers): lo[lane] = grid[2 lane], hi[lane] =
// grid[2 lane + 1] (one register named twice ends with hi's values, as a loop per lane).
inline void deinterleaveLanes(const uint64_t* grid, uint64_t* lo, uint64_t* hi) {
  using Q4 = uint64_t __attribute__((vector_size(32)));
  for (unsigned l = 0; l < kWarpSize; l += 4) {
    Q4 a, b;
    std::memcpy(&a, grid + 2 * l, sizeof a);
    std::memcpy(&b, grid + 2 * l + 4, sizeof b);
    const Q4 even = __builtin_shufflevector(a, b, 0, 2, 4, 6),
             odd = __builtin_shufflevector(a, b, 1, 3, 5, 7);
    std::memcpy(lo + l, &even, sizeof even);
    std::memcpy(hi + l, &odd, sizeof odd);
  }
}

// The narrow floating-point forms (f16, bf16, tf32, fp8 A and B): A's rows and B's columns are
// gathered a 32-bit word at a time (the fragment tables are constants: each word is one load)
// and decoded at once, the grid of D elements is mmaGridDots per step.
template <Form F>
void mmaNarrow(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  constexpr Geometry G = geometry(F);
  constexpr WordTables W = wordTables<F>();
  static_assert(W.runs, "a register of a narrow form holds consecutive k of one row (column)");
  constexpr unsigned aRegCount = G.aElems / G.aPerReg, bRegCount = G.bElems / G.bPerReg;
  constexpr unsigned aWords = G.k / G.aPerReg, bWords = G.k / G.bPerReg;
  constexpr unsigned cRegs = cElemsOf(F);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  const uint64_t *aRegs[aRegCount], *bRegs[bRegCount];
  for (unsigned j = 0; j < aRegCount; ++j) aRegs[j] = fragReg(x, aOp, j);
  for (unsigned j = 0; j < bRegCount; ++j) bRegs[j] = fragReg(x, bOp, j);
  // A's rows and B's columns (Bt[col * G.k + k]) as contiguous k values for the dots: the words
  // of all rows (columns) in order, then decoded in one loop (a row is its words' elements).
  uint32_t aw[G.m * aWords], bw[G.n * bWords];
#pragma GCC unroll 128
  for (unsigned i = 0; i < G.m * aWords; ++i)
    aw[i] = uint32_t(aRegs[W.a[i / aWords][i % aWords].reg][W.a[i / aWords][i % aWords].lane]);
#pragma GCC unroll 128
  for (unsigned i = 0; i < G.n * bWords; ++i)
    bw[i] = uint32_t(bRegs[W.b[i / bWords][i % bWords].reg][W.b[i / bWords][i % bWords].lane]);
  double A[G.m * G.k], Bt[G.n * G.k];
  // The rows and columns prepared once for mmaDot (each meets G.n or G.m others), per step of
  // kStepK products (all of k but for fp8).
  constexpr unsigned kSteps = F == Form::Fp8K32 ? kFp8Steps : 1, kStepK = G.k / kSteps;
  int32_t aExp[G.m * G.k], bExp[G.n * G.k];
  float aNarrow[G.m * G.k], bNarrow[G.n * G.k];
  std::array<std::array<MmaVector, 16>, kSteps> rows;
  std::array<std::array<MmaVector, 8>, kSteps> cols;
  if constexpr (F == Form::F16K16 || F == Form::F16K8) {
    // f16: the words' halves are the elements in k order, decoded with their vectors at once.
    uint16_t ah[G.m * G.k], bh[G.n * G.k];
    static_assert(sizeof ah == sizeof aw && sizeof bh == sizeof bw);
    std::memcpy(ah, aw, sizeof ah);
    std::memcpy(bh, bw, sizeof bh);
    mmaVectorsF16(ah, G.m, G.k, A, aExp, aNarrow, rows[0].data());
    mmaVectorsF16(bh, G.n, G.k, Bt, bExp, bNarrow, cols[0].data());
  } else {
    decodeWords<F, G.m * aWords, G.aPerReg>(aw, in.flags & kAE5M2, A);
    decodeWords<F, G.n * bWords, G.bPerReg>(bw, in.flags & kBE5M2, Bt);
    toSlots<F>(A, G.m);
    toSlots<F>(Bt, G.n);
    for (unsigned s = 0; s < kSteps; ++s) {
      const unsigned k0 = s * kStepK;
      mmaVectors(A + k0, G.k, G.m, kStepK, inputFormat(F), aExp + k0, aNarrow + k0, rows[s].data());
      mmaVectors(Bt + k0, G.k, G.n, kStepK, inputFormat(F), bExp + k0, bNarrow + k0,
                 cols[s].data());
    }
  }
  // C and D by cell of the G.m x G.n grid; C is read whole before D is written (D may name C's
  // registers).
  static_assert(G.m <= 16 && G.n <= 8 && G.m * G.n == cRegs * kWarpSize,
                "each D element is one lane's register");
  static_assert(cellsInterleave<F>(), "C and D fragments are interleaved pairs of registers");
  const bool cHalf = in.flags & kCF16;
  uint64_t Cg[16 * 8];
  for (unsigned i = 0; i < cRegs; i += 2) {
    uint64_t* out = Cg + cellOf<F>(i, 0);
    if (cHalf) {  // elements i and i + 1 are one f16x2 register's halves
      const uint64_t* reg = fragReg(x, cOp, i / 2);
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        out[2 * lane] = reg[lane] & 0xFFFF;
        out[2 * lane + 1] = (reg[lane] >> 16) & 0xFFFF;
      }
    } else {
      interleaveLanes(fragReg(x, cOp, i), fragReg(x, cOp, i + 1), out);
    }
  }
  const fp::Format cFormat = cHalf ? fp::kF16 : fp::kF32;
  const bool dHalf = in.flags & kDF16;
  const fp::Format dFormat = dHalf ? fp::kF16 : fp::kF32;
  // C enters the sum exactly in its own format, D is rounded once (mma_accumulate.h). fp8: two
  // HMMAs from +0, the second from the first's result, then C added in D's format (kFp8Steps).
  // The grid of dots at once (mmaGridDots).
  constexpr bool kFp8 = F == Form::Fp8K32;
  uint64_t Dg[16 * 8];
  if constexpr (kFp8) {
    uint64_t zero[16 * 8] = {}, first[16 * 8];
    mmaGridDots(rows[0].data(), G.m, cols[0].data(), G.n, kStepK, kMmaAdder, dFormat, dFormat, zero,
                first);
    mmaGridDots(rows[1].data(), G.m, cols[1].data(), G.n, kStepK, kMmaAdder, dFormat, dFormat,
                first, Dg);
    for (unsigned e = 0; e < G.m * G.n; ++e)
      Dg[e] = fp::addBits(dFormat, Cg[e], Dg[e], fp::Round::RN, false);
  } else {
    mmaGridDots(rows[0].data(), G.m, cols[0].data(), G.n, kStepK, kMmaAdder, cFormat, dFormat, Cg,
                Dg);
  }
  for (unsigned i = 0; i < cRegs; i += 2) {
    const uint64_t* grid = Dg + cellOf<F>(i, 0);
    if (dHalf) {  // elements i and i + 1 are one f16x2 register's halves
      uint64_t* out = x.reg(dOp.elems[i / 2]);
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        out[lane] = grid[2 * lane] | grid[2 * lane + 1] << 16;
    } else {
      deinterleaveLanes(grid, x.reg(dOp.elems[i]), x.reg(dOp.elems[i + 1]));
    }
  }
}

// The f64 form: one DFMA per k, B as its first operand: with NaN operands the result is B's,
// then the running sum's (C's), then A's NaN, quieted with its payload (fp::fma's NaN rule,
// nanResultFma64; measured: the mma.f64 random-input cases of scripts/device_mma.sh, where A
// first gives 0 of 20 and B first 20 of 20).
void mmaF64(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  constexpr Form F = Form::F64K4;
  constexpr Geometry G = geometry(F);
  constexpr unsigned cRegs = cElemsOf(F);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  std::array<std::array<double, G.k>, G.m> A;
  std::array<std::array<double, G.k>, G.n> Bt;
  std::array<std::array<uint64_t, G.n>, G.m> C, D;
  const uint64_t *aReg = fragReg(x, aOp, 0), *bReg = fragReg(x, bOp, 0), *cRegsOf[cRegs];
  for (unsigned j = 0; j < cRegs; ++j) cRegsOf[j] = fragReg(x, cOp, j);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned g = lane >> 2, t = lane & 3;
    const RowCol ra = aAt(F, 0, g, t), rb = bAt(F, 0, g, t);
    A[ra.row][ra.col] = fp::f64(aReg[lane]);
    Bt[rb.col][rb.row] = fp::f64(bReg[lane]);
    for (unsigned i = 0; i < cRegs; ++i) {
      const RowCol rc = cAt(F, i, g, t);
      C[rc.row][rc.col] = cRegsOf[i][lane];
    }
  }
  const auto mode = fp::Round((in.flags >> kRoundShift) & 7);
  for (unsigned r = 0; r < G.m; ++r)
    for (unsigned c = 0; c < G.n; ++c) {
      double d = fp::f64(C[r][c]);
      for (unsigned k = 0; k < G.k; ++k) d = fp::fma(Bt[c][k], A[r][k], d, mode);
      D[r][c] = fp::bits(d);
    }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < cRegs; ++i) {
      const RowCol rc = cAt(F, i, lane >> 2, lane & 3);
      x.reg(dOp.elems[i])[lane] = D[rc.row][rc.col];
    }
}

// The integer forms: s8/u8, s4/u4 (products summed exactly) and b1 (population counts of A's
// row AND/XOR B's column), into an s32 C, wrapping modulo 2^32 or, with .satfinite, clamped.
template <Form F>
void mmaInt(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  constexpr Geometry G = geometry(F);
  constexpr unsigned kBits = 32 / G.aPerReg;  // 8, 4 or 1
  constexpr unsigned aRegCount = G.aElems / G.aPerReg, bRegCount = G.bElems / G.bPerReg;
  constexpr unsigned cRegs = cElemsOf(F);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  const uint64_t *aRegs[aRegCount], *bRegs[bRegCount];
  for (unsigned j = 0; j < aRegCount; ++j) aRegs[j] = fragReg(x, aOp, j);
  for (unsigned j = 0; j < bRegCount; ++j) bRegs[j] = fragReg(x, bOp, j);
  std::array<std::array<int64_t, 8>, 16> C{}, D{};
  for (unsigned i = 0; i < cRegs; ++i) {
    const uint64_t* reg = fragReg(x, cOp, i);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const RowCol rc = cAt(F, i, lane >> 2, lane & 3);
      C[rc.row][rc.col] = int32_t(uint32_t(reg[lane]));
    }
  }
  if constexpr (kBits == 1) {
    // A register holds 32 consecutive k of one row (column): whole words of each row's bits.
    constexpr unsigned kWords = (G.k + 63) / 64;
    std::array<std::array<uint64_t, kWords>, 16> Aw{};
    std::array<std::array<uint64_t, kWords>, 8> Bw{};
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned g = lane >> 2, t = lane & 3;
      for (unsigned r = 0; r < aRegCount; ++r) {
        const RowCol rc = aAt(F, r * 32, g, t);
        Aw[rc.row][rc.col / 64] |= uint64_t(uint32_t(aRegs[r][lane])) << (rc.col % 64);
      }
      for (unsigned r = 0; r < bRegCount; ++r) {
        const RowCol rc = bAt(F, r * 32, g, t);
        Bw[rc.col][rc.row / 64] |= uint64_t(uint32_t(bRegs[r][lane])) << (rc.row % 64);
      }
    }
    const bool andOp = in.flags & kBitAnd;
    for (unsigned r = 0; r < G.m; ++r)
      for (unsigned c = 0; c < G.n; ++c) {
        int64_t s = C[r][c];
        for (unsigned w = 0; w < kWords; ++w)
          s += std::popcount(andOp ? Aw[r][w] & Bw[c][w] : Aw[r][w] ^ Bw[c][w]);
        D[r][c] = s;
      }
  } else {
    std::array<std::array<int32_t, G.k>, 16> Ai;
    std::array<std::array<int32_t, G.k>, 8> Bi;
    auto value = [](uint64_t reg, unsigned j, bool isUnsigned) {
      const uint64_t v = (reg >> (j * kBits)) & ((1u << kBits) - 1);
      return isUnsigned ? int32_t(v) : int32_t(signExtend(v, kBits));
    };
    const bool aU = in.flags & kAUnsigned, bU = in.flags & kBUnsigned;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned g = lane >> 2, t = lane & 3;
      for (unsigned i = 0; i < G.aElems; ++i) {
        const RowCol rc = aAt(F, i, g, t);
        Ai[rc.row][rc.col] = value(aRegs[i / G.aPerReg][lane], i % G.aPerReg, aU);
      }
      for (unsigned i = 0; i < G.bElems; ++i) {
        const RowCol rc = bAt(F, i, g, t);
        Bi[rc.col][rc.row] = value(bRegs[i / G.bPerReg][lane], i % G.bPerReg, bU);
      }
    }
    for (unsigned r = 0; r < G.m; ++r)
      for (unsigned c = 0; c < G.n; ++c) {
        int64_t s = C[r][c];
        for (unsigned k = 0; k < G.k; ++k) s += int64_t(Ai[r][k]) * Bi[c][k];
        D[r][c] = s;
      }
  }
  const bool sat = in.flags & kSatFinite;
  for (unsigned i = 0; i < cRegs; ++i) {
    uint64_t* reg = x.reg(dOp.elems[i]);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const RowCol rc = cAt(F, i, lane >> 2, lane & 3);
      const int64_t s = D[rc.row][rc.col];
      reg[lane] = uint32_t(sat ? std::clamp<int64_t>(s, INT32_MIN, INT32_MAX) : s);
    }
  }
}

// The handler of every form, indexed by Form.
template <Form F>
constexpr Handler handlerOf() {
  if constexpr (isIntForm(F))
    return mmaInt<F>;
  else if constexpr (F == Form::F64K4)
    return mmaF64;
  else
    return mmaNarrow<F>;
}
constexpr auto kHandlers = []<unsigned... I>(std::integer_sequence<unsigned, I...>) {
  return std::array<Handler, sizeof...(I)>{handlerOf<Form(I)>()...};
}
(std::make_integer_sequence<unsigned, unsigned(Form::Count)>{});

// The sub-byte forms (.s4/.u4, .b1): their shape from the modifiers, or an error.
std::string bindSubByte(Inst& in, const std::vector<std::string>& tw, Form& form) {
  const Mods& m = in.mods;
  const std::string &d = tw[0], &a = tw[1], &b = tw[2], &c = tw[3];
  auto is4 = [](const std::string& t) { return t == "s4" || t == "u4"; };
  if (d != "s32" || c != "s32") return msg(in, "takes .s32 C and D with .s4/.u4/.b1 A and B");
  if (is4(a) != is4(b) || (!is4(a) && (a != "b1" || b != "b1")))
    return msg(in, "takes A and B both of .s4/.u4, or both .b1");
  if (is4(a)) {
    in.flags |= (a == "u4" ? kAUnsigned : 0u) | (b == "u4" ? kBUnsigned : 0u);
    if (m.has("and") || m.has("xor") || m.has("popc"))
      return msg(in, "takes .and/.xor.popc only with .b1");
    if (m.has("m8n8k32"))
      form = Form::Int4M8K32;
    else if (m.has("m16n8k32"))
      form = Form::Int4K32;
    else if (m.has("m16n8k64"))
      form = Form::Int4K64;
    else
      return msg(in, "takes .s4/.u4 in the shapes .m8n8k32, .m16n8k32 and .m16n8k64");
    return "";
  }
  if (m.has("satfinite")) return msg(in, "takes no .satfinite with .b1");
  if (!m.has("popc") || m.has("and") == m.has("xor"))
    return msg(in, "takes .b1 with .and.popc or .xor.popc");
  in.flags |= m.has("and") ? kBitAnd : 0u;
  if (m.has("m8n8k128"))
    form = Form::B1M8K128;
  else if (m.has("m16n8k128"))
    form = Form::B1K128;
  else if (m.has("m16n8k256"))
    form = Form::B1K256;
  else
    return msg(in, "takes .b1 in the shapes .m8n8k128, .m16n8k128 and .m16n8k256");
  return "";
}

// m8n8k4 with f16 A and B (mma_m8n8k4_f16.h): A's and B's layouts are the first and the second
// of the words .row/.col, C and D f16 (four f16x2 registers) or f32 (eight), but f16 D from f32
// C, which ptxas refuses for sm_90.
std::string bindM8n8k4F16(Inst& in, const std::vector<std::string>& tw) {
  const Mods& m = in.mods;
  std::vector<bool> colMajor;
  for (const std::string& w : m.words)
    if (w == "row" || w == "col") colMajor.push_back(w == "col");
  if (colMajor.size() != 2) return msg(in, "takes two layouts (.row/.col: A's, then B's)");
  auto half = [](const std::string& t) { return t == "f16" || t == "f32"; };
  if (!half(tw[0]) || !half(tw[3])) return msg(in, "takes C and D of .f16 or .f32 with .f16 A");
  if (tw[0] == "f16" && tw[3] == "f32")
    return msg(in, "takes an f16 D only with an f16 C (ptxas: .dtype must be .f32)");
  if (m.has("satfinite")) return msg(in, "takes .satfinite only for integer types");
  if (m.rounding.present) return msg(in, "takes a rounding only for .f64");
  const bool dF16 = tw[0] == "f16", cF16 = tw[3] == "f16";
  if (auto e = checkMmaFragments(in, dF16 ? 4 : 8, 2, 2, cF16 ? 4 : 8); !e.empty()) return e;
  in.cls = InsnClass::Tensor;
  in.run = mmaM8n8k4F16(colMajor[0], colMajor[1], cF16, dF16);
  return "";
}

std::string bindMma(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  const std::vector<std::string> tw = matrixTypeWords(m);
  // Sparse forms (.sp, .sp::ordered_metadata): mma_sparse.cpp.
  if (std::any_of(m.words.begin(), m.words.end(),
                  [](const std::string& w) { return w == "sp" || w.starts_with("sp::"); }))
    return bindMmaSparse(in);
  // Block-scaled forms (.kind::..., .block_scale): sm_120 and later.
  const bool later = std::any_of(m.words.begin(), m.words.end(), [](const std::string& w) {
    return w.starts_with("kind::") || w == "block_scale";
  });
  if (!later && tw.size() == 4 && m.has("m8n8k4") && tw[1] == "f16" && tw[2] == "f16")
    return bindM8n8k4F16(in, tw);
  if (tw.size() != 4 || !m.has("row") || !m.has("col") || later) {
    in.run = notSupportedHandler;  // block-scaled forms: not yet
    return "";
  }
  in.flags = m.has("satfinite") ? kSatFinite : 0u;
  unsigned dRegs = 4, cRegs = 4;
  Form form = Form::Count;
  auto subByte = [](const std::string& t) { return t == "s4" || t == "u4" || t == "b1"; };
  if (subByte(tw[0]) || subByte(tw[1]) || subByte(tw[2]) || subByte(tw[3])) {
    if (auto e = bindSubByte(in, tw, form); !e.empty()) return e;
    dRegs = cRegs = cElemsOf(form);
  } else {
    const Type d = *typeFromName(tw[0]), a = *typeFromName(tw[1]), b = *typeFromName(tw[2]),
               c = *typeFromName(tw[3]);
    auto isInt8 = [](Type t) { return t == Type::S8 || t == Type::U8; };
    auto isFp8 = [](Type t) { return t == Type::E4M3 || t == Type::E5M2; };
    auto isHalfAcc = [](Type t) { return t == Type::F16 || t == Type::F32; };
    auto bit = [](bool on, uint32_t f) { return on ? f : 0u; };
    in.flags |= bit(c == Type::F16, kCF16) | bit(d == Type::F16, kDF16) |
                bit(a == Type::U8, kAUnsigned) | bit(b == Type::U8, kBUnsigned) |
                bit(a == Type::E5M2, kAE5M2) | bit(b == Type::E5M2, kBE5M2);
    const bool k16 = m.has("m16n8k16"), k8 = m.has("m16n8k8"), k32 = m.has("m16n8k32");
    if ((k16 || k8) && a == Type::F16 && b == Type::F16 && isHalfAcc(c) && isHalfAcc(d)) {
      // ptxas (sm_90): ".dtype must be '.f16' when .ctype is '.f16'" for these shapes, and f32
      // likewise: mixed accumulators exist only for m8n8k4.
      if (c != d) return msg(in, "takes C and D of one type (.f16 or .f32) in this shape");
      form = k16 ? Form::F16K16 : Form::F16K8;
    } else if ((k16 || k8) && a == Type::BF16 && b == Type::BF16 && c == Type::F32 &&
               d == Type::F32) {
      form = k16 ? Form::Bf16K16 : Form::Bf16K8;
    } else if (k8 && a == Type::TF32 && b == Type::TF32 && c == Type::F32 && d == Type::F32) {
      form = Form::Tf32K8;
    } else if (m.has("m8n8k4") && a == Type::F64 && b == Type::F64 && c == Type::F64 &&
               d == Type::F64) {
      form = Form::F64K4;
      in.flags |= uint32_t(m.rounding.present ? m.rounding.mode : fp::Round::RN) << kRoundShift;
    } else if ((k32 || k16) && isInt8(a) && isInt8(b) && c == Type::S32 && d == Type::S32) {
      form = k16 ? Form::IntK16 : Form::IntK32;
    } else if (isFp8(a) || isFp8(b)) {
      if (!k32) {
        in.run = notSupportedHandler;  // m16n8k16 fp8 (sm_120), block-scaled kinds: not yet
        return "";
      }
      if (!isFp8(a) || !isFp8(b)) return msg(in, "takes A and B both fp8 (.e4m3/.e5m2)");
      if (!isHalfAcc(c) || c != d)
        return msg(in, "takes C and D of one type (.f16 or .f32) with fp8 A and B");
      form = Form::Fp8K32;
    } else if ((isInt8(a) || isInt8(b)) && (!isInt8(a) || !isInt8(b))) {
      return msg(in, "takes A and B both 8-bit integers (.s8/.u8)");
    } else {
      in.run = notSupportedHandler;  // parsed, not executed yet
      return "";
    }
    dRegs = form == Form::F64K4 ? 2 : d == Type::F16 ? 2 : 4;
    cRegs = form == Form::F64K4 ? 2 : c == Type::F16 ? 2 : 4;
    if (m.has("satfinite") && !isIntForm(form))
      return msg(in, "takes .satfinite only for integer types");
    if (m.has("popc")) return msg(in, "takes .and/.xor.popc only with .b1");
  }
  if (m.rounding.present && form != Form::F64K4) return msg(in, "takes a rounding only for .f64");
  const Geometry G = geometry(form);
  if (auto e = checkMmaFragments(in, dRegs, G.aElems / G.aPerReg, G.bElems / G.bPerReg, cRegs);
      !e.empty())
    return e;
  in.cls = InsnClass::Tensor;
  in.run = kHandlers[unsigned(form)];
  return "";
}

}  // namespace

std::string checkMmaFragments(const Inst& in, unsigned dRegs, unsigned aRegs, unsigned bRegs,
                              unsigned cRegs, size_t operands) {
  auto regs = [](const Opnd& o) -> unsigned {
    if (o.kind == OpndKind::Reg) return 1;
    if (o.kind != OpndKind::Vec) return 0;
    for (const Opnd& e : o.elems)
      if (e.kind != OpndKind::Reg) return 0;
    return unsigned(o.elems.size());
  };
  if (auto e = expectOperands(in, operands); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Vec || regs(in.ops[0]) != dRegs)
    return msg(in, "writes a vector of " + std::to_string(dRegs) + " registers");
  if (regs(in.ops[1]) != aRegs)
    return msg(in, "takes A as " + std::to_string(aRegs) + " registers");
  if (regs(in.ops[2]) != bRegs)
    return msg(in, "takes B as " + std::to_string(bRegs) + " registers");
  if (regs(in.ops[3]) != cRegs)
    return msg(in, "takes C as " + std::to_string(cRegs) + " registers");
  return "";
}

std::vector<OpcodeSpec> matrixMultiply() {
  return {{"mma",
           "mma",
           InsnClass::Tensor,
           Role::Compute,
           Operation::Other,
           {Type::F32, Type::F16, Type::F64, Type::S32, Type::BF16, Type::TF32, Type::S8, Type::U8,
            Type::E4M3, Type::E5M2},
           // Every form parses (block-scaled, ...; .s4/.u4/.b1 are modifier words, not
           // isa::Type); the binder executes those listed above and the sparse ones
           // (mma_sparse.cpp) and leaves the rest faulting "not supported yet" when executed.
           {"*"},
           bindMma}};
}

}  // namespace warpsim::isa::insns
