// Warpgroup-level matrix multiply-accumulate (PTX ISA, "wgmma", sm_90a):
//   wgmma.mma_async.sync.aligned.m64nNk16.{f32,f16}.f16.f16  d, a-desc|{a}, b-desc, scale-d,
//                                        imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16      (likewise)
//   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32       d, a-desc|{a}, b-desc, scale-d,
//                                                            imm-scale-a, imm-scale-b
//   wgmma.mma_async.sync.aligned.m64nNk32.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}   (likewise)
//   wgmma.mma_async.sync.aligned.m64nNk32{.satfinite}.s32.{s8,u8}.{s8,u8}
//                                                            d, a-desc|{a}, b-desc, scale-d
//   wgmma.mma_async.sp.sync.aligned.<shape with twice the K>.<the types above>
//                                        d, a-desc|{a}, b-desc, sp-meta, sp-sel, scale-d, ...
//   wgmma.fence.sync.aligned;  wgmma.commit_group.sync.aligned;  wgmma.wait_group.sync.aligned N;
// N is 8..256 in steps of 8 (the integer forms: 8, 16, 24, then steps of 16). D = A * B + D
// (scale-d false: A * B), A 64 x K, B K x N, D 64 x N over the 128 threads of a warpgroup;
// imm-scale-a/b = -1 negate A/B; imm-trans = 1 reads the operand MN-major (f16/bf16 only).
//
// Each warp of the warpgroup computes its own 16 rows of D (rows 16 r .. 16 r + 15 for the
// warp of rank r), which is all the instruction's register fragments give it: A's rows from its
// registers or the descriptor, all of B from shared memory (wgmma_layout.h), D in the fragment
// layout of the manual ("Register Fragments": thread (g = lane / 4, t = lane % 4) of warp r
// holds D[16 r + g + 8 ((i / 2) % 2)][8 (i / 4) + 2 t + i % 2] as element i; A's registers are
// mma.m16n8k16/k8/k32's A fragment of the warp's 16 rows). The result lands in the registers at
// the wgmma.wait_group that completes it (wgmma_state.h).
//
// Numerics: the narrow floating-point forms go through mmaDot, the tensor-core summation fitted
// to mma.sync on the H200 (mma_accumulate.h): the assumption is that wgmma uses the same adder
// for f16, bf16 and tf32 (one step over the K = 16 or 8 products; measured on the chip). fp8
// is narrower (kFp8Adder, measured): one step over its 32 products, 14 bits kept after
// alignment, an f32 result of 14 significant bits. Integer forms are exact (wrapping, or
// clamped with .satfinite).
//
// The sparse forms (.sp: A 2:4 sparse, tf32 1:2) read A's K/2 stored elements where the dense
// form reads its A (the same layouts and fragments), B K deep, and the metadata of each warp's
// 16 rows as mma.sp's (the manual's wgmma.sp metadata figures are mma.sp's m16n8k32 / m16n8k64
// ones: mma_sparse.h, sparseColumns); each D element is sparseDot over the K/2 selected
// products with the dense form's adder (kSparseGrouping decides the grouping).
#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/matrix_elements.h"
#include "isa/insns/mma_accumulate.h"
#include "isa/insns/mma_sparse.h"
#include "isa/insns/wgmma_layout.h"
#include "isa/insns/wgmma_state.h"

namespace warpsim::isa::insns {
namespace {

enum class Kind : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, U8 };

// Inst::flags
enum : uint32_t {
  kNShift = 0,        // N in bits 0..8
  kAKindShift = 9,    // Kind of A, bits 9..11
  kBKindShift = 12,   // Kind of B, bits 12..14
  kDF16 = 1u << 15,   // D (and C) f16x2
  kDS32 = 1u << 16,   // D s32
  kADesc = 1u << 17,  // A from a descriptor
  kSatFinite = 1u << 18,
  kHasTrans = 1u << 19,  // imm-trans operands present
  kSparse = 1u << 20,    // wgmma.mma_async.sp: A 2:4 (tf32 1:2) sparse, B of twice the K
};

unsigned kOf(Kind k) {
  switch (k) {
    case Kind::F16:
    case Kind::BF16:
      return 16;
    case Kind::TF32:
      return 8;
    default:
      return 32;
  }
}

unsigned bytesOf(Kind k) {
  switch (k) {
    case Kind::F16:
    case Kind::BF16:
      return 2;
    case Kind::TF32:
      return 4;
    default:
      return 1;
  }
}

fp::Format formatOf(Kind k) {
  switch (k) {
    case Kind::F16:
      return fp::kF16;
    case Kind::BF16:
      return fp::kBF16;
    case Kind::TF32:
      return fp::kTF32;
    case Kind::E4M3:
      return kE4M3;
    default:
      return kE5M2;
  }
}

// The exact value of an element's bits.
double valueOf(Kind k, uint32_t bits) {
  switch (k) {
    case Kind::F16:
      return fp::f16ToF32(uint16_t(bits));
    case Kind::BF16:
      return fp::bf16ToF32(uint16_t(bits));
    case Kind::TF32:
      return fp::f32(bits & 0xFFFFE000u);  // the f32 encoding's upper 19 bits
    case Kind::E4M3:
    case Kind::E5M2:
      return fp8Value(k == Kind::E5M2, bits);
    case Kind::S8:
      return double(int8_t(bits));
    case Kind::U8:
      return double(uint8_t(bits));
  }
  return 0;
}

// valueOf of n elements' bits, times `scale` (1 or -1: exact), with the kind chosen once for
// the loop (which is then branch-free for f16, bf16 and tf32: vectorized).
void valuesOf(Kind k, const uint32_t* bits, size_t n, double scale, double* out) {
  // In blocks of 16 (a constant trip count, which GCC's -O2 vectorizes; n is a multiple of 64).
  auto each = [&](auto value) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (unsigned j = 0; j < 16; ++j) out[i + j] = scale * value(bits[i + j]);
    for (; i < n; ++i) out[i] = scale * value(bits[i]);
  };
  switch (k) {
    case Kind::F16:
      return each([](uint32_t b) { return f16Exact(uint16_t(b)); });
    case Kind::BF16:
      return each([](uint32_t b) { return double(fp::bf16ToF32(uint16_t(b))); });
    case Kind::TF32:
      return each([](uint32_t b) { return double(fp::f32(b & 0xFFFFE000u)); });
    default:
      return each([k](uint32_t b) { return valueOf(k, b); });
  }
}

// Where element i of a thread's A register fragment sits in the warp's 16 rows (the mma.sync
// A fragments of m16n8k16, m16n8k8 tf32 and m16n8k32).
std::pair<unsigned, unsigned> aFragment(Kind k, unsigned i, unsigned g, unsigned t) {
  switch (kOf(k)) {
    case 16:
      return {g + ((i >> 1) & 1) * 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
    case 8:
      return {g + (i & 1) * 8, t + (i >= 2 ? 4 : 0)};
    default:
      return {g + ((i >> 2) & 1) * 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  }
}

// readOperand's units through the machine (observers and faults see each distinct unit loaded
// once, in the order the elements first name them): bytes holds the distinct units, index[i]
// the place of heads[i]'s.
void loadDistinctUnits(Exec& x, const Inst& in, const std::vector<uint32_t>& heads, uint32_t lo,
                       uint32_t hi, std::vector<uint8_t>& bytes, std::vector<uint32_t>& index) {
  // Each distinct unit's place in `units` (the order in which the elements first name them, the
  // order of the loads): a table over the units' 16-byte steps when they span little memory (an
  // operand in one CTA's shared memory does), a hash map otherwise.
  constexpr uint32_t kNone = ~0u;
  const size_t span = size_t((hi - lo) >> 4) + 1;
  const bool dense = span <= (size_t(1) << 16);
  std::vector<uint32_t> table(dense ? span : 0, kNone);
  std::unordered_map<uint32_t, uint32_t> hashed;
  auto placeOf = [&](uint32_t unit) -> uint32_t& {
    return dense ? table[(unit - lo) >> 4] : hashed.try_emplace(unit, kNone).first->second;
  };
  std::vector<uint32_t> units;
  index.assign(heads.size(), 0);
  for (size_t i = 0; i < heads.size(); ++i) {
    uint32_t& place = placeOf(heads[i]);
    if (place == kNone) {
      place = uint32_t(units.size());
      units.push_back(heads[i]);
    }
    index[i] = place;
  }
  bytes.assign(units.size() * 16, 0);
  uint64_t addrs[kWarpSize], words[kWarpSize * 4];
  for (size_t first = 0; first < units.size(); first += kWarpSize) {
    const unsigned n = unsigned(std::min<size_t>(kWarpSize, units.size() - first));
    const LaneMask mask = n == kWarpSize ? ~0u : (1u << n) - 1;
    for (unsigned l = 0; l < n; ++l) addrs[l] = units[first + l];
    // Without an observer, units all inside shared memory are copied in place (the bytes the
    // four words below hold); otherwise the machine's path (observers, faults).
    Machine::DirectRegion r;
    if (x.machine->direct(Space::Shared, mask, addrs, 16, false, r)) {
      for (unsigned l = 0; l < n; ++l)
        std::memcpy(&bytes[(first + l) * 16], r.host + (l * r.laneStride + (addrs[l] - r.origin)),
                    16);
      continue;
    }
    x.machine->load(in, Space::Shared, mask, addrs, 4, 4, words);
    for (unsigned l = 0; l < n; ++l)
      for (unsigned w = 0; w < 4; ++w)
        for (unsigned b = 0; b < 4; ++b)
          bytes[(first + l) * 16 + w * 4 + b] = uint8_t(words[l * 4 + w] >> (8 * b));
  }
}

// Reads the elements (mn, k) for mn in [mn0, mn0 + rows) of a shared-memory operand: its
// 16-byte units, each loaded once through the machine (so faults and observers see them).
// A unit holds one run of 16 / e elements along the contiguous dimension (k of a K-major
// operand, mn of an MN-major one) from a multiple of 16 / e, its first at byte 0: start, LBO
// and SBO are multiples of 16, mn0 of 16, K * e is 32, and the swizzle moves whole units. So
// only each run's first element (its head) is located. K is the operand's depth: the shape's,
// or, for a sparse wgmma's B, twice its A's.
// An MN-major operand's eight units of eight 16-bit elements (units[k]: rows 0-7 at that k)
// as eight rows of eight k: out[j * K + k] = element j of units[k], widened. An 8 x 8
// transpose in three rounds of shuffles where element by element took a multiply and a store
// each (a twentieth of hgemm_wgmma's time).
inline void transposeHalves(const uint8_t* const* units, uint32_t* out, unsigned K) {
  using H8 = uint16_t __attribute__((vector_size(16)));
  using W8 = uint32_t __attribute__((vector_size(32)));
  H8 u[8], a[8], b[8];
  for (unsigned i = 0; i < 8; ++i) std::memcpy(&u[i], units[i], sizeof u[i]);
  // a[2i], a[2i + 1]: units 2i and 2i + 1 interleaved, elements 0-3 and 4-7.
  for (unsigned i = 0; i < 8; i += 2) {
    a[i] = __builtin_shufflevector(u[i], u[i + 1], 0, 8, 1, 9, 2, 10, 3, 11);
    a[i + 1] = __builtin_shufflevector(u[i], u[i + 1], 4, 12, 5, 13, 6, 14, 7, 15);
  }
  // b[4q + h]: units 4q .. 4q + 3 at elements 2h, 2h + 1 (h < 4: elements 0-7 by pairs).
  for (unsigned q = 0; q < 2; ++q)
    for (unsigned half = 0; half < 2; ++half) {
      const H8 &x = a[4 * q + half], &y = a[4 * q + 2 + half];
      b[4 * q + 2 * half] = __builtin_shufflevector(x, y, 0, 1, 8, 9, 2, 3, 10, 11);
      b[4 * q + 2 * half + 1] = __builtin_shufflevector(x, y, 4, 5, 12, 13, 6, 7, 14, 15);
    }
  // Row j: element j of units 0-3 (b[j / 2], its half j % 2) then of units 4-7 (b[4 + j / 2]).
  for (unsigned j = 0; j < 8; ++j) {
    const H8 &x = b[j / 2], &y = b[4 + j / 2];
    const H8 row = j % 2 ? __builtin_shufflevector(x, y, 4, 5, 6, 7, 12, 13, 14, 15)
                         : __builtin_shufflevector(x, y, 0, 1, 2, 3, 8, 9, 10, 11);
    const W8 wide = __builtin_convertvector(row, W8);
    std::memcpy(out + size_t(j) * K, &wide, sizeof wide);
  }
}

// heads, bytes and index are the warp's scratch (wgmma_state.h), out one of its operands. With
// kByN, an MN-major 16-bit operand is written there instead, as its bits K x rows (k-major:
// row k holds every row's element k side by side), each unit's eight rows copied as they lie,
// and out is left alone (mmaGridDotsF16 reads B so).
void readOperand(Exec& x, const Inst& in, const wgmma::Descriptor& d, bool mnMajor, Kind kind,
                 unsigned K, unsigned mn0, unsigned rows, WgmmaScratch& s, uint32_t* out,
                 uint16_t* kByN = nullptr) {
  const unsigned e = bytesOf(kind), run = 16 / e;
  // The heads in element order (row by row): every run-th row, or every run-th k.
  const unsigned rStep = mnMajor ? run : 1, kStep = mnMajor ? 1 : run;
  std::vector<uint32_t>& heads = s.heads;  // the heads' units
  heads.clear();
  heads.reserve(size_t(rows) * K / run + 1);
  uint32_t lo = ~0u, hi = 0;
  // elementAddress with the swizzle and the layout constants of the loop (a local copy of the
  // descriptor whose swizzle the compiler then knows), so its switches leave the loop.
  auto locate = [&]<wgmma::Swizzle S, bool MN>() {
    wgmma::Descriptor dc = d;
    dc.swizzle = S;
    for (unsigned r = 0; r < rows; r += rStep)
      for (unsigned k = 0; k < K; k += kStep) {
        const wgmma::UnitAddress a = wgmma::elementAddress(dc, MN, e, mn0 + r, k);
        assert(a.within == 0);
        heads.push_back(a.unit);
        lo = std::min(lo, a.unit);
        hi = std::max(hi, a.unit);
      }
  };
  auto bySwizzle = [&]<bool MN>() {
    switch (d.swizzle) {
      case wgmma::Swizzle::None:
        return locate.template operator()<wgmma::Swizzle::None, MN>();
      case wgmma::Swizzle::B128:
        return locate.template operator()<wgmma::Swizzle::B128, MN>();
      case wgmma::Swizzle::B64:
        return locate.template operator()<wgmma::Swizzle::B64, MN>();
      case wgmma::Swizzle::B32:
        return locate.template operator()<wgmma::Swizzle::B32, MN>();
    }
  };
  if (mnMajor)
    bySwizzle.template operator()<true>();
  else
    bySwizzle.template operator()<false>();
  // Unobserved, with the lowest and the highest unit inside shared memory (so every unit is:
  // the CTA's shared memory is one region), the common case: each head's unit is read in
  // place, in element order, so no unit table is built and nothing is copied (a unit two heads
  // name is read twice, which nothing sees). Otherwise each distinct unit is loaded once.
  std::vector<uint8_t>& bytes = s.bytes;
  std::vector<uint32_t>& index = s.index;
  Machine::DirectRegion shared;
  const uint64_t ends[2] = {lo, hi};
  const bool inPlace = !heads.empty() &&
                       x.machine->direct(Space::Shared, 0b11, ends, 16, false, shared) &&
                       !shared.laneStride;
  if (!inPlace) loadDistinctUnits(x, in, heads, lo, hi, bytes, index);
  // out (rows x K) is written whole below: every run of every row.
  // Each run's elements from its unit, little-endian, with e a constant in each loop (1, 2, 4)
  // and the layout's order chosen once: a K-major run is 16 / e neighbours of one row (a copy
  // that widens, vectorized), an MN-major one a column's worth of rows.
  auto gather = [&]<class U>(U) {
    constexpr unsigned kRun = 16 / sizeof(U);
    const uint32_t* head = heads.data();
    auto unitOf = [&](size_t h) {
      return inPlace ? shared.host + (head[h] - shared.origin) : &bytes[size_t(index[h]) * 16];
    };
    uint32_t* o = out;
    size_t h = 0;
    if (!mnMajor) {
      for (unsigned r = 0; r < rows; ++r)
        for (unsigned k = 0; k < K; k += kRun, ++h) {
          U v[kRun];
          std::memcpy(v, unitOf(h), 16);
          for (unsigned j = 0; j < kRun; ++j) o[size_t(r) * K + k + j] = v[j];
        }
      return;
    }
    if constexpr (sizeof(U) == 2)
      if (kByN) {
        for (unsigned r = 0; r < rows; r += kRun)
          for (unsigned k = 0; k < K; ++k, ++h)
            std::memcpy(kByN + size_t(k) * rows + r, unitOf(h),
                        std::min(kRun, rows - r) * sizeof(U));
        return;
      }
    for (unsigned r = 0; r < rows; r += kRun) {
      unsigned k = 0;
      if constexpr (sizeof(U) == 2)
        if (rows - r >= kRun)  // eight rows of eight k at a time
          for (; k + kRun <= K; k += kRun, h += kRun) {
            const uint8_t* units[kRun];
            for (unsigned i = 0; i < kRun; ++i) units[i] = unitOf(h + i);
            transposeHalves(units, o + size_t(r) * K + k, K);
          }
      for (; k < K; ++k, ++h) {
        const uint8_t* unit = unitOf(h);
        const unsigned n = std::min(kRun, rows - r);
        for (unsigned j = 0; j < n; ++j) {
          U v;
          std::memcpy(&v, unit + j * sizeof(U), sizeof v);
          o[size_t(r + j) * K + k] = v;
        }
      }
    }
  };
  if (e == 1)
    gather(uint8_t{});
  else if (e == 2)
    gather(uint16_t{});
  else
    gather(uint32_t{});
}

// Calls f(i, lane, cell) for every element i of every lane's D (C) fragment and its cell in the
// warp's 16 x N grid (row * N + column): element i = 4q + 2h + b of lane 4g + t is row g + 8h,
// column 8q + 2t + b. The cells come in order (the loops over t and b unrolled: eight
// neighbouring cells, each a constant offset), so that moving C and D is a load and a store
// an element.
template <class F>
void eachCell(unsigned N, F f) {
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned g = 0; g < 8; ++g)
      for (unsigned q = 0; q < N / 8; ++q)
#pragma GCC unroll 4
        for (unsigned t = 0; t < 4; ++t)
#pragma GCC unroll 2
          for (unsigned b = 0; b < 2; ++b)
            f(4 * q + 2 * h + b, 4 * g + t, (g + 8 * h) * N + 8 * q + 2 * t + b);
}

// eachCell's moves for 32-bit accumulators (element i of a lane is register i), eight cells at
// a time: cells 8q .. 8q + 7 of row g + 8h are lanes 4g .. 4g + 3 of registers 4q + 2h and
// 4q + 2h + 1 interleaved (cell 2t + b is register 4q + 2h + b's lane 4g + t), two host vectors
// of four lanes each way, where a cell at a time was a fifth of the instruction's own time.
using Lanes4 = uint64_t __attribute__((vector_size(32)));

// grid[cell] = regs[i][lane] & mask.
void cellsFromRegisters(unsigned N, const uint64_t* const* regs, uint64_t mask, uint64_t* grid) {
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned g = 0; g < 8; ++g)
      for (unsigned q = 0; q < N / 8; ++q) {
        Lanes4 r0, r1;
        std::memcpy(&r0, regs[4 * q + 2 * h] + 4 * g, sizeof r0);
        std::memcpy(&r1, regs[4 * q + 2 * h + 1] + 4 * g, sizeof r1);
        r0 &= mask;
        r1 &= mask;
        const Lanes4 lo = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
        const Lanes4 hi = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
        uint64_t* cells = grid + (g + 8 * h) * N + 8 * q;
        std::memcpy(cells, &lo, sizeof lo);
        std::memcpy(cells + 4, &hi, sizeof hi);
      }
}

// regs[i][lane] = grid[cell].
void registersFromCells(unsigned N, const uint64_t* grid, std::array<uint64_t, kWarpSize>* regs) {
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned g = 0; g < 8; ++g)
      for (unsigned q = 0; q < N / 8; ++q) {
        Lanes4 lo, hi;
        const uint64_t* cells = grid + (g + 8 * h) * N + 8 * q;
        std::memcpy(&lo, cells, sizeof lo);
        std::memcpy(&hi, cells + 4, sizeof hi);
        const Lanes4 r0 = __builtin_shufflevector(lo, hi, 0, 2, 4, 6);
        const Lanes4 r1 = __builtin_shufflevector(lo, hi, 1, 3, 5, 7);
        std::memcpy(regs[4 * q + 2 * h].data() + 4 * g, &r0, sizeof r0);
        std::memcpy(regs[4 * q + 2 * h + 1].data() + 4 * g, &r1, sizeof r1);
      }
}

// The register holding vector element i of an operand.
const uint64_t* vecReg(const Exec& x, const Opnd& o, unsigned i) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[i] : o);
}

// The f16 elements' bits (the low half of each element's), the sign flipped for a scale of -1,
// into `halves` (the warp's scratch), written whole: eight elements to a host vector (at -O2
// GCC leaves a loop of unknown trip count scalar, four instructions an element).
const uint16_t* halvesOf(const uint32_t* bits, size_t n, double scale,
                         ScratchArray<uint16_t>& halves) {
  using W8 = uint32_t __attribute__((vector_size(32)));
  using H8 = uint16_t __attribute__((vector_size(16)));
  const uint32_t sign = scale < 0 ? 0x8000 : 0;
  uint16_t* to = halves.of(n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    W8 w;
    std::memcpy(&w, bits + i, sizeof w);
    const H8 h = __builtin_convertvector(w ^ sign, H8);
    std::memcpy(to + i, &h, sizeof h);
  }
  for (; i < n; ++i) to[i] = uint16_t(bits[i] ^ sign);
  return to;
}

void mmaAsyncH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  WgmmaQueue& q = x.machine->wgmmaQueue(in);
  const uint32_t f = in.flags;
  const unsigned N = (f >> kNShift) & 0x1FF;
  const Kind ak = Kind((f >> kAKindShift) & 7), bk = Kind((f >> kBKindShift) & 7);
  // K: A's depth (a sparse A's stored elements); KB: B's (a sparse form's K, twice A's).
  const unsigned K = kOf(ak);
  const bool sparse = f & kSparse;
  const unsigned KB = sparse ? 2 * K : K, sp = sparse ? 2 : 0;  // sp: the metadata, selector
  const bool isInt = ak == Kind::S8 || ak == Kind::U8;
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2];
  const bool scaleD = (predSource(x, in.ops[3 + sp]) & 1) != 0;
  double scaleA = 1, scaleB = 1;
  bool transA = false, transB = false;
  if (!isInt) {
    for (unsigned i = 4 + sp; i < 6 + sp; ++i) {
      const int64_t v = int64_t(int32_t(uint32_t(uniformValue(x, in.ops[i], x.mask))));
      if (v != 1 && v != -1) x.machine->trap(in, x.mask, "wgmma's imm-scale-a/b must be 1 or -1");
      (i == 4 + sp ? scaleA : scaleB) = double(v);
    }
    if (f & kHasTrans) {
      const size_t tb = in.ops.size() - 1;
      transB = uniformValue(x, in.ops[tb], x.mask) & 1;
      if (f & kADesc) transA = uniformValue(x, in.ops[tb - 1], x.mask) & 1;
    }
  }
  const unsigned rank = q.rank();
  // Every buffer below is the warp's (wgmma_state.h): sized here, written whole before it is
  // read.
  WgmmaScratch& s = q.scratch();
  // A: the warp's 16 rows, row-major (16 x K) as element bits.
  const size_t aSize = size_t(16) * K, bSize = size_t(N) * KB;
  uint32_t *const A = s.a.of(aSize), *const B = s.b.of(bSize);
  if (f & kADesc) {
    const wgmma::Descriptor ad = wgmma::decode(uniformValue(x, aOp, x.mask));
    readOperand(x, in, ad, transA, ak, K, 16 * rank, 16, s, A);
  } else {
    std::fill(A, A + aSize, 0u);  // the fragments name every element; zeroed all the same
    const unsigned perReg = 4 / bytesOf(ak), bits = 8 * bytesOf(ak);
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < 4 * perReg; ++i) {
        const uint64_t r = vecReg(x, aOp, i / perReg)[lane];
        const auto [row, col] = aFragment(ak, i, lane >> 2, lane & 3);
        A[row * K + col] =
            uint32_t(r >> ((i % perReg) * bits)) & (bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1);
      }
  }
  const wgmma::Descriptor bd = wgmma::decode(uniformValue(x, bOp, x.mask));
  // A dense f16 product with an MN-major B (B k x N in shared memory, as a row-major matrix
  // is): B's bits kept k-major as its units hold them, for mmaGridDotsF16, where B[n * K + k]
  // is transposed here and back again in the grid (mmaGridDots' column groups).
  const bool f16Rows = ak == Kind::F16 && bk == Kind::F16 && !sparse && transB && N % 8 == 0;
  uint16_t* const bRows = f16Rows ? s.bRows.of(bSize) : nullptr;
  readOperand(x, in, bd, transB, bk, KB, 0, N, s, B, bRows);  // B[n * KB + k], or bRows
  if (f16Rows && scaleB < 0)  // imm-scale-b of -1: negated exactly, the sign bit flipped
    for (size_t i = 0; i < bSize; ++i) bRows[i] ^= 0x8000;
  // Sparse: the expanded column of each stored element of the warp's rows (mma_sparse.h).
  std::array<std::array<uint8_t, 32>, 16> columns;
  if (sparse) {
    const unsigned bits = 8 * bytesOf(ak);
    const unsigned sel = unsigned(uniformValue(x, in.ops[4], x.mask));
    if (sel >= sparseSelectors(bits, KB))
      x.machine->trap(in, x.mask, "sparsity selector out of range");
    for (unsigned r = 0; r < 16; ++r)
      sparseColumns(bits, KB, x.reg(in.ops[3]), sel, r, columns[r].data());
  }

  // D's registers: element i of lane (g, t) is (g + 8 ((i / 2) % 2), 8 (i / 4) + 2 t + i % 2).
  const bool dHalf = f & kDF16;
  const unsigned dRegs = dHalf ? N / 4 : N / 2;
  WgmmaQueue::Pending p = q.spare();
  p.inst = &in;
  p.slots.resize(dRegs);
  p.values.resize(dRegs);  // every lane of each written below
  for (unsigned j = 0; j < dRegs; ++j) p.slots[j] = dOp.elems[j].slot;
  std::vector<const std::array<uint64_t, kWarpSize>*>& pending = s.inFlight;
  q.latest(p.slots, pending);
  std::vector<const uint64_t*>& cur = s.cRegs;
  cur.resize(dRegs);
  for (unsigned j = 0; j < dRegs; ++j)
    cur[j] = pending[j] ? pending[j]->data() : x.reg(dOp.elems[j]);
  // Every element's value, decoded once (each is used by N columns or 16 rows): A's rows and B's
  // columns are K contiguous values, what mmaDot reads (imm-scale-a/b: 1 for the integer forms).
  double *const av = s.av.of(aSize), *const bv = s.bv.of(bSize);
  const fp::Format af = formatOf(ak), bf = formatOf(bk);
  const bool fp8 = ak == Kind::E4M3 || ak == Kind::E5M2;
  // The rows and columns prepared once for mmaDot (each meets N columns or 16 rows).
  int32_t *ae = nullptr, *be = nullptr;
  float *an = nullptr, *bn = nullptr;
  MmaVector *rows = nullptr, *cols = nullptr;
  if (!isInt && !sparse) {
    ae = s.ae.of(aSize);
    be = s.be.of(bSize);
    an = s.an.of(aSize);
    bn = s.bn.of(bSize);
    rows = s.rows.of(16);
    cols = s.cols.of(N);
  }
  if (f16Rows) {
    // mmaGridDotsF16 below decodes A's halves and B's rows itself.
  } else if (!isInt && !sparse && ak == Kind::F16 && bk == Kind::F16) {
    // f16: decoded from the bits with the vectors (mmaVectorsF16); imm-scale-a/b of -1 negate
    // exactly, the sign bit flipped.
    mmaVectorsF16(halvesOf(A, aSize, scaleA, s.halves), 16, K, av, ae, an, rows);
    mmaVectorsF16(halvesOf(B, bSize, scaleB, s.halves), N, K, bv, be, bn, cols);
  } else {
    valuesOf(ak, A, aSize, scaleA, av);
    valuesOf(bk, B, bSize, scaleB, bv);
    if (!isInt && !sparse) {
      mmaVectors(av, K, 16, K, af, ae, an, rows);
      mmaVectors(bv, K, N, K, bf, be, bn, cols);
    }
  }
  const fp::Format accF = dHalf ? fp::kF16 : fp::kF32;
  // Element i of every lane (N / 2 of them a lane) reads C's register i (f16: i / 2, its half
  // i % 2); its cell in the grid is eachCell's.
  const uint64_t cMask = !scaleD ? 0 : dHalf ? 0xFFFF : 0xFFFFFFFF;
  const uint64_t* const* const cRegs = cur.data();
  auto cOf = [&](unsigned i, unsigned lane) {
    return dHalf ? (cRegs[i / 2][lane] >> 16 * (i & 1)) & cMask : cRegs[i][lane] & cMask;
  };
  std::array<uint64_t, kWarpSize>* const out = p.values.data();
  if (!sparse && !isInt) {
    // The warp's 16 x N grid of dots at once (mmaGridDots: each element of every lane is one
    // cell), C moved from the registers into the cells and D from the cells into the result's
    // registers (through arrays by element and lane, the moves were a tenth of the
    // instruction).
    uint64_t *const cg = s.cGrid.of(size_t(16) * N), *const dg = s.dGrid.of(size_t(16) * N);
    if (dHalf)
      eachCell(N, [&](unsigned i, unsigned lane, unsigned cell) { cg[cell] = cOf(i, lane); });
    else
      cellsFromRegisters(N, cRegs, cMask, cg);
    if (f16Rows)
      mmaGridDotsF16(halvesOf(A, aSize, scaleA, s.halves), 16, bRows, N, K, kMmaAdder, accF, accF,
                     cg, dg);
    else
      mmaGridDots(rows, 16, cols, N, K, fp8 ? kFp8Adder : kMmaAdder, accF, accF, cg, dg);
    if (dHalf)  // elements 2j and 2j + 1 of a lane are neighbouring cells, register j's halves
      eachCell(N, [&](unsigned i, unsigned lane, unsigned cell) {
        if (i % 2 == 0) out[i / 2][lane] = dg[cell] | dg[cell + 1] << 16;
      });
    else
      registersFromCells(N, dg, out);
    q.issue(std::move(p));
    return;
  }
  // The sparse and integer forms: D's elements by element and lane, computed, then packed.
  const unsigned elems = N / 2;
  uint64_t* const cBits = s.cBits.of(size_t(elems) * kWarpSize);
  for (unsigned i = 0; i < elems; ++i)
    for (unsigned lane = 0; lane < kWarpSize; ++lane) cBits[i * kWarpSize + lane] = cOf(i, lane);
  uint64_t* const dBits = s.dBits.of(size_t(elems) * kWarpSize);
  if (sparse) {
    // Each stored element meets the B element its metadata names; the K/2 products summed by
    // sparseDot (the dense wgmma's adder; blocks of the dense K for DenseBlocks), integers
    // exactly.
    eachCell(N, [&](unsigned i, unsigned lane, unsigned cell) {
      const unsigned row = cell / N, col = cell % N;
      const uint64_t c = cBits[i * kWarpSize + lane];
      double b[32];
      for (unsigned k = 0; k < K; ++k) b[k] = bv[col * KB + columns[row][k]];
      if (isInt) {
        int64_t s = int64_t(int32_t(uint32_t(c)));
        for (unsigned k = 0; k < K; ++k) s += int64_t(av[row * K + k]) * int64_t(b[k]);
        if (f & kSatFinite) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
        dBits[i * kWarpSize + lane] = uint32_t(s);
      } else {
        dBits[i * kWarpSize + lane] =
            sparseDot(&av[row * K], b, K, K / 2, af, bf, fp8 ? kFp8Adder : kMmaAdder, c, accF, accF,
                      kSparseGrouping);
      }
    });
  } else {
    eachCell(N, [&](unsigned i, unsigned lane, unsigned cell) {
      const unsigned row = cell / N, col = cell % N;
      int64_t s = int64_t(int32_t(uint32_t(cBits[i * kWarpSize + lane])));
      for (unsigned k = 0; k < K; ++k) s += int64_t(av[row * K + k]) * int64_t(bv[col * K + k]);
      if (f & kSatFinite) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
      dBits[i * kWarpSize + lane] = uint32_t(s);
    });
  }
  for (unsigned j = 0; j < dRegs; ++j) {
    const uint64_t* lo = &dBits[(dHalf ? 2 * j : j) * kWarpSize];
    if (dHalf)
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        out[j][lane] = lo[lane] | lo[kWarpSize + lane] << 16;
    else
      std::copy(lo, lo + kWarpSize, out[j].begin());
  }
  q.issue(std::move(p));
}

void fenceH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  x.machine->wgmmaQueue(in);  // the warpgroup check
  x.machine->fence(in, x.mask);
}

void commitH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  x.machine->wgmmaQueue(in).commit();
}

void waitH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const uint32_t keep = uint32_t(uniformValue(x, in.ops[0], x.mask));
  x.machine->wgmmaQueue(in).complete(keep, [&](const WgmmaQueue::Pending& p) {
    for (size_t j = 0; j < p.slots.size(); ++j)
      std::copy(p.values[j].begin(), p.values[j].end(), x.reg(p.slots[j]));
  });
}

bool kindOf(Type t, Kind& k) {
  switch (t) {
    case Type::F16:
      k = Kind::F16;
      return true;
    case Type::BF16:
      k = Kind::BF16;
      return true;
    case Type::TF32:
      k = Kind::TF32;
      return true;
    case Type::E4M3:
      k = Kind::E4M3;
      return true;
    case Type::E5M2:
      k = Kind::E5M2;
      return true;
    case Type::S8:
      k = Kind::S8;
      return true;
    case Type::U8:
      k = Kind::U8;
      return true;
    default:
      return false;
  }
}

bool isImmediate(const Opnd& o) { return o.kind == OpndKind::Reg && !o.declared; }

std::string bindMmaAsync(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  const bool sparse = m.has("sp");
  // The shape word m64nNkK.
  unsigned n = 0, kShape = 0;
  bool shape = false;
  for (const std::string& w : m.words) {
    unsigned mm = 0, nn = 0, kk = 0;
    char tail = 0;
    if (std::sscanf(w.c_str(), "m%un%uk%u%c", &mm, &nn, &kk, &tail) == 3) {
      if (mm != 64) return msg(in, "has M = 64 in every shape");
      n = nn, kShape = kk, shape = true;
    }
  }
  if (!shape) return msg(in, "needs a shape .m64nNkK");
  if (m.types.size() != 3) return msg(in, "takes three types: .dtype.atype.btype");
  const Type d = m.types[0];
  Kind ak, bk;
  if (!kindOf(m.types[1], ak) || !kindOf(m.types[2], bk))
    return msg(in, "has an A or B type it does not take");
  const bool isInt = ak == Kind::S8 || ak == Kind::U8;
  const bool fp8 = ak == Kind::E4M3 || ak == Kind::E5M2;
  const bool bInt = bk == Kind::S8 || bk == Kind::U8;
  const bool bFp8 = bk == Kind::E4M3 || bk == Kind::E5M2;
  if (isInt != bInt || fp8 != bFp8 || (!isInt && !fp8 && ak != bk))
    return msg(in, "needs A and B of one type (or both fp8, or both 8-bit integers)");
  const unsigned kWant = sparse ? 2 * kOf(ak) : kOf(ak);
  if (kShape != kWant)
    return msg(in, "has K = " + std::to_string(kWant) + " for its types (.m64nNk" +
                       std::to_string(kWant) + ")");
  const bool nOk = isInt ? (n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0))
                         : (n >= 8 && n <= 256 && n % 8 == 0);
  if (!nOk) return msg(in, "has an N it does not take (" + std::to_string(n) + ")");
  if (isInt) {
    if (d != Type::S32) return msg(in, "accumulates 8-bit integers into .s32");
  } else if (d == Type::F16) {
    if (ak == Kind::BF16 || ak == Kind::TF32) return msg(in, "accumulates this type into .f32");
  } else if (d != Type::F32) {
    return msg(in, "accumulates into .f32 or .f16");
  }
  if (m.has("satfinite") && !isInt) return msg(in, "takes .satfinite only for integer types");
  uint32_t flags = n << kNShift | uint32_t(ak) << kAKindShift | uint32_t(bk) << kBKindShift;
  if (d == Type::F16) flags |= kDF16;
  if (d == Type::S32) flags |= kDS32;
  if (m.has("satfinite")) flags |= kSatFinite;
  if (sparse) flags |= kSparse;
  const size_t sp = sparse ? 2 : 0;  // the metadata and the selector, after B
  if (in.ops.size() < 4 + sp) return msg(in, "has too few operands");
  const Opnd& a = in.ops[1];
  const bool aDesc = a.kind == OpndKind::Reg;
  if (aDesc) flags |= kADesc;
  const bool trans = ak == Kind::F16 || ak == Kind::BF16;
  size_t ops = (isInt ? 4 : 6) + sp;
  if (trans) ops += aDesc ? 2 : 1, flags |= kHasTrans;
  if (in.ops.size() != ops)
    return msg(in, "takes " + std::to_string(ops) + " operands in this form");
  const unsigned dRegs = d == Type::F16 ? n / 4 : n / 2;
  const Opnd& dOp = in.ops[0];
  if (dOp.kind != OpndKind::Vec || dOp.elems.size() != dRegs)
    return msg(in, "writes a vector of " + std::to_string(dRegs) + " registers");
  for (const Opnd& e : dOp.elems)
    if (e.kind != OpndKind::Reg || !e.declared) return msg(in, "writes registers only");
  if (!aDesc) {
    if (a.kind != OpndKind::Vec || a.elems.size() != 4)
      return msg(in, "takes A as a 64-bit descriptor or a vector of 4 registers");
    for (const Opnd& e : a.elems)
      if (e.kind != OpndKind::Reg) return msg(in, "takes A's fragment in registers");
  }
  if (in.ops[2].kind != OpndKind::Reg) return msg(in, "takes B as a 64-bit descriptor");
  if (sparse) {
    if (in.ops[3].kind != OpndKind::Reg || !in.ops[3].declared)
      return msg(in, "takes the sparsity metadata (operand 4) in a register");
    if (!isImmediate(in.ops[4])) return msg(in, "takes the sparsity selector as an immediate");
  }
  if (in.ops[3 + sp].kind != OpndKind::Pred && !isImmediate(in.ops[3 + sp]))
    return msg(in, "takes scale-d as a predicate");
  for (size_t i = 4 + sp; i < ops; ++i)
    if (!isImmediate(in.ops[i]))
      return msg(in, "takes imm-scale-a/b and imm-trans-a/b as immediates");
  in.flags = flags;
  in.cls = InsnClass::Tensor;
  in.run = mmaAsyncH;
  return "";
}

std::string bindWgmma(Inst& in) {
  const Mods& m = in.mods;
  if (m.has("mma_async")) return bindMmaAsync(in);
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  in.cls = InsnClass::Misc;
  if (m.has("fence")) {
    in.run = fenceH;
    return in.ops.empty() ? "" : msg(in, "takes no operands");
  }
  if (m.has("commit_group")) {
    in.sync = SyncRole::TensorCommit;
    in.run = commitH;
    return in.ops.empty() ? "" : msg(in, "takes no operands");
  }
  if (m.has("wait_group")) {
    in.sync = SyncRole::TensorWait;
    in.run = waitH;
    if (in.ops.size() != 1 || !isImmediate(in.ops[0]))
      return msg(in, "takes one immediate operand");
    return "";
  }
  return msg(in, "is one of wgmma.mma_async, .fence, .commit_group, .wait_group");
}

}  // namespace

std::vector<OpcodeSpec> wgmmaFamily() {
  // Role::Compute: wgmma.mma_async writes its first operand (the accumulator vector, which it
  // also reads); fence, commit_group and wait_group write none (wait_group's immediate is no
  // register).
  return {
      {"wgmma",
       "wgmma",
       InsnClass::Tensor,
       Role::Compute,
       Operation::Other,
       {Type::F32, Type::F16, Type::BF16, Type::TF32, Type::E4M3, Type::E5M2, Type::S32, Type::S8,
        Type::U8},
       {"*"},
       bindWgmma},
      // The untyped forms: fence, commit_group, wait_group.
      {"wgmma", "wgmma", InsnClass::Misc, Role::Compute, Operation::Other, {}, {"*"}, bindWgmma}};
}

}  // namespace warpsim::isa::insns
