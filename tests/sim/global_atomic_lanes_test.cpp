// A warp's atomic on global memory whose lanes share addresses (a histogram's bins): every lane
// gets the old value that RMWs in lane order give, and float adds round in that order, whatever
// merging of same-address lanes (tried in the twenty-fourth pass, docs/PERFORMANCE.md) is done
// to the RMWs; and CTAs on two host threads lose no lane's add.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

// Lane l adds vals[l] (f32) and l (u32) to bin l % 3 and stores the old values it got; lane 5
// takes no part.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry bins3(.param .u64 pf, .param .u64 pvals, .param .u64 pfold, .param .u64 pu,
                      .param .u64 puold)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<14>;
  ld.param.u64 %rd1, [pf];
  ld.param.u64 %rd2, [pvals];
  ld.param.u64 %rd3, [pfold];
  ld.param.u64 %rd8, [pu];
  ld.param.u64 %rd9, [puold];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 5;
  @%p1 bra DONE;
  rem.u32 %r2, %r1, 3;
  mul.wide.u32 %rd4, %r2, 4;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.f32 %f1, [%rd7];
  atom.global.add.f32 %f2, [%rd5], %f1;
  add.s64 %rd10, %rd3, %rd6;
  st.global.f32 [%rd10], %f2;
  add.s64 %rd11, %rd8, %rd4;
  atom.global.add.u32 %r3, [%rd11], %r1;
  add.s64 %rd12, %rd9, %rd6;
  st.global.u32 [%rd12], %r3;
DONE:
  ret;
}
)";

TEST(GlobalAtomicLanes, LanesOfOneAddressGetTheOldValuesOfLaneOrderAndRoundInIt) {
  test::PtxRunner r(kPtx);
  // Magnitudes far apart, so that another order of the adds rounds to other sums.
  std::vector<float> vals(32);
  for (unsigned l = 0; l < 32; ++l)
    vals[l] = (l % 4 == 0   ? 3.0e7f
               : l % 4 == 1 ? 1.25f
               : l % 4 == 2 ? -2.9e7f
                            : 0.3f) *
              float(l + 1);
  const std::vector<float> fStart = {0.5f, -7.0f, 1.0e6f};
  const std::vector<uint32_t> uStart = {0xFFFFFFF0u, 7, 100};
  const uint64_t f = r.buffer<float>(3, fStart), v = r.buffer<float>(32, vals),
                 fold = r.buffer<float>(32, std::vector<float>(32, -1.0f)),
                 u = r.buffer<uint32_t>(3, uStart),
                 uold = r.buffer<uint32_t>(32, std::vector<uint32_t>(32, 0xDEADu));
  const sim::LaunchResult res =
      r.launch("bins3", {1, 1, 1}, {32, 1, 1},
               {test::PtxRunner::ptr(f), test::PtxRunner::ptr(v), test::PtxRunner::ptr(fold),
                test::PtxRunner::ptr(u), test::PtxRunner::ptr(uold)});
  ASSERT_FALSE(res.fault) << res.fault->message;
  std::vector<float> fBin = fStart, fOld(32, -1.0f);
  std::vector<uint32_t> uBin = uStart, uOld(32, 0xDEADu);
  for (unsigned l = 0; l < 32; ++l) {
    if (l == 5) continue;
    fOld[l] = fBin[l % 3];
    fBin[l % 3] += vals[l];
    uOld[l] = uBin[l % 3];
    uBin[l % 3] += l;
  }
  const auto bits = [](const std::vector<float>& x) {
    std::vector<uint32_t> b(x.size());
    std::memcpy(b.data(), x.data(), x.size() * 4);
    return b;
  };
  EXPECT_EQ(bits(r.read<float>(f, 3)), bits(fBin));
  EXPECT_EQ(bits(r.read<float>(fold, 32)), bits(fOld));
  EXPECT_EQ(r.read<uint32_t>(u, 3), uBin);
  EXPECT_EQ(r.read<uint32_t>(uold, 32), uOld);
}

TEST(GlobalAtomicLanes, ManyCtasOnTwoHostThreadsCountEveryLane) {
  test::PtxRunner r(kPtx);
  const uint64_t f = r.buffer<float>(3, std::vector<float>(3, 0.0f)),
                 v = r.buffer<float>(32, std::vector<float>(32, 1.0f)), fold = r.buffer<float>(32),
                 u = r.buffer<uint32_t>(3, std::vector<uint32_t>(3, 0)),
                 uold = r.buffer<uint32_t>(32);
  sim::LaunchOptions two;
  two.threads = 2;
  const sim::LaunchResult res =
      r.launch("bins3", {200, 1, 1}, {32, 1, 1},
               {test::PtxRunner::ptr(f), test::PtxRunner::ptr(v), test::PtxRunner::ptr(fold),
                test::PtxRunner::ptr(u), test::PtxRunner::ptr(uold)},
               two);
  ASSERT_FALSE(res.fault) << res.fault->message;
  // Lanes 0..31 but 5: bins 0 and 1 get 11 lanes each, bin 2 nine (2, 8, ..., 29; 5 is out).
  EXPECT_EQ(r.read<float>(f, 3), (std::vector<float>{2200.0f, 2200.0f, 1800.0f}));
  uint32_t sums[3] = {0, 0, 0};
  for (uint32_t l = 0; l < 32; ++l)
    if (l != 5) sums[l % 3] += l;
  EXPECT_EQ(r.read<uint32_t>(u, 3),
            (std::vector<uint32_t>{200 * sums[0], 200 * sums[1], 200 * sums[2]}));
}

}  // namespace
}  // namespace warpsim
