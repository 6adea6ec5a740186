// mma.sp / mma.sp::ordered_metadata (isa/insns/mma_sparse.cpp): every sm_90 form run through
// the simulator against a CPU product of the expanded A, written out here from the PTX ISA's
// sparse fragment and metadata figures apart from mma_sparse.cpp: a RapidCheck property over
// random stored elements, metadata and selector with exact small values (where no grouping of
// the sums can matter), the sparse f16 form against the dense one with the pruned elements
// zero, the two groupings of sparseDot on a hand-worked case, fp8's two steps, and the binder's
// errors.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/fp.h"
#include "isa/insns/mma_sparse.h"
#include "tests/support/mma_program.h"
#include "tests/support/ptx_runner.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

using test::expectMmaLoadError;
using test::mmaProgram;
using test::PtxRunner;

enum class Kind { F16, BF16, TF32, Fp8, Int8, Int4 };

// Where the manual puts stored element i of a lane's A fragment: its row, its chunk of the row
// and its place among the chunk's stored elements.
struct Stored {
  unsigned row, chunk, index;
};

struct SpForm {
  std::string text;
  Kind kind;
  unsigned k, aRegs, bRegs, selectors;
  bool aSigned = true, bSigned = true;
  bool f16Acc = false;
};

unsigned bitsOf(Kind k) {
  return k == Kind::TF32 ? 32 : k == Kind::F16 || k == Kind::BF16 ? 16 : k == Kind::Int4 ? 4 : 8;
}
unsigned chunkWidth(Kind k) { return k == Kind::TF32 ? 2 : k == Kind::Int4 ? 8 : 4; }

// The manual's A layouts ("row = groupID for ..., col = [firstcol ... lastcol]").
Stored aPlace(const SpForm& f, unsigned i, unsigned g, unsigned t) {
  switch (f.kind) {
    case Kind::F16:
    case Kind::BF16:
      if (f.k == 16) return {g + (i >= 2 ? 8 : 0), t, i & 1};  // a0 a1 row g, a2 a3 row g+8
      // k32: row g for i < 2 or 4 <= i < 6; chunk t (cols 4t..) for i < 4, t + 4 after.
      return {g + ((i / 2) % 2) * 8, t + (i >= 4 ? 4 : 0), i & 1};
    case Kind::TF32:
      if (f.k == 8) return {g + i * 8, t, 0};
      return {g + (i % 2) * 8, t + (i >= 2 ? 4 : 0), 0};  // a0 a2 row g; a2 a3 cols 2t + 8
    case Kind::Int8:
    case Kind::Fp8: {
      // Four stored elements of 8 columns (two chunks) a register: cols 8t (+32 for i >= 8).
      const unsigned reg = i / 4, e = i % 4;
      return {g + (reg % 2) * 8, 2 * t + e / 2 + (reg >= 2 ? 8 : 0), e % 2};
    }
    case Kind::Int4: {
      // Eight stored of 16 columns (two 8-wide chunks) a register: cols 16t (+64 for i >= 16).
      const unsigned reg = i / 8, e = i % 8;
      return {g + (reg % 2) * 8, 2 * t + e / 4 + (reg >= 2 ? 8 : 0), e % 4};
    }
  }
  return {};
}

// B's row (k) of element i of a lane (column g).
unsigned bRow(const SpForm& f, unsigned i, unsigned t) {
  switch (f.kind) {
    case Kind::F16:
    case Kind::BF16:
      return t * 2 + (i & 1) + 8 * (i / 2);
    case Kind::TF32:
      return t + 4 * i;
    case Kind::Int8:
    case Kind::Fp8:
      return t * 4 + i % 4 + 16 * (i / 4);
    case Kind::Int4:
      return t * 8 + i % 8 + 32 * (i / 8);
  }
  return 0;
}

// The lane and bit of a chunk's metadata nibble ("Tk: [m..n] in cell [x][y..z]").
std::pair<unsigned, unsigned> metaPlace(const SpForm& f, unsigned sel, unsigned row,
                                        unsigned chunk) {
  const unsigned chunks = f.k / chunkWidth(f.kind), threads = chunks / 4, g = row % 8;
  if (bitsOf(f.kind) >= 16)  // rows g (bits 15..0) and g + 8 (31..16), 4 chunks a thread
    return {4 * g + sel * threads + chunk / 4, 16 * (row / 8) + 4 * (chunk % 4)};
  // 8- and 4-bit: a thread a row half (g, g + 8) and 8 chunks (bits 15..0, then 31..16)
  const unsigned j = row / 8 + 2 * (chunk / 8);
  return {4 * g + sel * threads + j, 16 * ((chunk / 4) % 2) + 4 * (chunk % 4)};
}

// The expanded columns a chunk's nibble gives its stored elements.
std::vector<unsigned> columnsOf(const SpForm& f, unsigned chunk, unsigned nib) {
  const unsigned i0 = nib & 3, i1 = nib >> 2;
  switch (f.kind) {
    case Kind::TF32:
      return {2 * chunk + (nib == 0xE ? 1 : 0)};  // 0b0100: element 0; 0b1110: element 1
    case Kind::Int4:                              // pairs of elements
      return {8 * chunk + 2 * i0, 8 * chunk + 2 * i0 + 1, 8 * chunk + 2 * i1,
              8 * chunk + 2 * i1 + 1};
    default:
      return {4 * chunk + i0, 4 * chunk + i1};
  }
}

std::vector<SpForm> forms() {
  const std::string sp = "mma.sp.sync.aligned.", ord = "mma.sp::ordered_metadata.sync.aligned.";
  return {
      {ord + "m16n8k16.row.col.f32.f16.f16.f32", Kind::F16, 16, 2, 2, 4},
      {sp + "m16n8k16.row.col.f16.f16.f16.f16", Kind::F16, 16, 2, 2, 4, true, true, true},
      {ord + "m16n8k16.row.col.f32.bf16.bf16.f32", Kind::BF16, 16, 2, 2, 4},
      {sp + "m16n8k32.row.col.f32.f16.f16.f32", Kind::F16, 32, 4, 4, 2},
      {ord + "m16n8k32.row.col.f16.f16.f16.f16", Kind::F16, 32, 4, 4, 2, true, true, true},
      {sp + "m16n8k32.row.col.f32.bf16.bf16.f32", Kind::BF16, 32, 4, 4, 2},
      {ord + "m16n8k8.row.col.f32.tf32.tf32.f32", Kind::TF32, 8, 2, 2, 4},
      {sp + "m16n8k16.row.col.f32.tf32.tf32.f32", Kind::TF32, 16, 4, 4, 2},
      {ord + "m16n8k32.row.col.s32.s8.u8.s32", Kind::Int8, 32, 2, 2, 2, true, false},
      {sp + "m16n8k64.row.col.s32.u8.s8.s32", Kind::Int8, 64, 4, 4, 1, false, true},
      {ord + "m16n8k64.row.col.f32.e4m3.e5m2.f32", Kind::Fp8, 64, 4, 4, 1},
      {sp + "m16n8k64.row.col.s32.s4.s4.s32", Kind::Int4, 64, 2, 2, 2},
      {ord + "m16n8k128.row.col.s32.u4.s4.s32", Kind::Int4, 128, 4, 4, 1, false, true},
  };
}

// The f16 accumulator's encoding (encode's form for C and D of f16).
const SpForm kHalf{"", Kind::F16, 16, 0, 0, 0};

// Encodings of small integer values (|v| <= 7: exact in every type here; fp8 A e4m3, B e5m2).
uint32_t encode(const SpForm& f, bool isB, int v) {
  const double d = v;
  switch (f.kind) {
    case Kind::F16:
      return uint32_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(d), fp::Round::RN));
    case Kind::BF16:
      return uint32_t(fp::convertBits(fp::kF64, fp::kBF16, fp::bits(d), fp::Round::RN));
    case Kind::TF32:
      return fp::bits(float(d));
    case Kind::Fp8: {
      if (isB)  // e5m2: an f16's upper byte
        return uint32_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(d), fp::Round::RN)) >> 8;
      if (v == 0) return 0;
      const unsigned a = unsigned(std::abs(v));
      const int e = std::ilogb(double(a));
      return (v < 0 ? 0x80u : 0u) | uint32_t(e + 7) << 3 | ((a << (3 - e)) & 7);
    }
    default:
      return uint32_t(v) & ((1u << bitsOf(f.kind)) - 1);
  }
}

// Runs a form: A's stored values (by lane fragment element), B (k x 8), C (16 x 8), the metadata
// words of the 32 lanes and the selector; returns D (16 x 8) as values and the CPU reference.
struct FormRun {
  std::vector<double> got, want;
};
FormRun runForm(const SpForm& f, const std::vector<int>& aStored, const std::vector<int>& B,
                const std::vector<int>& C, const std::vector<uint32_t>& meta, unsigned sel) {
  const unsigned bits = bitsOf(f.kind), per = 32 / bits, nC = f.f16Acc ? 2 : 4;
  const unsigned words = f.aRegs + f.bRegs + nC + 1;
  const bool isInt = f.kind == Kind::Int8 || f.kind == Kind::Int4;
  std::vector<uint32_t> in(32 * words, 0);
  std::vector<std::vector<std::pair<unsigned, int>>> rowTerms(16);  // (column, A value)
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l / 4, t = l % 4;
    uint32_t* w = &in[l * words];
    for (unsigned i = 0; i < f.aRegs * per; ++i) {
      const int v = aStored[l * f.aRegs * per + i];
      w[i / per] |= encode(f, false, v) << (i % per * bits);
      const Stored s = aPlace(f, i, g, t);
      const auto [lane, bit] = metaPlace(f, sel, s.row, s.chunk);
      const unsigned nib = (meta[lane] >> bit) & 0xF;
      rowTerms[s.row].push_back({columnsOf(f, s.chunk, nib)[s.index], v});
    }
    for (unsigned i = 0; i < f.bRegs * per; ++i)
      w[f.aRegs + i / per] |= encode(f, true, B[bRow(f, i, t) * 8 + g]) << (i % per * bits);
    for (unsigned i = 0; i < 4; ++i) {
      const int c = C[(g + (i >= 2 ? 8 : 0)) * 8 + t * 2 + (i & 1)];
      if (isInt)
        w[f.aRegs + f.bRegs + i] = uint32_t(c);
      else if (f.f16Acc)
        w[f.aRegs + f.bRegs + i / 2] |= encode(kHalf, false, c) << (i % 2 * 16);
      else
        w[f.aRegs + f.bRegs + i] = fp::bits(float(c));
    }
    w[words - 1] = meta[l];
  }
  PtxRunner r(mmaProgram(f.text, f.aRegs, f.bRegs, nC, nC, false, int(sel)));
  const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<uint32_t>(32 * nC);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  FormRun run;
  if (res.fault) {
    ADD_FAILURE() << f.text << ": " << res.fault->message;
    return run;
  }
  const auto d = r.read<uint32_t>(out, 32 * nC);
  run.got.resize(128);
  run.want.resize(128);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned row = l / 4 + (i >= 2 ? 8 : 0), col = (l % 4) * 2 + (i & 1);
      double got;
      if (isInt)
        got = int32_t(d[l * 4 + i]);
      else if (f.f16Acc)
        got = fp::f16ToF32(uint16_t(d[l * 2 + i / 2] >> (i % 2 * 16)));
      else
        got = fp::f32(d[l * 4 + i]);
      run.got[row * 8 + col] = got;
      double want = C[row * 8 + col];
      for (const auto& [k, a] : rowTerms[row]) want += double(a) * B[k * 8 + col];
      run.want[row * 8 + col] = want;
    }
  return run;
}

// Random valid metadata nibbles for every lane (the selected lanes' and the others', which the
// instruction must ignore).
uint32_t randomMeta(const SpForm& f) {
  static constexpr std::array<uint32_t, 6> kOrdered = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
  uint32_t m = 0;
  for (unsigned n = 0; n < 8; ++n) {
    const unsigned pick = *rc::gen::inRange(0u, 6u);
    m |= (f.kind == Kind::TF32 ? (pick % 2 ? 0xEu : 0x4u) : kOrdered[pick]) << (4 * n);
  }
  return m;
}

// Every form, random stored elements, B, C, metadata and selector, small integers (every sum
// exact, so no grouping of the products can change it): D is the expanded product.
TEST(MmaSparse, RandomInputsMatchTheExpandedProduct) {
  test::checkProperty("MmaSparse.Random", 10, 100, [] {
    for (const SpForm& f : forms()) {
      const unsigned per = 32 / bitsOf(f.kind);
      const bool isInt = f.kind == Kind::Int8 || f.kind == Kind::Int4;
      // Integer fields in the type's range; float values -3..3 (fp8, tf32, bf16 exact).
      auto elem = [&](bool isSigned) {
        if (!isInt) return *rc::gen::inRange(-3, 4);
        const int bits = int(bitsOf(f.kind));
        return isSigned ? *rc::gen::inRange(-(1 << (bits - 1)), 1 << (bits - 1))
                        : *rc::gen::inRange(0, 1 << bits);
      };
      std::vector<int> A(32 * f.aRegs * per), B(f.k * 8), C(128);
      for (int& v : A) v = elem(f.aSigned);
      for (int& v : B) v = elem(f.bSigned);
      for (int& v : C) v = *rc::gen::inRange(-20, 21);
      std::vector<uint32_t> meta(32);
      for (uint32_t& m : meta) m = randomMeta(f);
      const unsigned sel = *rc::gen::inRange(0u, f.selectors);
      const FormRun run = runForm(f, A, B, C, meta, sel);
      RC_ASSERT(run.got == run.want);
    }
  });
}

// Metadata picking known columns, worked by hand: m16n8k16 f16, selector 2, the selected lanes'
// metadata 0xD8 a byte (chunk 0: 0b1000, columns 0 and 2; chunk 1: 0b1101, columns 5 and 7):
// row 0 of A stores 1, 2 in chunk 0 and 3, 4 in chunk 1; B's column 0 is k + 1:
// 1 * 1 + 2 * 3 + 3 * 6 + 4 * 8 = 57.
TEST(MmaSparse, MetadataPicksTheNamedColumns) {
  const SpForm f = forms()[0];
  std::vector<int> A(32 * 4, 0), B(16 * 8, 0), C(128, 0);
  // Lane 0 (g 0, t 0) holds row 0's chunk 0 (a0, a1); lane 1 chunk 1.
  A[0 * 4 + 0] = 1, A[0 * 4 + 1] = 2, A[1 * 4 + 0] = 3, A[1 * 4 + 1] = 4;
  for (unsigned k = 0; k < 16; ++k) B[k * 8] = int(k) + 1;
  std::vector<uint32_t> meta(32, 0x4444'4444);  // the unselected lanes: columns (0, 1)
  for (unsigned g = 0; g < 8; ++g) meta[4 * g + 2] = 0xD8D8'D8D8;
  const FormRun run = runForm(f, A, B, C, meta, 2);
  EXPECT_EQ(run.got[0], 57.0);
  EXPECT_EQ(run.got, run.want);
}

// The sparse m16n8k16 f16 form with arbitrary finite f16 values equals the dense mma.sync of
// the expanded A (the pruned elements zero): one adder pass either way, whatever the grouping.
TEST(MmaSparse, EqualsTheDenseFormWithThePrunedElementsZero) {
  test::checkProperty("MmaSparse.Dense", 10, 100, [] {
    const unsigned sel = *rc::gen::inRange(0u, 4u);
    auto finiteHalf = [] {
      const uint32_t h = *rc::gen::inRange(0u, 0x10000u);
      return (h & 0x7C00) == 0x7C00 ? h & 0x83FF : h;  // inf/NaN -> a finite one
    };
    // The sparse operands: A 2 registers, B 2, C 4 (f32), metadata.
    std::vector<uint32_t> sparseIn(32 * 9), denseIn(32 * 10);
    std::vector<std::array<uint16_t, 16>> rowA(16);
    for (auto& r : rowA) r.fill(0);
    std::vector<uint32_t> meta(32);
    for (uint32_t& m : meta) m = randomMeta(forms()[0]);
    const SpForm f = forms()[0];
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned g = l / 4, t = l % 4;
      for (unsigned i = 0; i < 4; ++i) {
        const uint32_t h = finiteHalf();
        sparseIn[l * 9 + i / 2] |= h << (i % 2 * 16);
        const Stored s = aPlace(f, i, g, t);
        const auto [lane, bit] = metaPlace(f, sel, s.row, s.chunk);
        rowA[s.row][columnsOf(f, s.chunk, (meta[lane] >> bit) & 0xF)[s.index]] = uint16_t(h);
      }
      for (unsigned w = 2; w < 8; ++w)
        sparseIn[l * 9 + w] = w < 4 ? finiteHalf() | finiteHalf() << 16
                                    : fp::bits(float(*rc::gen::inRange(-100, 100)));
      sparseIn[l * 9 + 8] = meta[l];
    }
    // The dense A fragment (m16n8k16: a_i row g (+8 for i % 4 >= 2), col 2t + i % 2 (+8 for
    // i >= 4)) from the expanded rows; B and C as they are.
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned g = l / 4, t = l % 4;
      for (unsigned i = 0; i < 8; ++i) {
        const unsigned row = g + ((i / 2) % 2) * 8, col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
        denseIn[l * 10 + i / 2] |= uint32_t(rowA[row][col]) << (i % 2 * 16);
      }
      for (unsigned w = 0; w < 6; ++w) denseIn[l * 10 + 4 + w] = sparseIn[l * 9 + 2 + w];
    }
    auto run = [](const std::string& ptx, const std::vector<uint32_t>& in) {
      PtxRunner r(ptx);
      const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<uint32_t>(32 * 4);
      r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
      return r.read<uint32_t>(out, 32 * 4);
    };
    const auto sparse = run(mmaProgram(f.text, 2, 2, 4, 4, false, int(sel)), sparseIn);
    const auto dense =
        run(mmaProgram("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, 4, false),
            denseIn);
    RC_ASSERT(sparse == dense);
  });
}

// The two groupings on one row, worked by hand (f16 elements, the 26-bit adder, an f32 result
// rounded toward zero): C = 1, the first dense block's eight products -0.75 * 2^-24, the
// second's eight 2^-26. One pass aligns all at 2^0 and keeps 26 bits (to 2^-25): each
// -1.5 * 2^-25 truncates to -2^-25 and each 2^-26 to 0: 1 - 8 * 2^-25 = 1 - 2^-22. Block by
// block, the first pass gives the same 1 - 2^-22; the second aligns at 2^-1 (the running sum
// is below 1) and keeps to 2^-26, where the eight 2^-26 add 2^-23: 1 - 2^-23.
TEST(SparseDot, TheGroupingsDifferWhereABlockBoundarySplitsTheTruncation) {
  std::array<double, 16> a, b;
  for (unsigned i = 0; i < 8; ++i) a[i] = -0.75 * 0x1p-12, b[i] = 0x1p-12;
  for (unsigned i = 8; i < 16; ++i) a[i] = 0x1p-13, b[i] = 0x1p-13;
  const uint64_t one = fp::bits(1.0f);
  const uint64_t compressed =
      isa::insns::sparseDot(a.data(), b.data(), 16, 8, fp::kF16, fp::kF16, isa::insns::kMmaAdder,
                            one, fp::kF32, fp::kF32, isa::insns::SparseGrouping::Compressed);
  const uint64_t blocks =
      isa::insns::sparseDot(a.data(), b.data(), 16, 8, fp::kF16, fp::kF16, isa::insns::kMmaAdder,
                            one, fp::kF32, fp::kF32, isa::insns::SparseGrouping::DenseBlocks);
  EXPECT_EQ(fp::f32(uint32_t(compressed)), 1 - 0x1p-22f);
  EXPECT_EQ(fp::f32(uint32_t(blocks)), 1 - 0x1p-23f);
}

// fp8 m16n8k64: ptxas's two f16 HMMA.SP over the even and the odd chunks, each rounded to f32
// toward zero. Products 1 (chunk 0) and 2^-24 twice: in chunks 0 and 2 (one step: 1 + 2^-23)
// or in chunks 0 and 1 (two steps: each dropped below 1's last bit).
TEST(MmaSparse, Fp8SumsTheEvenAndTheOddChunksInTwoSteps) {
  const SpForm f = forms()[10];  // e4m3 x e5m2
  auto run = [&](unsigned secondChunk) {
    // Lane 0 holds row 0's chunks 0 and 1 (register 0: stored elements 0, 1 of chunk 0, 2, 3
    // of chunk 1); lane 1 chunks 2 and 3. Metadata 0x4 everywhere: columns 4c, 4c + 1.
    std::vector<uint32_t> in(32 * 13, 0);
    const uint32_t one = 0x38, tiny = 0x01;  // e4m3 1 and 2^-9
    in[0 * 13 + 0] = one | tiny << 8;        // a0: column 0, a1: column 1 (chunk 0)
    if (secondChunk == 1)
      in[0 * 13 + 0] |= tiny << 16;  // a2: chunk 1, column 4
    else
      in[1 * 13 + 0] |= tiny;  // lane 1's a0: chunk 2, column 8
    // B's column 0 (lanes 0..3; rows 4t + i % 4 + 16 (i / 4)), e5m2: 1 at k 0, 2^-15 (0x02,
    // a subnormal) at k 1, 4 and 8.
    in[0 * 13 + 4] = 0x3C | 0x02 << 8;
    in[1 * 13 + 4] = 0x02;
    in[2 * 13 + 4] = 0x02;
    for (unsigned l = 0; l < 32; ++l) in[l * 13 + 12] = 0x4444'4444;
    PtxRunner r(mmaProgram(f.text, 4, 4, 4, 4, false, 0));
    const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<uint32_t>(32 * 4);
    r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    return fp::f32(r.read<uint32_t>(out, 4)[0]);
  };
  // 2^-9 * 2^-15 = 2^-24: with 1, in one step, 1 + 2 * 2^-24 = 1 + 2^-23.
  EXPECT_EQ(run(2), 1 + 0x1p-23f);
  // Chunk 1 is in the second step: 1 + 2^-24 (cut to 1) then + 2^-24 (cut again): 1.
  EXPECT_EQ(run(1), 1.0f);
}

// ---- bad input ---------------------------------------------------------------------------

void expectError(const std::string& form, unsigned nA, unsigned nB, unsigned nC,
                 const std::string& tail, const std::string& what) {
  std::string ptx = mmaProgram(form, nA, nB, nC, nC, false, 0);
  if (!tail.empty()) {  // replace ", %xM, 0;" by the given operands
    const size_t at = ptx.find(", %x" + std::to_string(nA + nB + nC) + ", 0;");
    ptx.replace(at, ptx.find(';', at) - at, tail);
  }
  // The mma's line: 16 + its loads (A, B, C and the metadata).
  expectMmaLoadError(ptx, 17 + nA + nB + nC, what);
}

TEST(MmaSparse, BadFormsAreClearErrors) {
  const std::string p = "mma.sp.sync.aligned.", o = "mma.sp::ordered_metadata.sync.aligned.";
  expectError(p + "m16n8k32.row.col.f32.e4m3.e4m3.f32", 2, 2, 4, "", "does not take .m16n8k32");
  expectError(p + "m16n8k8.row.col.f32.f16.f16.f32", 1, 1, 4, "", "does not take .m16n8k8");
  expectError(o + "m16n8k64.row.col.f16.e4m3.e4m3.f16", 4, 4, 2, "", "accumulates fp8 into .f32");
  expectError(p + "m16n8k256.row.col.s32.b1.b1.s32.and.popc", 4, 4, 4, "", "shapes");
  expectError(p + "m16n8k128.row.col.s32.b1.b1.s32.and.popc", 4, 4, 4, "", "does not take");
  expectError(p + "m16n8k16.row.col.f32.f16.f16.f16", 2, 2, 2, "", "C and D of one type");
  expectError(p + "m16n8k16.row.col.f32.bf16.bf16.f32", 2, 1, 4, "", "takes B as 2 registers");
  expectError(p + "m16n8k32.row.col.f32.f16.f16.f32", 2, 4, 4, "", "takes A as 4 registers");
  expectError(p + "m16n8k32.row.col.satfinite.f32.f16.f16.f32", 4, 4, 4, "", ".satfinite only");
  expectError(p + "m16n8k32.row.col.s32.s8.s4.s32", 2, 2, 4, "", "both 8-bit");
  expectError(p + "m16n8k16.row.col.f32.f16.f16.f32", 2, 2, 4, ", %x8, %x0",
              "sparsity selector (operand 6) as an immediate");
  expectError(p + "m16n8k16.row.col.f32.f16.f16.f32", 2, 2, 4, ", 5, 0",
              "metadata (operand 5) in a register");
}

// A selector beyond the form's range (ptxas refuses it) is a kernel fault naming it.
TEST(MmaSparse, ASelectorOutOfRangeFaults) {
  const SpForm f = forms()[3];  // m16n8k32 f16: selectors 0 and 1
  PtxRunner r(mmaProgram(f.text, 4, 4, 4, 4, false, 2));
  const uint64_t ib = r.buffer<uint32_t>(32 * 13), out = r.buffer<uint32_t>(32 * 4);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_NE(res.fault->describe("test.ptx").find("sparsity selector out of range"),
            std::string::npos)
      << res.fault->describe("test.ptx");
}

}  // namespace
}  // namespace warpsim
