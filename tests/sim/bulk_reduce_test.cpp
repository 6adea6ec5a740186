// cp.reduce.async.bulk and cp.reduce.async.bulk.tensor (isa/insns/bulk_reduce.cpp) against a
// plain CPU reference written here: every (operation, type) pair of the .global form with edge
// values, a RapidCheck property over random sizes, pairs and data, the .shared::cluster form in a
// cluster of two (both CTAs reduce into rank 0's buffer and complete its mbarrier), the tensor
// form's tile box (elements outside the tensor untouched), and the misuse: a size that is not a
// multiple of 16 (a kernel fault), pairs the manual does not list (PTX errors at line:col).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "isa/insns/tensor_map.h"
#include "sim/gpu.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;
namespace tmap = isa::insns::tmap;

// ---- the reference ---------------------------------------------------------------------------

float f32(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// f32 add by the bulk unit on global memory (the H200, scripts/device_bulk_reduce.sh): round to
// nearest even, subnormal inputs and results kept (where red.global.add.f32 flushes them), a NaN
// result 0x7FFFFFFF. With `ftz` (a FLOAT32_FTZ tensor map) subnormals flush to a zero of their
// sign.
uint32_t addF32(uint32_t a, uint32_t b, bool ftz = false) {
  auto flush = [ftz](uint32_t x) { return ftz && (x & 0x7F800000u) == 0 ? x & 0x80000000u : x; };
  const float r = f32(flush(a)) + f32(flush(b));
  if (std::isnan(r)) return 0x7FFFFFFFu;
  return flush(bits(r));
}

// f64 add on global memory: a NaN source as it is, else a NaN old value as it is; inf + -inf
// 0xFFF8000000000000.
uint64_t addF64(uint64_t old, uint64_t s) {
  const double a = std::bit_cast<double>(old), b = std::bit_cast<double>(s);
  if (std::isnan(b)) return s;
  if (std::isnan(a)) return old;
  const double r = a + b;
  return std::isnan(r) ? 0xFFF8000000000000ull : std::bit_cast<uint64_t>(r);
}

bool nanF16(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }
bool nanBF16(uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F); }
double fromF16(uint16_t h) { return double(std::bit_cast<_Float16>(h)); }
float fromBF16(uint16_t h) { return f32(uint32_t(h) << 16); }
uint16_t toBF16(float f) {  // round to nearest even (f is not a NaN)
  const uint32_t u = bits(f);
  return uint16_t((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

// .noftz add: nearest even, subnormals kept, a NaN result 0x7FFF. The sum of two halves is exact
// in double; that of two bf16 in float but where it cannot change the bf16 rounding.
uint16_t addF16(uint16_t a, uint16_t b) {
  const _Float16 r = _Float16(fromF16(a) + fromF16(b));
  const uint16_t u = std::bit_cast<uint16_t>(r);
  return nanF16(u) ? 0x7FFF : u;
}
uint16_t addBF16(uint16_t a, uint16_t b) {
  const float r = fromBF16(a) + fromBF16(b);
  return std::isnan(r) ? 0x7FFF : toBF16(r);
}

// min/max of 16-bit floats: a NaN gives the other operand, two NaNs 0x7FFF, -0 below +0.
uint16_t minMax16(uint16_t a, uint16_t b, bool isMax, bool bf) {
  const bool na = bf ? nanBF16(a) : nanF16(a), nb = bf ? nanBF16(b) : nanF16(b);
  if (na && nb) return 0x7FFF;
  if (na) return b;
  if (nb) return a;
  const double x = bf ? fromBF16(a) : fromF16(a), y = bf ? fromBF16(b) : fromF16(b);
  if (x == y && x == 0) {  // the zeros: -0 < +0
    const bool aNeg = a >> 15;
    return (isMax ? !aNeg : aNeg) ? a : b;
  }
  return (isMax ? x > y : x < y) ? a : b;
}

// The new value of one destination element: `old` in memory, `s` from the source.
uint64_t reference(const std::string& op, const std::string& type, uint64_t old, uint64_t s) {
  if (type == "f32") return addF32(uint32_t(old), uint32_t(s));
  if (type == "f64") return addF64(old, s);
  if (type == "f16" || type == "bf16") {
    const bool bf = type == "bf16";
    if (op == "add") return bf ? addBF16(uint16_t(old), uint16_t(s)) : addF16(old, s);
    return minMax16(uint16_t(old), uint16_t(s), op == "max", bf);
  }
  const bool wide = type.substr(1) == "64";
  const uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
  old &= mask, s &= mask;
  if (op == "add") return (old + s) & mask;
  if (op == "and") return old & s;
  if (op == "or") return old | s;
  if (op == "xor") return old ^ s;
  if (op == "inc") return old >= s ? 0 : old + 1;
  if (op == "dec") return (old == 0 || old > s) ? s : old - 1;
  const bool isMax = op == "max";
  if (type[0] == 's') {
    const int64_t a = wide ? int64_t(old) : int64_t(int32_t(old)),
                  b = wide ? int64_t(s) : int64_t(int32_t(s));
    return uint64_t(isMax ? std::max(a, b) : std::min(a, b)) & mask;
  }
  return isMax ? std::max(old, s) : std::min(old, s);
}

unsigned typeBytes(const std::string& type) {
  if (type == "f16" || type == "bf16") return 2;
  return type.substr(1) == "64" ? 8 : 4;
}

// ---- the .global form ------------------------------------------------------------------------

// Every pair the manual lists for .global (the qualifier words after .bulk_group).
struct Pair {
  std::string op, type;
};
const std::vector<Pair>& globalPairs() {
  static const std::vector<Pair> pairs = {
      {"add", "u32"}, {"add", "s32"},  {"add", "u64"},  {"add", "f32"},  {"add", "f64"},
      {"add", "f16"}, {"add", "bf16"}, {"min", "u32"},  {"min", "s32"},  {"min", "u64"},
      {"min", "s64"}, {"min", "f16"},  {"min", "bf16"}, {"max", "u32"},  {"max", "s32"},
      {"max", "u64"}, {"max", "s64"},  {"max", "f16"},  {"max", "bf16"}, {"inc", "u32"},
      {"dec", "u32"}, {"and", "b32"},  {"and", "b64"},  {"or", "b32"},   {"or", "b64"},
      {"xor", "b32"}, {"xor", "b64"}};
  return pairs;
}

std::string opcode(const Pair& p) {
  const bool noftz = p.op == "add" && (p.type == "f16" || p.type == "bf16");
  return "cp.reduce.async.bulk.global.shared::cta.bulk_group." + p.op + (noftz ? ".noftz." : ".") +
         p.type;
}

// 32 threads copy `n` bytes of `src` into shared memory; thread 0 reduces them into `dst`.
std::string globalProgram(const std::string& op) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 src, .param .u64 dst, .param .u32 n)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 128 .b8 buf[4096];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, buf;
  shr.u32 %r4, %r1, 2;
  mov.u32 %r5, %r2;
LOOP:
  setp.ge.u32 %p1, %r5, %r4;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  shl.b32 %r7, %r5, 2;
  add.u32 %r8, %r3, %r7;
  st.shared.u32 [%r8], %r6;
  add.u32 %r5, %r5, 32;
  bra LOOP;
DONE:
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 )" +
         op + R"( [%rd2], [%r3], %r1;
  @%p2 cp.async.bulk.commit_group;
  @%p2 cp.async.bulk.wait_group 0;
  ret;
}
)";
}

// The elements of a byte buffer, `e` bytes each, and back.
std::vector<uint64_t> elements(const std::vector<uint8_t>& b, unsigned e) {
  std::vector<uint64_t> v(b.size() / e);
  for (size_t i = 0; i < v.size(); ++i)
    for (unsigned k = 0; k < e; ++k) v[i] |= uint64_t(b[i * e + k]) << (8 * k);
  return v;
}
std::vector<uint8_t> toBytes(const std::vector<uint64_t>& v, unsigned e) {
  std::vector<uint8_t> b(v.size() * e);
  for (size_t i = 0; i < v.size(); ++i)
    for (unsigned k = 0; k < e; ++k) b[i * e + k] = uint8_t(v[i] >> (8 * k));
  return b;
}

// Runs the reduction of `src` into `dst` (same element count); returns dst afterwards, or the
// fault's message in `fault`.
std::vector<uint64_t> reduceGlobal(const Pair& p, const std::vector<uint64_t>& dst,
                                   const std::vector<uint64_t>& src, std::string* fault = nullptr,
                                   uint32_t sizeOverride = 0) {
  const unsigned e = typeBytes(p.type);
  PtxRunner r(globalProgram(opcode(p)), "reduce.ptx");
  const std::vector<uint8_t> sb = toBytes(src, e), db = toBytes(dst, e);
  const uint64_t s = r.buffer<uint8_t>(sb.size(), sb), d = r.buffer<uint8_t>(db.size(), db);
  const uint32_t n = sizeOverride ? sizeOverride : uint32_t(sb.size());
  const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                            {PtxRunner::ptr(s), PtxRunner::ptr(d), PtxRunner::u32(n)});
  if (res.fault) {
    if (fault) *fault = res.fault->message;
    return {};
  }
  return elements(r.read<uint8_t>(d, db.size()), e);
}

// Values that exercise each type's edges (16 bytes' worth at least: a multiple of 16 in all).
std::vector<uint64_t> edges(const std::string& type) {
  if (type == "f32")
    return {bits(1.5f),     bits(-0.0f),
            0x00000001,     0x80400000,
            bits(INFINITY), bits(-INFINITY),
            0x7FC00001,     bits(3e38f),
            bits(1e-38f),   bits(1.0f),
            0xFF800001,     bits(-2.25f),
            bits(1e-45f),   0,
            bits(7.0f),     bits(1.17549435e-38f)};
  if (type == "f64")
    return {std::bit_cast<uint64_t>(1.5),   std::bit_cast<uint64_t>(-0.0),
            0x0000000000000001ull,          std::bit_cast<uint64_t>(double(INFINITY)),
            0x7FF0000000000001ull,          std::bit_cast<uint64_t>(-double(INFINITY)),
            std::bit_cast<uint64_t>(1e308), std::bit_cast<uint64_t>(3.0)};
  if (type == "f16")
    return {0x3C00, 0x8000, 0x0001, 0x7C00, 0xFC00, 0x7E01, 0x7BFF, 0x0000,
            0x83FF, 0x3555, 0xFD00, 0x0400, 0xC000, 0x4000, 0x03FF, 0x7C01};
  if (type == "bf16")
    return {0x3F80, 0x8000, 0x0001, 0x7F80, 0xFF80, 0x7FC1, 0x7F7F, 0x0000,
            0x807F, 0x3EAB, 0xFFC0, 0x0080, 0xC000, 0x4000, 0x007F, 0x7F81};
  if (typeBytes(type) == 8)
    return {0, 1, ~0ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 42, 0x100000000ull, 7};
  return {0,          1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 42, 5,          6,
          0xFFFFFFFE, 3, 1000,       0x10000,    9,          2,  0x55555555, 0xAAAAAAAA};
}

TEST(BulkReduce, EveryGlobalPairAgainstThePlainReference) {
  for (const Pair& p : globalPairs()) {
    const std::vector<uint64_t> v = edges(p.type);
    // Every value against every other: dst is the values, src the values rotated by each k.
    for (size_t k = 0; k < v.size(); ++k) {
      std::vector<uint64_t> src(v.size());
      for (size_t i = 0; i < v.size(); ++i) src[i] = v[(i + k) % v.size()];
      std::string fault;
      const auto got = reduceGlobal(p, v, src, &fault);
      ASSERT_EQ(fault, "") << opcode(p);
      ASSERT_EQ(got.size(), v.size());
      for (size_t i = 0; i < v.size(); ++i)
        EXPECT_EQ(got[i], reference(p.op, p.type, v[i], src[i]))
            << opcode(p) << " old " << std::hex << v[i] << " src " << src[i];
    }
  }
}

RC_GTEST_PROP(BulkReduce, RandomSizesPairsAndDataMatchTheReference, ()) {
  const Pair p = *rc::gen::elementOf(globalPairs());
  const unsigned e = typeBytes(p.type);
  const unsigned chunks = *rc::gen::inRange(1u, 33u);  // 16 .. 512 bytes
  const size_t count = chunks * 16 / e;
  const auto gen = rc::gen::container<std::vector<uint64_t>>(count, rc::gen::arbitrary<uint64_t>());
  std::vector<uint64_t> dst = *gen, src = *gen;
  const uint64_t mask = e == 8 ? ~0ull : (1ull << (8 * e)) - 1;
  for (auto& x : dst) x &= mask;
  for (auto& x : src) x &= mask;
  std::string fault;
  const auto got = reduceGlobal(p, dst, src, &fault);
  RC_ASSERT(fault.empty());
  for (size_t i = 0; i < count; ++i) RC_ASSERT(got[i] == reference(p.op, p.type, dst[i], src[i]));
}

TEST(BulkReduce, ASizeNotAMultipleOf16Faults) {
  std::string fault;
  reduceGlobal({"add", "u32"}, std::vector<uint64_t>(8), std::vector<uint64_t>(8), &fault, 24);
  EXPECT_NE(fault.find("multiple of 16"), std::string::npos) << fault;
}

// ---- the .shared::cluster form ----------------------------------------------------------------

// A cluster of 2: rank 0 fills its `buf` from init[], arms its mbarrier for 128 bytes; each CTA
// fills its `src` from src[rank * 16 ..] and its thread 0 reduces the 64 bytes into rank 0's
// `buf`, completing rank 0's mbarrier. Rank 0 waits and writes `buf` to out[].
std::string clusterProgram(const std::string& op) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 init, .param .u64 src, .param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<8>;
  .shared .align 128 .b8 sbuf[64];
  .shared .align 128 .b8 buf[64];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [init];
  ld.param.u64 %rd2, [src];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, sbuf;
  mov.u32 %r4, buf;
  mov.u32 %r5, bar;
  setp.eq.u32 %p1, %r1, 0;
  setp.eq.u32 %p2, %r2, 0;
  setp.lt.u32 %p3, %r1, 16;
  shl.b32 %r6, %r1, 2;
  mad.lo.u32 %r7, %r2, 16, %r1;
  mul.wide.u32 %rd4, %r7, 4;
  add.s64 %rd5, %rd2, %rd4;
  @%p3 ld.global.u32 %r8, [%rd5];
  add.u32 %r9, %r3, %r6;
  @%p3 st.shared.u32 [%r9], %r8;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  and.pred %p4, %p2, %p3;
  @%p4 ld.global.u32 %r10, [%rd7];
  add.u32 %r11, %r4, %r6;
  @%p4 st.shared.u32 [%r11], %r10;
  fence.proxy.async.shared::cta;
  and.pred %p5, %p1, %p2;
  @%p5 mbarrier.init.shared::cta.b64 [%r5], 1;
  @%p5 mbarrier.arrive.expect_tx.shared::cta.b64 %rd8, [%r5], 128;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  mapa.shared::cluster.u32 %r12, %r4, 0;
  mapa.shared::cluster.u32 %r13, %r5, 0;
  @%p1 )" +
         op + R"( [%r12], [%r3], 64, [%r13];
  @!%p2 bra DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p6, [%r5], 0;
  @!%p6 bra WAIT;
  @%p3 ld.shared.u32 %r14, [%r11];
  add.s64 %rd9, %rd3, %rd6;
  @%p3 st.global.u32 [%rd9], %r14;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";
}

TEST(BulkReduce, SharedClusterFormReducesBothCtasIntoRankZero) {
  const std::vector<Pair> pairs = {{"add", "u32"}, {"add", "s32"}, {"add", "u64"}, {"min", "u32"},
                                   {"min", "s32"}, {"max", "u32"}, {"max", "s32"}, {"inc", "u32"},
                                   {"dec", "u32"}, {"and", "b32"}, {"or", "b32"},  {"xor", "b32"}};
  for (const Pair& p : pairs) {
    const std::string op =
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::"
        "complete_tx::bytes." +
        p.op + "." + p.type;
    PtxRunner r(clusterProgram(op), "cluster.ptx");
    std::vector<uint32_t> init(16), src(32);
    for (unsigned i = 0; i < 16; ++i) init[i] = i * 0x10001u + (i % 3 ? 0 : 0x80000000u);
    for (unsigned i = 0; i < 32; ++i) src[i] = 0x9E3779B9u * (i + 1) >> (i % 7 * 4);
    const uint64_t ib = r.buffer<uint32_t>(16, init), sb = r.buffer<uint32_t>(32, src),
                   ob = r.buffer<uint32_t>(16);
    const auto res =
        r.launch("k", {2, 1, 1}, {32, 1, 1},
                 {PtxRunner::ptr(ib), PtxRunner::ptr(sb), PtxRunner::ptr(ob)}, {}, 0, {2, 1, 1});
    ASSERT_FALSE(res.fault) << op << ": " << res.fault->message;
    const auto out = r.read<uint32_t>(ob, 16);
    // Rank 0 and rank 1 in either order give the same result for every pair but inc/dec:
    // the simulator runs rank 0 first (its CTA is launched first and reaches the cluster
    // barrier's release first).
    const unsigned e = typeBytes(p.type);
    const auto want = [&](const std::vector<uint32_t>& words, size_t at) {
      std::vector<uint64_t> v;
      for (size_t i = 0; i < 64 / e; ++i)
        v.push_back(e == 8 ? words[at + 2 * i] | uint64_t(words[at + 2 * i + 1]) << 32
                           : words[at + i]);
      return v;
    };
    std::vector<uint64_t> acc = want(init, 0);
    const auto s0 = want(src, 0), s1 = want(src, 16);
    auto apply = [&](const std::vector<uint64_t>& s) {
      for (size_t i = 0; i < acc.size(); ++i) acc[i] = reference(p.op, p.type, acc[i], s[i]);
    };
    apply(s0);
    apply(s1);
    std::vector<uint64_t> other = want(init, 0);
    for (size_t i = 0; i < other.size(); ++i)
      other[i] = reference(p.op, p.type, reference(p.op, p.type, other[i], s1[i]), s0[i]);
    const auto got = want(out, 0);
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(got[i] == acc[i] || got[i] == other[i])
          << op << " element " << i << ": " << std::hex << got[i] << " want " << acc[i];
  }
}

// ---- the tensor form -------------------------------------------------------------------------

// Thread i writes shared word i = 500 + i (the box, 16 x 2 u32, or f32 of it), then thread 0
// reduces the box into the 2d tensor at (x, y).
constexpr const char* kTensor = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 tmap, .param .u32 x, .param .u32 y)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<2>;
  .reg .pred %p<2>;
  .shared .align 128 .b8 box[128];
  ld.param.u64 %rd1, [tmap];
  ld.param.u32 %r5, [x];
  ld.param.u32 %r6, [y];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, box;
  shl.b32 %r3, %r1, 2;
  add.u32 %r3, %r2, %r3;
  add.u32 %r4, %r1, 500;
  CONVERT
  st.shared.u32 [%r3], %r4;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 OPCODE [%rd1, {%r5, %r6}], [%r2];
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group 0;
  ret;
}
)";

// A 20 x 3 tensor of 32-bit elements (element i = 1000 + i, or f32 of it), box 16 x 2 at (x, y).
struct TensorRun {
  std::vector<uint32_t> tensor;
  std::string fault;
};
// Subnormal mode (for the f32 subnormal rule): box word i is the bit pattern i (0 or a
// subnormal) and tensor element i the bit pattern 0x80000000 | (3 i) (a negative subnormal).
enum class Values { Integers, Floats, Subnormals };
TensorRun reduceTensor(const std::string& op, unsigned dataType, int32_t x, int32_t y,
                       Values values) {
  std::string ptx = kTensor;
  ptx.replace(ptx.find("OPCODE"), 6,
              "cp.reduce.async.bulk.tensor.2d.global.shared::cta." + op + ".tile.bulk_group");
  ptx.replace(ptx.find("CONVERT"), 7,
              values == Values::Floats       ? "cvt.rn.f32.u32 %f1, %r4;\n  mov.b32 %r4, %f1;"
              : values == Values::Subnormals ? "mov.b32 %r4, %r1;"
                                             : "");
  PtxRunner r(ptx, "tensor.ptx");
  std::vector<uint32_t> t(60);
  for (unsigned i = 0; i < 60; ++i)
    t[i] = values == Values::Floats       ? bits(float(1000 + i))
           : values == Values::Subnormals ? 0x80000000u | (3 * i)
                                          : 1000 + i;
  const uint64_t g = r.buffer<uint32_t>(60, t);
  tmap::TensorMap m;
  const uint64_t dims[2] = {20, 3}, strides[1] = {80};
  const uint32_t box[2] = {16, 2}, estr[2] = {1, 1};
  EXPECT_EQ(tmap::encodeTiled(m, dataType, 2, g, dims, strides, box, estr, 0, 0, 0, 0), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t mp = r.buffer<uint8_t>(128, mb);
  const auto res =
      r.launch("k", {1, 1, 1}, {32, 1, 1},
               {PtxRunner::ptr(mp), PtxRunner::u32(uint32_t(x)), PtxRunner::u32(uint32_t(y))});
  if (res.fault) return {{}, res.fault->message};
  return {r.read<uint32_t>(g, 60), ""};
}

TEST(BulkReduceTensor, A2dAddOfF32SkipsWhatLiesOutside) {
  // Box 16 x 2 at (8, 2): columns 8..19 of row 2 are inside; columns 20..23 and row 3 are not.
  const TensorRun run = reduceTensor("add", 7, 8, 2, Values::Floats);
  ASSERT_EQ(run.fault, "");
  for (unsigned gy = 0; gy < 3; ++gy)
    for (unsigned gx = 0; gx < 20; ++gx) {
      float want = float(1000 + gy * 20 + gx);
      if (gy == 2 && gx >= 8) want += float(500 + (gx - 8));  // box row 0, column gx - 8
      EXPECT_EQ(run.tensor[gy * 20 + gx], bits(want)) << gx << "," << gy;
    }
}

// FLOAT32 (7) keeps subnormal inputs and results, FLOAT32_FTZ (10) flushes them: at (0, 0) the
// box's first row lands on row 0 columns 0..15, box[i] + tensor[i] = bits i + bits -(3 i).
TEST(BulkReduceTensor, F32KeepsSubnormalsAndF32FtzFlushesThem) {
  for (const unsigned type : {7u, 10u}) {
    const bool ftz = type == 10;
    const TensorRun run = reduceTensor("add", type, 0, 0, Values::Subnormals);
    ASSERT_EQ(run.fault, "") << type;
    for (unsigned i = 0; i < 16; ++i)
      EXPECT_EQ(run.tensor[i], addF32(0x80000000u | (3 * i), i, ftz)) << type << " " << i;
    EXPECT_EQ(run.tensor[20], addF32(0x80000000u | 60, 16, ftz)) << type;  // box row 1
    EXPECT_EQ(run.tensor[16], 0x80000000u | 48) << type;                   // outside the box
  }
  EXPECT_EQ(addF32(0x80000003u, 1), 0x80000002u);   // the reference itself: kept,
  EXPECT_EQ(addF32(0x80000003u, 1, true), 0u);       // or flushed (-0 + +0 is +0)
}

TEST(BulkReduceTensor, IntegerMinAtNegativeCoordinates) {
  // u32 min at (-4, -1): box row 1 lands on tensor row 0, columns 0..11 (box columns 4..15).
  const TensorRun run = reduceTensor("min", 2, -4, -1, Values::Integers);
  ASSERT_EQ(run.fault, "");
  for (unsigned i = 0; i < 60; ++i) {
    uint32_t want = 1000 + i;
    if (i < 12) want = std::min(want, 500u + 16 + (i + 4));
    EXPECT_EQ(run.tensor[i], want) << i;
  }
}

TEST(BulkReduceTensor, AnElementTypeTheOperationLacksFaults) {
  // .inc on a FLOAT32 map: the manual defines .inc for .u32 only.
  const TensorRun run = reduceTensor("inc", 7, 0, 0, Values::Floats);
  EXPECT_NE(run.fault.find(".inc is not defined for the tensor map's element type"),
            std::string::npos)
      << run.fault;
}

// ---- bad input -------------------------------------------------------------------------------

std::string loadError(const std::string& line) {
  const std::string ptx =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<4>;\n  .reg .b32 %r<4>;\n" +
      line + "\n  ret;\n}\n";
  try {
    sim::Gpu gpu;
    const sim::LoadedModule& m = gpu.loadPtx(ptx, "bad.ptx");
    if (auto err = m.program.buildError(m.program.findEntry("k"))) return err->what();
    return "";
  } catch (const isa::PtxError& e) {
    return e.what();
  }
}

TEST(BulkReduce, PairsTheManualDoesNotListArePtxErrors) {
  const std::string g = "  cp.reduce.async.bulk.global.shared::cta.bulk_group";
  const std::string c =
      "  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes";
  EXPECT_EQ(loadError(g + ".add.u32 [%rd1], [%r1], %r2;"), "");
  EXPECT_NE(loadError(g + ".add.s64 [%rd1], [%r1], %r2;")
                .find("bad.ptx:8:3: error: kernel 'k' cannot run: "
                      "'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s64' .add is not "
                      "defined for .s64 into .global"),
            std::string::npos)
      << loadError(g + ".add.s64 [%rd1], [%r1], %r2;");
  EXPECT_NE(loadError(g + ".inc.s32 [%rd1], [%r1], %r2;").find("bad.ptx:8:3:"), std::string::npos);
  EXPECT_NE(loadError(g + ".and.u32 [%rd1], [%r1], %r2;").find(".and is not defined for .u32"),
            std::string::npos);
  EXPECT_NE(loadError(c + ".add.f32 [%r1], [%r2], %r3, [%r1];")
                .find(".add is not defined for .f32 into .shared::cluster"),
            std::string::npos);
  EXPECT_NE(loadError(c + ".and.b64 [%r1], [%r2], %r3, [%r1];")
                .find(".and is not defined for .b64 into .shared::cluster"),
            std::string::npos);
  EXPECT_NE(loadError(g + ".add.f16 [%rd1], [%r1], %r2;").find("requires .noftz"),
            std::string::npos);
  EXPECT_NE(
      loadError(g + ".min.noftz.f16 [%rd1], [%r1], %r2;").find(".noftz is only defined for .add"),
      std::string::npos);
  EXPECT_NE(loadError(g + ".add.u32 [%rd1], [%r1];").find("takes [dst], [src], size"),
            std::string::npos);
  EXPECT_NE(loadError(c + ".add.u32 [%r1], [%r2], %r3;").find("takes [dst], [src], size, [mbar]"),
            std::string::npos);
  EXPECT_NE(loadError("  cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group."
                      "u32 [%rd1, {%r1, %r2}], [%r3];")
                .find("takes no type"),
            std::string::npos);
}

}  // namespace
}  // namespace warpsim
