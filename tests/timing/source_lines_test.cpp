// Per-source-line breakdown: a kernel whose hot line is known (the add that waits for a load,
// in a loop), lines through .loc and PTX lines without it, and the totals they add up to.
#include <gtest/gtest.h>

#include <numeric>

#include "harness/json.h"
#include "harness/timing_report.h"
#include "tests/timing/small_kernel.h"

namespace warpsim::sim::timing {
namespace {

// hot.cu: line 7 loads, line 8 adds the loaded value (waits for it: the hot line), line 9
// counts the loop, line 11 stores.
constexpr const char* kHot = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "hot.cu"
.visible .entry hot(.param .u64 p, .param .u32 n) {
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<6>;
  .loc 1 3 0
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  mov.f32 %f1, 0f00000000;
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd2, %rd3;
LOOP:
  .loc 1 7 0
  ld.global.f32 %f2, [%rd4];
  .loc 1 8 0
  add.f32 %f1, %f1, %f2;
  .loc 1 9 0
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  .loc 1 11 0
  st.global.f32 [%rd4], %f1;
  ret;
}
)";

TimingReport runHot(uint32_t trips) {
  warpsim::test::PtxRunner r(kHot, "hot.ptx");
  const uint64_t p = r.buffer<float>(64, std::vector<float>(64, 1.0f));
  TimingConfig c;
  c.run.sourceLines = true;
  TimingModel model{c};
  LaunchOptions o;
  o.runner = &model;
  const LaunchResult res =
      r.launch("hot", {1, 1, 1}, {64, 1, 1},
               {warpsim::test::PtxRunner::ptr(p), warpsim::test::PtxRunner::u32(trips)}, o);
  EXPECT_FALSE(res.fault.has_value());
  EXPECT_EQ(r.read<float>(p, 64), std::vector<float>(64, float(trips)));
  return model.lastReport().value_or(TimingReport{});
}

const SourceLine* find(const TimingReport& t, const std::string& file, uint32_t line) {
  for (const SourceLine& l : t.sourceLines)
    if (l.file == file && l.line == line) return &l;
  return nullptr;
}

TEST(TimingSourceLines, TheLoadsConsumerIsTheHotLine) {
  const TimingReport t = runHot(20);
  ASSERT_EQ(t.sourceLines.size(), 5u);  // lines 3, 7, 8, 9, 11
  EXPECT_EQ(t.sourceLines[0].where(), "hot.cu:8");
  const SourceLine& hot = t.sourceLines[0];
  const auto most = std::max_element(hot.cycles.begin(), hot.cycles.end()) - hot.cycles.begin();
  EXPECT_EQ(Stall(most), Stall::LongScoreboard);
  // Issued warp-instructions per line: 2 warps x 20 trips of one load (line 7), one add
  // (line 8), add + setp + bra (line 9).
  ASSERT_NE(find(t, "hot.cu", 7), nullptr);
  EXPECT_EQ(find(t, "hot.cu", 7)->issued(), 40u);
  EXPECT_EQ(find(t, "hot.cu", 8)->issued(), 40u);
  EXPECT_EQ(find(t, "hot.cu", 9)->issued(), 120u);
  EXPECT_EQ(find(t, "hot.cu", 11)->issued(), 4u);  // st, ret
  EXPECT_GT(find(t, "hot.cu", 8)->ptxLine, find(t, "hot.cu", 7)->ptxLine);
}

TEST(TimingSourceLines, LinesAddUpToTheReport) {
  for (uint32_t trips : {1u, 7u}) {
    const TimingReport t = runHot(trips);
    std::array<uint64_t, size_t(Stall::Count_)> sum{};
    for (const SourceLine& l : t.sourceLines)
      for (size_t i = 0; i < sum.size(); ++i) sum[i] += l.cycles[i];
    EXPECT_EQ(sum, t.stalls) << trips;
  }
}

TEST(TimingSourceLines, WithoutLocThePtxLineNamesThePlace) {
  TimingConfig c;
  c.run.sourceLines = true;
  const TimingReport t = test::runSmallKernel(c).report;
  ASSERT_FALSE(t.sourceLines.empty());
  for (const SourceLine& l : t.sourceLines) {
    EXPECT_TRUE(l.file.empty());
    EXPECT_EQ(l.line, l.ptxLine);
  }
  // The fma (PTX line 29) waits for the second global load: the kernel's hot line.
  EXPECT_EQ(t.sourceLines[0].where(), "PTX line 29");
  // Text: the top N; JSON: every line.
  const std::string text = harness::formatTiming(t, 2);
  EXPECT_NE(text.find("  source lines (warp-cycles; top 2 of " +
                      std::to_string(t.sourceLines.size()) + "):\n    PTX line 29"),
            std::string::npos)
      << text;
  EXPECT_EQ(harness::formatTiming(t, 0).find("source lines"), std::string::npos);
  harness::Json j;
  harness::timingJson(j, t);
  size_t entries = 0;
  for (size_t at = j.str().find("\"ptx_line\":"); at != std::string::npos;
       at = j.str().find("\"ptx_line\":", at + 1))
    ++entries;
  EXPECT_EQ(entries, t.sourceLines.size());
  EXPECT_NE(j.str().find("\"stalls\":{\"long_scoreboard\":"), std::string::npos) << j.str();
}

TEST(TimingSourceLines, OffByDefault) {
  EXPECT_TRUE(test::runSmallKernel(TimingConfig{}).report.sourceLines.empty());
}

}  // namespace
}  // namespace warpsim::sim::timing
