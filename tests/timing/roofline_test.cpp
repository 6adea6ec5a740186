// The roofline: FLOP per instruction (flops.h), the counts of a launch, intensity and the
// achieved share of the peaks, and the verdict's rule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/json.h"
#include "harness/timing_report.h"
#include "isa/insn_table.h"
#include "isa/mods.h"
#include "sim/timing/flops.h"
#include "tests/timing/small_kernel.h"

namespace warpsim::sim::timing {
namespace {

// The instruction as lowering binds it: its modifiers decoded, its spec found by opcode and type.
FlopWeight weightOf(const std::string& text, isa::InsnClass cls) {
  std::vector<std::string> words;
  for (size_t start = 0, dot = 0; dot != std::string::npos; start = dot + 1) {
    dot = text.find('.', start);
    words.push_back(text.substr(start, dot - start));
  }
  isa::Inst in;
  in.text = text;
  in.cls = cls;
  in.mods = isa::decodeMods({words.begin() + 1, words.end()});
  in.spec = isa::findSpec(words[0], in.mods);
  EXPECT_NE(in.spec, nullptr) << text;
  return flopWeight(in);
}

TEST(TimingRoofline, FlopWeightsFollowNcu) {
  using K = isa::InsnClass;
  struct Case {
    const char* text;
    K cls;
    FlopKind kind;
    uint32_t perLane;
    uint64_t perWarp;
  };
  for (const Case& c : {
           Case{"fma.rn.f32", K::Fp32, FlopKind::Fp32, 2, 0},
           Case{"add.ftz.f32", K::Fp32, FlopKind::Fp32, 1, 0},
           Case{"mul.rn.f64", K::Fp64, FlopKind::Fp64, 1, 0},
           Case{"fma.rn.f64", K::Fp64, FlopKind::Fp64, 2, 0},
           Case{"fma.rn.f16x2", K::Half, FlopKind::Fp16, 4, 0},
           Case{"sub.bf16", K::Half, FlopKind::Fp16, 1, 0},
           Case{"mad.rn.f32", K::Fp32, FlopKind::Fp32, 2, 0},
           Case{"div.rn.f32", K::Fp32, FlopKind::None, 0, 0},
           Case{"neg.f64", K::Fp64, FlopKind::None, 0, 0},
           Case{"mad.lo.s32", K::Int, FlopKind::None, 0, 0},
           Case{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", K::Tensor, FlopKind::Tensor, 0,
                2 * 16 * 8 * 16},
           Case{"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", K::Tensor, FlopKind::Tensor, 0,
                2 * 16 * 16 * 16},
           // Each of the warpgroup's four warps issues it: a quarter of 2 * 64 * 64 * 16 each.
           Case{"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", K::Tensor, FlopKind::Tensor,
                0, 2 * 64 * 64 * 16 / 4},
       }) {
    const FlopWeight w = weightOf(c.text, c.cls);
    EXPECT_EQ(w.kind, c.kind) << c.text;
    EXPECT_EQ(w.perLane, c.perLane) << c.text;
    EXPECT_EQ(w.perWarp, c.perWarp) << c.text;
  }
}

TEST(TimingRoofline, SmallKernelCountsAndShares) {
  const TimingReport t = test::runSmallKernel(TimingConfig{}).report;
  // One fma per thread, 256 threads; x and y read once from DRAM (2 KB).
  EXPECT_EQ(t.flops, (std::array<uint64_t, 4>{512, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(t.arithmeticIntensity(), 512.0 / 2048.0);
  EXPECT_EQ(t.dominantFlopKind(), 0u);
  EXPECT_DOUBLE_EQ(t.flopUtilization(0), 512.0 / (double(t.cycles) * 132 * 256));
  EXPECT_DOUBLE_EQ(t.dramBandwidthUtilization(), 2048.0 / (t.seconds() * 4.8e12));
  harness::Json j;
  harness::timingJson(j, t);
  for (const char* key :
       {"\"flop_fp32\":512", "\"flop_total\":512", "\"arithmetic_intensity_flop_per_byte\":0.25",
        "\"roofline_compute_kind\":\"fp32\"", "\"roofline_compute_pct_of_peak\":",
        "\"roofline_dram_bandwidth_pct_of_peak\":", "\"bound\":\"latency\""})
    EXPECT_NE(j.str().find(key), std::string::npos) << key << " in " << j.str();
}

TEST(TimingRoofline, TheVerdictsRule) {
  TimingReport t;
  t.cycles = 1000;
  t.smCount = 1;
  t.smspPerSm = 4;
  t.clockGhz = 1;
  t.smActiveCyclesSum = 1000;
  t.peaks.flopPerCycle = {256, 128, 512, 4096};
  t.peaks.dramTbPerS = 1;
  t.dramBytesPerCycle = 100;
  t.l2BytesPerCycle = 1000;
  EXPECT_EQ(t.bound(), "latency");
  // FP64 at 70% of its peak with issue slots half as busy: compute.
  t.flops[1] = 128 * 700;
  t.warpInstructions = 1400;
  EXPECT_EQ(t.bound(), "compute");
  // DRAM at 80% of its bandwidth, above compute's 70%: memory.
  t.mem.dramReadBytes = 80000;
  EXPECT_EQ(t.bound(), "memory");
}

}  // namespace
}  // namespace warpsim::sim::timing
