// wgmma (sm_90a): the matrix descriptor and each swizzle mode against hand-computed addresses;
// whole wgmma.mma_async programs (every operand source and layout, each type family, several N)
// against a CPU product of the matrices the layouts describe (small integers: exact whatever the
// summation); the in-flight state (the result lands at wait_group, a chained wgmma sees the
// pending one); and the faults for misuse. wgmma.mma_async.sp likewise: A's stored elements
// in the dense layouts, B twice as deep, the metadata's columns by mma.sp's map
// (isa::insns::sparseColumns, checked against the manual's figures in mma_sparse_test.cpp).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>

#include "isa/fp.h"
#include "isa/insns/mma_sparse.h"
#include "isa/insns/wgmma_layout.h"
#include "kernels/random.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using isa::insns::wgmma::Descriptor;
using isa::insns::wgmma::Swizzle;
using test::PtxRunner;
namespace wg = isa::insns::wgmma;

TEST(WgmmaDescriptor, DecodesEveryFieldAndEncodesBack) {
  // start 0x1230 bytes, LBO 0x40, SBO 0x400, base offset 5, 64B swizzle.
  const uint64_t d = 0x123ull | 0x4ull << 16 | 0x40ull << 32 | 5ull << 49 | 2ull << 62;
  const Descriptor r = wg::decode(d);
  EXPECT_EQ(r.start, 0x1230u);
  EXPECT_EQ(r.lbo, 0x40u);
  EXPECT_EQ(r.sbo, 0x400u);
  EXPECT_EQ(r.baseOffset, 5u);
  EXPECT_EQ(r.swizzle, Swizzle::B64);
  EXPECT_EQ(wg::encode(r), d);
  // The 4 low bits of each address field do not exist; bits outside the fields are ignored.
  EXPECT_EQ(wg::decode(d | 0xC000ull | 1ull << 46).start, 0x1230u);
}

// Addresses worked out by hand: 16-byte chunk c of a row at byte b of an aligned atom is stored
// at chunk c ^ ((b / 128) % (W / 16)): for 128B rows the row within the atom, for 64B rows
// r / 2, for 32B rows r / 4 (the Swizzle<1|2|3, 4, 3> pattern the manual's figures draw).
TEST(WgmmaDescriptor, EachSwizzleModePlacesElementsAsTheManualDraws) {
  auto at = [](Descriptor d, bool mn, unsigned e, unsigned i, unsigned k) {
    const auto u = wg::elementAddress(d, mn, e, i, k);
    return u.unit + u.within;
  };
  // K-major f16, no swizzle: core matrices of 8 rows x 16 bytes; LBO 128 (next 8 k), SBO 256.
  Descriptor n{0x1000, 128, 256, 0, Swizzle::None};
  EXPECT_EQ(at(n, false, 2, 0, 0), 0x1000u);
  EXPECT_EQ(at(n, false, 2, 3, 5), 0x1000u + 3 * 16 + 10);
  EXPECT_EQ(at(n, false, 2, 3, 9), 0x1000u + 128 + 3 * 16 + 2);
  EXPECT_EQ(at(n, false, 2, 11, 9), 0x1000u + 256 + 128 + 3 * 16 + 2);
  // K-major f16, 128B: row 3, k 9 is chunk 1 of the row -> chunk 1 ^ 3 = 2.
  Descriptor s128{0x400, 0, 1024, 0, Swizzle::B128};
  EXPECT_EQ(at(s128, false, 2, 3, 9), 0x400u + 3 * 128 + 2 * 16 + 2);
  EXPECT_EQ(at(s128, false, 2, 7, 0), 0x400u + 7 * 128 + 7 * 16);
  EXPECT_EQ(at(s128, false, 2, 9, 0), 0x400u + 1024 + 1 * 128 + 1 * 16);
  // The next K step inside the atom: the start moves by 32 bytes, the swizzle follows the
  // address (row 5: chunk (2 + 1) ^ 5 = 6).
  Descriptor s128k{0x420, 0, 1024, 0, Swizzle::B128};
  EXPECT_EQ(at(s128k, false, 2, 5, 8), 0x400u + 5 * 128 + 6 * 16);
  // 64B: row 6 sits at byte 384 of the atom, whose bits 7-8 are 3: chunk 1 -> 1 ^ 3 = 2.
  Descriptor s64{0x800, 0, 512, 0, Swizzle::B64};
  EXPECT_EQ(at(s64, false, 2, 6, 8), 0x800u + 6 * 64 + 2 * 16);
  EXPECT_EQ(at(s64, false, 2, 1, 8), 0x800u + 1 * 64 + 1 * 16);  // bits 7-8 of 64: 0
  // 32B: row 5 at byte 160, bit 7 set: chunk 0 -> 1; tf32 k 5 is chunk 1 -> 0.
  Descriptor s32{0x200, 0, 256, 0, Swizzle::B32};
  EXPECT_EQ(at(s32, false, 2, 5, 3), 0x200u + 5 * 32 + 16 + 6);
  EXPECT_EQ(at(s32, false, 4, 5, 5), 0x200u + 5 * 32 + 0 + 4);
  // MN-major f16, no swizzle: 8 elements of M along a 16-byte row, k the row; SBO steps over
  // groups of 8 along M, LBO over groups of 8 along K.
  Descriptor mn{0x0, 128, 256, 0, Swizzle::None};
  EXPECT_EQ(at(mn, true, 2, 10, 3), 256u + 3 * 16 + 2 * 2);
  EXPECT_EQ(at(mn, true, 2, 10, 11), 256u + 128 + 3 * 16 + 2 * 2);
  // MN-major f16, 128B: 64 elements along a 128-byte row, 8 k rows an atom; LBO over atoms
  // along M, SBO over groups of 8 along K. (m 37, k 10): row 2 of the second k group, chunk
  // 37 * 2 / 16 = 4 -> 4 ^ 2 = 6.
  Descriptor mn128{0x0, 2048, 1024, 0, Swizzle::B128};
  EXPECT_EQ(at(mn128, true, 2, 37, 10), 1024u + 2 * 128 + 6 * 16 + 10);
  EXPECT_EQ(at(mn128, true, 2, 64 + 1, 0), 2048u + 2);
}

// ---- whole programs ----------------------------------------------------------------------------

enum class T : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, U8 };

unsigned bytesOf(T t) { return t == T::TF32 ? 4 : (t == T::F16 || t == T::BF16) ? 2 : 1; }
unsigned kOf(T t) { return 32 / bytesOf(t); }
const char* nameOf(T t) {
  static const char* n[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"};
  return n[unsigned(t)];
}
bool isInt(T t) { return t == T::S8 || t == T::U8; }

// The bits of a small integer v in the type.
uint32_t encode(T t, int v) {
  const double d = v;
  switch (t) {
    case T::F16:
      return uint32_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(d), fp::Round::RN));
    case T::BF16:
      return uint32_t(fp::convertBits(fp::kF64, fp::kBF16, fp::bits(d), fp::Round::RN));
    case T::TF32:
      return fp::bits(float(v));
    case T::E5M2:
      return encode(T::F16, v) >> 8;
    case T::E4M3: {  // |v| <= 3: 1 = 0x38, 2 = 0x40, 3 = 0x44
      const unsigned a = unsigned(std::abs(v));
      const uint32_t m = a == 0 ? 0 : a == 1 ? 0x38 : a == 2 ? 0x40 : 0x44;
      return (v < 0 ? 0x80 : 0) | m;
    }
    default:
      return uint32_t(v) & 0xFF;
  }
}

struct Case {
  T a = T::F16, b = T::F16;
  unsigned n = 16;
  std::string d = "f32";  // f32, f16, s32
  Swizzle swA = Swizzle::None, swB = Swizzle::None;
  bool transA = false, transB = false;
  bool aRegs = false;   // A from registers
  unsigned aKStep = 0;  // A's start moved by 32 bytes this many times inside its atom
  bool scaleD = true;
  int scaleA = 1, scaleB = 1;
  bool satfinite = false;
  int64_t cBias = 0;    // added to every C (s32: near the limits)
  bool sparse = false;  // wgmma.mma_async.sp: random valid metadata, selector `selector`
  unsigned selector = 0;
};

// A layout for an operand of `rows` rows (M or N) of element size e, K = 32 / e: descriptor
// values relative to the operand's base, and its size.
struct Layout {
  Descriptor d;
  uint32_t bytes;
};
// kBytes: the depth in bytes, 32 (a sparse wgmma's B: 64).
Layout layoutFor(Swizzle s, bool mnMajor, unsigned rows, unsigned e, unsigned kSteps,
                 unsigned kBytes = 32) {
  const unsigned w = wg::swizzleBytes(s), kGroups = kBytes / e / 8;
  Layout l;
  l.d.swizzle = s;
  if (!mnMajor) {
    if (s == Swizzle::None) {
      l.d.lbo = 128, l.d.sbo = 128 * (kBytes / 16);
      l.bytes = rows / 8 * l.d.sbo;
    } else {
      l.d.sbo = 8 * w;
      l.bytes = (rows + 7) / 8 * 8 * w;
      l.d.start = 32 * kSteps;  // the k step inside the atom
    }
  } else {
    const unsigned groups = (rows * e + 15) / 16;
    if (s == Swizzle::None) {
      l.d.lbo = 128, l.d.sbo = 128 * kGroups;
      l.bytes = groups * l.d.sbo;
    } else {
      const unsigned atoms = (rows * e + w - 1) / w;
      l.d.sbo = 8 * w, l.d.lbo = 8 * w * kGroups;
      l.bytes = atoms * l.d.lbo;
    }
  }
  return l;
}

std::string regList(const char* prefix, unsigned n) {
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i) s += (i ? "," : "") + std::string(prefix) + std::to_string(i);
  return s + "}";
}

// The program: copies the shared image in, loads A's fragment and C per thread, runs one
// wgmma (fence, mma_async, commit, wait 0) and stores D per thread.
std::string programFor(const Case& c, unsigned imageBytes) {
  const bool dHalf = c.d == "f16";
  const unsigned dRegs = dHalf ? c.n / 4 : c.n / 2;
  const unsigned K = kOf(c.a) * (c.sparse ? 2 : 1);
  std::string shape = "m64n" + std::to_string(c.n) + "k" + std::to_string(K);
  std::string s = ".version 8.0\n.target sm_90a\n.address_size 64\n";
  s += ".visible .entry wg(.param .u64 img, .param .u32 nbytes, .param .u64 ain, .param .u64 "
       "cin, .param .u64 out, .param .u64 adesc, .param .u64 bdesc)\n{\n";
  s += ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n.reg .b32 %a<4>;\n";
  s += ".reg .b32 %d<" + std::to_string(dRegs) + ">;\n";
  s += ".shared .align 1024 .b8 smem[" + std::to_string(imageBytes) + "];\n";
  s += R"(ld.param.u64 %rd1, [img];
ld.param.u32 %r4, [nbytes];
mov.u32 %r1, %tid.x;
mov.u32 %r2, smem;
shl.b32 %r3, %r1, 4;
COPY:
setp.ge.u32 %p1, %r3, %r4;
@%p1 bra DONE;
cvt.u64.u32 %rd3, %r3;
add.s64 %rd4, %rd1, %rd3;
ld.global.v4.b32 {%r5, %r6, %r7, %r8}, [%rd4];
add.u32 %r9, %r2, %r3;
st.shared.v4.b32 [%r9], {%r5, %r6, %r7, %r8};
add.u32 %r3, %r3, 2048;
bra COPY;
DONE:
bar.sync 0;
fence.proxy.async.shared::cta;
cvt.u64.u32 %rd5, %r2;
shr.u64 %rd5, %rd5, 4;
ld.param.u64 %rd6, [adesc];
add.s64 %rd6, %rd6, %rd5;
ld.param.u64 %rd7, [bdesc];
add.s64 %rd7, %rd7, %rd5;
ld.param.u64 %rd8, [ain];
mul.wide.u32 %rd13, %r1, 4;
add.s64 %rd13, %rd8, %rd13;
ld.global.b32 %r10, [%rd13+2048];
mul.wide.u32 %rd9, %r1, 16;
add.s64 %rd8, %rd8, %rd9;
ld.global.v4.b32 {%a0, %a1, %a2, %a3}, [%rd8];
ld.param.u64 %rd10, [cin];
mul.wide.u32 %rd11, %r1, )" +
       std::to_string(4 * dRegs) + R"(;
add.s64 %rd10, %rd10, %rd11;
ld.param.u64 %rd12, [out];
add.s64 %rd12, %rd12, %rd11;
)";
  for (unsigned i = 0; i < dRegs; ++i)
    s += "ld.global.b32 %d" + std::to_string(i) + ", [%rd10+" + std::to_string(4 * i) + "];\n";
  s += std::string("setp.ne.u32 %p2, %r1, ") + (c.scaleD ? "1000" : "%r1") + ";\n";
  s += "wgmma.fence.sync.aligned;\n";
  std::string types = std::string(".") + c.d + "." + nameOf(c.a) + "." + nameOf(c.b);
  s += std::string("wgmma.mma_async") + (c.sparse ? ".sp" : "") + ".sync.aligned." + shape +
       (c.satfinite ? ".satfinite" : "") + types + " " + regList("%d", dRegs) + ", " +
       (c.aRegs ? "{%a0, %a1, %a2, %a3}" : "%rd6") + ", %rd7" +
       (c.sparse ? ", %r10, " + std::to_string(c.selector) : "") + ", %p2";
  if (!isInt(c.a)) {
    s += ", " + std::to_string(c.scaleA) + ", " + std::to_string(c.scaleB);
    if (c.a == T::F16 || c.a == T::BF16) {
      if (!c.aRegs) s += std::string(", ") + (c.transA ? "1" : "0");
      s += std::string(", ") + (c.transB ? "1" : "0");
    }
  }
  s += ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
  for (unsigned i = 0; i < dRegs; ++i)
    s += "st.global.b32 [%rd12+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  s += "ret;\n}\n";
  return s;
}

// Runs the case with random small integers and compares every element of D with the CPU.
void runCase(const Case& c) {
  SCOPED_TRACE(std::string(nameOf(c.a)) + "x" + nameOf(c.b) + "->" + c.d +
               " N=" + std::to_string(c.n) + " swA=" + std::to_string(int(c.swA)) +
               " swB=" + std::to_string(int(c.swB)) + " tA=" + std::to_string(c.transA) +
               " tB=" + std::to_string(c.transB) + " aRegs=" + std::to_string(c.aRegs));
  // K: A's depth (a sparse A's stored elements), KB: B's (twice K for a sparse form).
  const unsigned K = kOf(c.a), e = bytesOf(c.a), N = c.n, KB = c.sparse ? 2 * K : K;
  kernels::Rng rng(N * 131 + unsigned(c.swA) * 7 + unsigned(c.swB) + unsigned(c.a) * 1000);
  auto small = [&](T t) {
    if (t == T::U8) return int(rng.u32(0, 5));
    if (t == T::E4M3) return int(rng.u32(0, 6)) - 3;
    return int(rng.u32(0, 8)) - 4;
  };
  std::vector<int> A(64 * K), B(N * KB);  // A[m][k], B[n][k]
  for (int& v : A) v = small(c.a);
  for (int& v : B) v = small(c.b);
  // Sparse: every thread's metadata, valid nibbles (tf32: 0b0100 / 0b1110), and each row's
  // stored elements' columns.
  std::vector<uint32_t> meta(128, 0);
  std::vector<std::array<uint8_t, 32>> columns(64);
  if (c.sparse) {
    static constexpr uint32_t kOrdered[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    for (uint32_t& m : meta)
      for (unsigned nib = 0; nib < 8; ++nib)
        m |= (c.a == T::TF32 ? (rng.u32(0, 1) ? 0xEu : 0x4u) : kOrdered[rng.u32(0, 5)]) << 4 * nib;
    for (unsigned w = 0; w < 4; ++w) {
      uint64_t warpMeta[32];
      for (unsigned l = 0; l < 32; ++l) warpMeta[l] = meta[32 * w + l];
      for (unsigned r = 0; r < 16; ++r)
        isa::insns::sparseColumns(8 * e, KB, warpMeta, c.selector, r, columns[16 * w + r].data());
    }
  }
  // The shared image: A at 0, B after it (both 1024-aligned).
  Layout la = layoutFor(c.swA, c.transA, 64, e, c.aKStep);
  Layout lb = layoutFor(c.swB, c.transB, N, e, 0, KB * e);
  const uint32_t bBase = (la.bytes + 1023) / 1024 * 1024;
  lb.d.start += bBase;
  const uint32_t total = (bBase + lb.bytes + 2047) / 2048 * 2048;
  std::vector<uint8_t> img(total, 0xEE);
  auto put = [&](const Descriptor& d, bool mn, unsigned i, unsigned k, uint32_t bits) {
    const auto u = wg::elementAddress(d, mn, e, i, k);
    ASSERT_LT(u.unit + u.within + e - 1, total);
    for (unsigned b = 0; b < e; ++b) img[u.unit + u.within + b] = uint8_t(bits >> (8 * b));
  };
  for (unsigned m = 0; m < 64; ++m)
    for (unsigned k = 0; k < K; ++k) put(la.d, c.transA, m, k, encode(c.a, A[m * K + k]));
  for (unsigned n = 0; n < N; ++n)
    for (unsigned k = 0; k < KB; ++k) put(lb.d, c.transB, n, k, encode(c.b, B[n * KB + k]));
  // A's register fragment per thread (mma.sync's A layout on the warp's 16 rows), then each
  // thread's metadata word (at byte 2048).
  std::vector<uint32_t> ain(128 * 4 + 128, 0);
  for (unsigned th = 0; th < 128; ++th) ain[512 + th] = meta[th];
  const unsigned perReg = 4 / e;
  for (unsigned th = 0; th < 128; ++th) {
    const unsigned w = th / 32, g = (th % 32) / 4, t = th % 4;
    for (unsigned i = 0; i < 4 * perReg; ++i) {
      unsigned row, col;
      if (K == 16)
        row = g + ((i >> 1) & 1) * 8, col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
      else if (K == 8)
        row = g + (i & 1) * 8, col = t + (i >= 2 ? 4 : 0);
      else
        row = g + ((i >> 2) & 1) * 8, col = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
      ain[th * 4 + i / perReg] |= encode(c.a, A[(16 * w + row) * K + col])
                                  << (8 * e * (i % perReg));
    }
  }
  // C and the expected D per thread, in D's fragment layout.
  const bool dHalf = c.d == "f16", dInt = c.d == "s32";
  const unsigned dRegs = dHalf ? N / 4 : N / 2;
  std::vector<uint32_t> cin(128 * dRegs, 0), want(128 * dRegs, 0);
  for (unsigned th = 0; th < 128; ++th) {
    const unsigned w = th / 32, g = (th % 32) / 4, t = th % 4;
    for (unsigned i = 0; i < N / 2; ++i) {
      const unsigned row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * t + (i & 1);
      const int64_t cv = int64_t(rng.u32(0, 16)) - 8 + c.cBias;
      int64_t dot = 0;
      for (unsigned k = 0; k < K; ++k)
        dot += int64_t(c.scaleA) * A[row * K + k] * int64_t(c.scaleB) *
               B[col * KB + (c.sparse ? columns[row][k] : k)];
      int64_t dv = dot + (c.scaleD ? cv : 0);
      uint32_t cBits, dBits;
      if (dInt) {
        if (c.satfinite) dv = std::clamp<int64_t>(dv, INT32_MIN, INT32_MAX);
        cBits = uint32_t(int32_t(cv)), dBits = uint32_t(dv);
      } else if (dHalf) {
        cBits = encode(T::F16, int(cv)), dBits = encode(T::F16, int(dv));
      } else {
        cBits = fp::bits(float(cv)), dBits = fp::bits(float(dv));
      }
      const unsigned reg = dHalf ? i / 2 : i, shift = dHalf ? 16 * (i & 1) : 0;
      cin[th * dRegs + reg] |= cBits << shift;
      want[th * dRegs + reg] |= dBits << shift;
    }
  }
  Descriptor ad = la.d;
  // Observed (the operands' units loaded through the machine) and not (read in place).
  for (const bool statistics : {true, false}) {
    PtxRunner r(programFor(c, total));
    const uint64_t gi = r.buffer<uint8_t>(total, img), ga = r.buffer<uint32_t>(ain.size(), ain),
                   gc = r.buffer<uint32_t>(cin.size(), cin), go = r.buffer<uint32_t>(cin.size());
    auto u64 = [](uint64_t v) {
      std::vector<uint8_t> b(8);
      for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
      return b;
    };
    sim::LaunchOptions o;
    o.statistics = statistics;
    auto res =
        r.launch("wg", {1, 1, 1}, {128, 1, 1},
                 {PtxRunner::ptr(gi), PtxRunner::u32(total), PtxRunner::ptr(ga), PtxRunner::ptr(gc),
                  PtxRunner::ptr(go), u64(wg::encode(ad)), u64(wg::encode(lb.d))},
                 o);
    ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
    const auto got = r.read<uint32_t>(go, cin.size());
    unsigned bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i)
      if (got[i] != want[i]) {
        ++bad;
        ADD_FAILURE() << "statistics " << statistics << " thread " << i / dRegs << " register "
                      << i % dRegs << ": got " << std::hex << got[i] << " want " << want[i];
      }
  }
}

TEST(WgmmaProgram, EverySwizzleKMajorF16) {
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    runCase({.n = 16, .swA = s, .swB = s});
}

TEST(WgmmaProgram, EverySwizzleMnMajorF16AndBf16) {
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
    runCase({.n = 24, .swA = s, .swB = s, .transA = true, .transB = true});
    runCase({.a = T::BF16, .b = T::BF16, .n = 72, .swA = s, .swB = Swizzle::B128, .transB = true});
  }
}

TEST(WgmmaProgram, KStepInsideA128ByteAtom) {
  runCase({.n = 32, .swA = Swizzle::B128, .swB = Swizzle::B128, .aKStep = 1});
  runCase({.n = 32, .swA = Swizzle::B128, .swB = Swizzle::B64, .aKStep = 3});
}

TEST(WgmmaProgram, SmallestAndLargestNAndF16Accumulators) {
  runCase({.n = 8, .d = "f16"});
  runCase({.n = 256, .swA = Swizzle::B128, .swB = Swizzle::B128});
  runCase({.n = 128, .d = "f16", .swB = Swizzle::B64, .transB = true});
}

TEST(WgmmaProgram, AFromRegistersWithNegatedScalesAndNoC) {
  runCase({.n = 64, .swB = Swizzle::B128, .aRegs = true, .scaleD = false, .scaleA = -1});
  runCase({.a = T::TF32, .b = T::TF32, .n = 40, .swB = Swizzle::B32, .aRegs = true, .scaleB = -1});
  runCase({.a = T::S8, .b = T::U8, .n = 48, .d = "s32", .swB = Swizzle::B64, .aRegs = true});
}

TEST(WgmmaProgram, MnMajorF16BNegatedAndAtTheWidestN) {
  // A dense f16 product with an MN-major B reads B in its k-major units (mmaGridDotsF16): the
  // sign of imm-scale-b -1 flipped on those bits, and the widest B (n256: 4,096 elements).
  runCase({.n = 64, .swB = Swizzle::B128, .transB = true, .scaleB = -1});
  runCase({.n = 40,
           .d = "f16",
           .swB = Swizzle::B32,
           .transB = true,
           .aRegs = true,
           .scaleA = -1,
           .scaleB = -1});
  runCase({.n = 256, .swA = Swizzle::B64, .swB = Swizzle::B128, .transB = true});
}

TEST(WgmmaProgram, Tf32Fp8AndInt8FromDescriptors) {
  runCase({.a = T::TF32, .b = T::TF32, .n = 16, .swA = Swizzle::B64, .swB = Swizzle::None});
  runCase({.a = T::E4M3, .b = T::E5M2, .n = 32, .swA = Swizzle::B64, .swB = Swizzle::B128});
  runCase({.a = T::E5M2, .b = T::E5M2, .n = 16, .d = "f16", .swA = Swizzle::B32});
  runCase({.a = T::U8, .b = T::S8, .n = 80, .d = "s32", .swA = Swizzle::B128, .swB = Swizzle::B32});
  // .satfinite: C near INT32_MAX, so positive sums clamp.
  runCase(
      {.a = T::S8, .b = T::S8, .n = 16, .d = "s32", .satfinite = true, .cBias = INT32_MAX - 20});
}

// wgmma.mma_async.sp: every type family, A from a descriptor and from registers, B of twice
// the K in the K-major layouts 64 bytes fit and MN-major, both selectors of the 16-bit types.
TEST(WgmmaSparse, EveryTypeFamilyAgainstTheExpandedProduct) {
  runCase({.n = 16, .sparse = true});
  runCase({.n = 24, .swA = Swizzle::B128, .swB = Swizzle::B128, .sparse = true, .selector = 1});
  runCase({.a = T::BF16,
           .b = T::BF16,
           .n = 40,
           .swA = Swizzle::B32,
           .swB = Swizzle::B64,
           .transB = true,
           .sparse = true});
  runCase({.n = 32,
           .d = "f16",
           .swB = Swizzle::B32,
           .transA = true,
           .transB = true,
           .sparse = true,
           .selector = 1});
  runCase({.n = 64, .swB = Swizzle::B64, .aRegs = true, .scaleA = -1, .sparse = true});
  runCase(
      {.a = T::TF32, .b = T::TF32, .n = 16, .swB = Swizzle::B128, .sparse = true, .selector = 1});
  runCase({.a = T::TF32, .b = T::TF32, .n = 8, .aRegs = true, .sparse = true});
  runCase({.a = T::E4M3,
           .b = T::E5M2,
           .n = 32,
           .swA = Swizzle::B64,
           .swB = Swizzle::B128,
           .sparse = true});
  runCase({.a = T::E5M2, .b = T::E4M3, .n = 16, .d = "f16", .aRegs = true, .sparse = true});
  runCase({.a = T::U8, .b = T::S8, .n = 48, .d = "s32", .swB = Swizzle::B64, .sparse = true});
  runCase({.a = T::S8,
           .b = T::S8,
           .n = 16,
           .d = "s32",
           .aRegs = true,
           .satfinite = true,
           .cBias = INT32_MAX - 20,
           .sparse = true});
}

// ---- in-flight state and misuse ---------------------------------------------------------------

// One warpgroup, B = 8x16 f16 of ones K-major (no swizzle: 2 core matrices per 8 rows), A =
// ones from registers: every D element of one wgmma is 16 + C. `body` is what runs after D
// is set to 1.0 and A to ones.
std::string inflightProgram(const std::string& body) {
  return std::string(".version 8.0\n.target sm_90a\n.address_size 64\n") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .reg .f32 %d<4>;
  .reg .b32 %a<4>;
  .shared .align 128 .b8 b[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, b;
  shl.b32 %r3, %r1, 1;
  and.b32 %r3, %r3, 254;
  add.u32 %r3, %r2, %r3;
  st.shared.u16 [%r3], 0x3C00;
  bar.sync 0;
  cvt.u64.u32 %rd2, %r2;
  shr.u64 %rd2, %rd2, 4;
  or.b64 %rd2, %rd2, 0x0000001000080000;
  mov.b32 %a0, 0x3C003C00;
  mov.b32 %a1, 0x3C003C00;
  mov.b32 %a2, 0x3C003C00;
  mov.b32 %a3, 0x3C003C00;
  mov.f32 %d0, 0f3F800000;
  mov.f32 %d1, 0f3F800000;
  mov.f32 %d2, 0f3F800000;
  mov.f32 %d3, 0f3F800000;
  setp.eq.u32 %p1, %r1, %r1;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd1, %rd1, %rd3;
  wgmma.fence.sync.aligned;
)" + body +
         "  ret;\n}\n";
}

constexpr const char* kMma =
    "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0,%d1,%d2,%d3}, {%a0,%a1,%a2,%a3}, "
    "%rd2, %p1, 1, 1, 0;\n";

std::vector<float> runInflight(const std::string& body, sim::LaunchResult* result = nullptr,
                               unsigned threads = 128) {
  PtxRunner r(inflightProgram(body));
  const uint64_t out = r.buffer<float>(threads * 4);
  auto res = r.launch("k", {1, 1, 1}, {threads, 1, 1}, {PtxRunner::ptr(out)});
  if (result) *result = res;
  if (res.fault) return {};
  return r.read<float>(out, threads * 4);
}

TEST(WgmmaInFlight, TheResultLandsAtTheWaitNotBefore) {
  auto v = runInflight(std::string(kMma) + R"(
  wgmma.commit_group.sync.aligned;
  st.global.f32 [%rd1], %d0;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1+4], %d0;
  st.global.f32 [%rd1+8], %d3;
)");
  ASSERT_EQ(v.size(), 512u);
  for (unsigned t = 0; t < 128; ++t) {
    EXPECT_EQ(v[t * 4], 1.0f) << t;       // before the wait: the old value
    EXPECT_EQ(v[t * 4 + 1], 17.0f) << t;  // 16 ones + C
    EXPECT_EQ(v[t * 4 + 2], 17.0f) << t;
  }
}

TEST(WgmmaInFlight, AChainedWgmmaAccumulatesThePendingResult) {
  // Two wgmmas on one accumulator without a wait between them (allowed without a fence), in
  // two groups: wait_group 1 lands the first only, wait_group 0 the second.
  auto v = runInflight(std::string(kMma) + "  wgmma.commit_group.sync.aligned;\n" + kMma + R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 1;
  st.global.f32 [%rd1], %d0;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1+4], %d0;
)");
  ASSERT_EQ(v.size(), 512u);
  EXPECT_EQ(v[0], 17.0f);
  EXPECT_EQ(v[1], 33.0f);
  EXPECT_EQ(v[127 * 4 + 1], 33.0f);
}

TEST(WgmmaInFlight, UncommittedWorkWaitsForItsCommit) {
  // wait_group 0 completes closed groups only: without a commit the result stays in flight.
  auto v = runInflight(std::string(kMma) + R"(
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1], %d0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1+4], %d0;
)");
  ASSERT_EQ(v.size(), 512u);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 17.0f);
}

TEST(WgmmaInFlight, AWarpsNextWgmmaOfAnotherFormReusesItsBuffers) {
  // A warp's queue keeps its buffers and its landed results' storage for its next wgmma
  // (wgmma_state.h): an f32 result (four registers), then an f16 one (two), then f32 again,
  // each landed before the next, must each give what it gives alone.
  auto v = runInflight(std::string(kMma) + R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  mov.b32 %r4, 0x3C003C00;
  mov.b32 %r5, 0x3C003C00;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%r4,%r5}, {%a0,%a1,%a2,%a3}, %rd2, %p1, 1, 1, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
)" + kMma + R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1], %d0;
  st.global.f32 [%rd1+4], %d3;
  st.global.b32 [%rd1+8], %r4;
  st.global.b32 [%rd1+12], %r5;
)");
  ASSERT_EQ(v.size(), 512u);
  const uint32_t seventeenTwice = 0x4C404C40;  // f16x2 {17, 17}: 16 ones + C
  for (unsigned t = 0; t < 128; ++t) {
    EXPECT_EQ(v[t * 4], 33.0f) << t;  // 1 + 16 + 16
    EXPECT_EQ(v[t * 4 + 1], 33.0f) << t;
    EXPECT_EQ(std::bit_cast<uint32_t>(v[t * 4 + 2]), seventeenTwice) << t;
    EXPECT_EQ(std::bit_cast<uint32_t>(v[t * 4 + 3]), seventeenTwice) << t;
  }
}

TEST(WgmmaMisuse, AWarpgroupShortOfThreadsFaults) {
  sim::LaunchResult res;
  runInflight(std::string(kMma), &res, 96);
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_NE(res.fault->message.find("needs the 128 threads of warpgroup 0"), std::string::npos)
      << res.fault->message;
}

TEST(WgmmaMisuse, ADivergentWarpFaults) {
  sim::LaunchResult res;
  runInflight("  setp.lt.u32 %p0, %r1, 16;\n  @%p0 " + std::string(kMma).substr(2), &res);
  ASSERT_TRUE(res.fault.has_value());
}

TEST(WgmmaMisuse, ADescriptorOutsideSharedMemoryFaults) {
  sim::LaunchResult res;
  runInflight("  or.b64 %rd2, %rd2, 0x3F00;\n" + std::string(kMma) +
                  "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n",
              &res);
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_NE(res.fault->message.find("at 0x3f000 is outside the CTA's 256 bytes of shared memory"),
            std::string::npos)
      << res.fault->message;
}

TEST(WgmmaMisuse, WrongFormsAreLoadErrors) {
  // The kernel cannot run: the binder's message, naming the instruction, comes back from the
  // launch (or from the load).
  auto bad = [](const std::string& line, const std::string& why) {
    std::string message;
    try {
      PtxRunner r(inflightProgram(line));
      const uint64_t out = r.buffer<float>(512);
      auto res = r.launch("k", {1, 1, 1}, {128, 1, 1}, {PtxRunner::ptr(out)});
      if (res.fault) message = res.fault->message;
    } catch (const std::exception& e) {
      message = e.what();
    }
    EXPECT_NE(message.find(why), std::string::npos) << line << "\n" << message;
  };
  // N not a multiple of 8; K wrong for the type; D vector of the wrong size; bf16 into f16.
  bad("  wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, %p1, "
      "1, 1, 0, 0;\n",
      "has an N it does not take (12)");
  bad("  wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, %p1, "
      "1, 1, 0, 0;\n",
      "has K = 16 for its types");
  bad("  wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, %p1, "
      "1, 1, 0, 0;\n",
      "writes a vector of 8 registers");
  bad("  wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%d0,%d1}, %rd2, %rd2, %p1, 1, 1, 0, "
      "0;\n",
      "accumulates this type into .f32");
  bad("  wgmma.wait_group.sync.aligned %r1;\n", "takes one immediate operand");
  // Sparse: K twice the dense one; the metadata in a register, the selector an immediate.
  bad("  wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, %r1, "
      "0, %p1, 1, 1, 0, 0;\n",
      "has K = 32 for its types");
  bad("  wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, 5, "
      "0, %p1, 1, 1, 0, 0;\n",
      "sparsity metadata (operand 4) in a register");
  bad("  wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%d0,%d1,%d2,%d3}, %rd2, %rd2, %r1, "
      "%r1, %p1, 1, 1, 0, 0;\n",
      "sparsity selector as an immediate");
}

}  // namespace
}  // namespace warpsim
