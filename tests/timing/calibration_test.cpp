// Parameters of configs/h200.json that the recorded micro cards measure, checked against the
// recording (tests/recorded/timing/h200_ncu.tsv), so that neither drifts from the other.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "harness/correlation.h"
#include "sim/timing/config.h"

namespace warpsim::sim::timing {
namespace {

// micro_bank_stride: one warp, 64 dependent shared loads per launch, launch s - 1 at a stride of
// s words (a gcd(s, 32)-way conflict). The short_scoreboard cycles of the launch (per issue x
// issues) grow by the conflict's latency over the conflict-free stride's: per load and per
// replayed wavefront, shared.replay_latency.
TEST(Calibration, SharedReplayLatencyIsMicroBankStrides) {
  const auto ms = harness::readMeasurements(std::string(WARPSIM_SOURCE_DIR) +
                                            "/tests/recorded/timing/h200_ncu.tsv");
  std::map<unsigned, double> shortScoreboard;  // ways -> cycles, the mean over strides
  std::map<unsigned, unsigned> launches;
  for (const auto& m : ms) {
    if (m.card != "micro_bank_stride") continue;
    const unsigned stride = unsigned(m.launch) + 1;
    unsigned ways = 1;
    while (ways < 32 && stride % (2 * ways) == 0) ways *= 2;
    shortScoreboard[ways] +=
        m.metric("smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio") *
        m.metric("smsp__inst_executed.sum");
    ++launches[ways];
    EXPECT_DOUBLE_EQ(m.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 64.0 * ways)
        << "stride " << stride;
  }
  ASSERT_EQ(launches.size(), 6u);  // 1-, 2-, 4-, 8-, 16- and 32-way
  const TimingConfig c;
  const double base = shortScoreboard[1] / launches[1];
  for (unsigned ways = 2; ways <= 32; ways *= 2) {
    const double perReplay = (shortScoreboard[ways] / launches[ways] - base) / (64.0 * (ways - 1));
    EXPECT_NEAR(perReplay, double(c.sharedReplayLatency), 0.1) << ways << "-way";
  }
}

}  // namespace
}  // namespace warpsim::sim::timing
