// The per-thread call stack limit (sim/func/call_stack.h): a recursive call past
// cudaLimitStackSize is a stack-overflow fault that names the thread, block and PTX line; frame
// sizes are ptxas's when given, else estimated from the PTX; kernels without recursion are not
// checked (the driver sizes their stack).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "harness/backend.h"
#include "harness/ptxas_resources.h"
#include "sim/func/call_stack.h"
#include "tests/support/ptx_runner.h"
#include "tests/support/shell.h"

namespace warpsim {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const std::string& recursivePtx() {
  static const std::string text =
      readFile(std::string(WARPSIM_SOURCE_DIR) + "/tests/data/recursive_depth.ptx");
  return text;
}

// Launches rec_depth with `depth` on `threads` threads; returns the result and the depths the
// threads wrote.
struct DepthRun {
  sim::LaunchResult result;
  std::vector<uint32_t> out;
};
DepthRun runDepth(uint32_t depth, sim::LaunchOptions options = {}, unsigned threads = 1,
                  unsigned blocks = 1) {
  test::PtxRunner r(recursivePtx(), "recursive_depth.ptx");
  const uint64_t out = r.buffer<uint32_t>(threads);
  DepthRun d;
  d.result = r.launch("rec_depth", {blocks, 1, 1}, {threads, 1, 1},
                      {test::PtxRunner::u32(depth), test::PtxRunner::ptr(out)}, options);
  d.out = r.read<uint32_t>(out, threads);
  return d;
}

TEST(StackLimit, EstimatedFramesAreLocalPlusParamBytes) {
  sim::Gpu gpu;
  const sim::LoadedModule& m = gpu.loadPtx(recursivePtx(), "recursive_depth.ptx");
  const isa::Program& p = m.program;
  // down: .param ret, n and its call site's a, r (4 bytes each); the kernel: its call site's.
  EXPECT_EQ(sim::estimatedFrameBytes(p.functions[size_t(p.findFunction("down"))]), 16u);
  EXPECT_EQ(sim::estimatedFrameBytes(p.functions[size_t(p.findEntry("rec_depth"))]), 8u);
  EXPECT_TRUE(sim::hasRecursion(p));
  EXPECT_TRUE(sim::reachesRecursion(p, p.findEntry("rec_depth")));
}

TEST(StackLimit, DeepestRecursionThatFitsRuns) {
  // 8 bytes of kernel frame + 63 frames of 16 bytes = 1016 <= 1024.
  const DepthRun d = runDepth(62);
  ASSERT_FALSE(d.result.fault) << d.result.fault->message;
  EXPECT_EQ(d.out[0], 62u);
}

TEST(StackLimit, OneCallDeeperOverflowsTheDefaultStack) {
  const DepthRun d = runDepth(63, {}, 40, 2);
  ASSERT_TRUE(d.result.fault);
  const sim::FaultInfo& f = *d.result.fault;
  EXPECT_EQ(f.kind, sim::FaultKind::StackOverflow);
  EXPECT_EQ(f.message,
            "call 64 deep, of 'down' (a frame of 16 bytes, estimated from the "
            "PTX), needs 1032 bytes of stack per thread; the limit is 1024 (cudaLimitStackSize; "
            "--stack-size)");
  EXPECT_EQ(f.ptxLine, 20u);  // the call inside down
  EXPECT_EQ(f.instruction.substr(0, 4), "call");
  EXPECT_EQ(f.cta.x, 0u);
  EXPECT_EQ(f.thread.x, 0u);
  EXPECT_EQ(d.result.ctasRun, 2u);  // the fault's batch runs to its end (fault determinism)
  EXPECT_NE(f.describe("recursive_depth.ptx").find("(recursive_depth.ptx:20, call"),
            std::string::npos)
      << f.describe("recursive_depth.ptx");
}

TEST(StackLimit, TheLimitIsConfigurable) {
  sim::LaunchOptions o;
  o.stackSize = 2048;  // 8 + 16 k <= 2048: 127 calls
  EXPECT_FALSE(runDepth(126, o).result.fault);
  const DepthRun d = runDepth(127, o);
  ASSERT_TRUE(d.result.fault);
  EXPECT_EQ(d.result.fault->kind, sim::FaultKind::StackOverflow);
  EXPECT_NE(d.result.fault->message.find("needs 2056 bytes"), std::string::npos);
  o.stackSize = 0;  // not even the first call fits
  EXPECT_NE(runDepth(0, o).result.fault->message.find("call 1 deep"), std::string::npos);
}

TEST(StackLimit, PtxasFrameSizesReplaceTheEstimate) {
  sim::LaunchOptions o;
  o.frameBytes = {{"down", 16}, {"rec_depth", 0}};  // what ptxas -v says of this module
  EXPECT_FALSE(runDepth(63, o).result.fault);       // 64 x 16 = 1024
  const DepthRun d = runDepth(64, o);
  ASSERT_TRUE(d.result.fault);
  EXPECT_EQ(d.result.fault->message,
            "call 65 deep, of 'down' (a frame of 16 bytes, ptxas's), needs 1040 "
            "bytes of stack per thread; the limit is 1024 (cudaLimitStackSize; --stack-size)");
}

TEST(StackLimit, KernelsWithoutRecursionAreNotChecked) {
  // A call chain of two big frames: more than 1 KiB, but the driver sizes such a stack itself.
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.func leaf(.param .b8 big[2000])
{
  ret;
}
.visible .entry k()
{
  .param .b8 p[2000];
  call.uni leaf, (p);
  ret;
}
)";
  test::PtxRunner r(ptx);
  const int entry = r.module().program.findEntry("k");
  EXPECT_FALSE(sim::reachesRecursion(r.module().program, entry));
  EXPECT_FALSE(sim::callStackModel(r.module().program, entry, 1024, {}).checked);
  EXPECT_FALSE(r.launch("k", {1, 1, 1}, {32, 1, 1}, {}).fault);
}

TEST(StackLimit, MutualRecursionIsFound) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.func b();
.func a()
{
  call.uni b, ();
  ret;
}
.func b()
{
  call.uni a, ();
  ret;
}
.func c()
{
  ret;
}
.visible .entry k()
{
  call.uni a, ();
  ret;
}
.visible .entry j()
{
  call.uni c, ();
  ret;
}
)";
  test::PtxRunner r(ptx);
  const isa::Program& p = r.module().program;
  EXPECT_TRUE(sim::reachesRecursion(p, p.findEntry("k")));
  EXPECT_FALSE(sim::reachesRecursion(p, p.findEntry("j")));
  // Endless mutual recursion ends in an overflow, not in host memory running out.
  const sim::LaunchResult res = r.launch("k", {1, 1, 1}, {32, 1, 1}, {});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::StackOverflow);
}

TEST(StackLimit, ParsesPtxasStackFrames) {
  const std::string text =
      "ptxas info    : Compiling entry function 'calls_recursive' for 'sm_90'\n"
      "ptxas info    : Function properties for calls_recursive\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 28 registers, used 0 barriers\n"
      "ptxas info    : Function properties for _Z12compositionsj\n"
      "    40 bytes stack frame, 40 bytes spill stores, 40 bytes spill loads\n";
  const auto frames = harness::parsePtxasStackFrames(text);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames.at("calls_recursive"), 0u);
  EXPECT_EQ(frames.at("_Z12compositionsj"), 40u);
}

TEST(StackLimit, TheSimBackendUsesPtxasFramesWhenItCan) {
  sim::LaunchOptions o;
  auto backend = harness::makeSimBackend(o);
  backend->loadModule(recursivePtx(), "recursive_depth.ptx");
  const uint64_t out = backend->allocate(4, "out");
  harness::LaunchSpec spec;
  spec.entry = "rec_depth";
  spec.grid = {1, 1, 1};
  spec.block = {1, 1, 1};
  spec.args = {test::PtxRunner::u32(200), test::PtxRunner::ptr(out)};
  const harness::LaunchOutcome res = backend->launch(spec);
  ASSERT_TRUE(res.fault);
  const bool ptxas = harness::ptxasResources(recursivePtx()).error.empty();
  EXPECT_NE(
      res.fault->message.find(ptxas ? "call 65 deep, of 'down' (a frame of 16 bytes, ptxas's)"
                                    : "call 64 deep, of 'down' (a frame of 16 bytes, estimated"),
      std::string::npos)
      << res.fault->message;
}

TEST(StackLimit, CommandLineOption) {
  const test::Outcome bad =
      test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                  " run tests/data/recursive_depth.ptx --kernel rec_depth "
                  "--grid 1 --block 1 --arg u32:100 --arg 'out=u32[1]' "
                  "--stack-size 4096");
  EXPECT_EQ(bad.status, 0) << bad.output;  // 100 calls fit 4 KiB
  const test::Outcome over =
      test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                  " run tests/data/recursive_depth.ptx --kernel rec_depth "
                  "--grid 1 --block 1 --arg u32:100 --arg 'out=u32[1]'");
  EXPECT_EQ(over.status, 1) << over.output;
  EXPECT_NE(over.output.find("kernel fault (stack overflow): call 6"), std::string::npos)
      << over.output;
  EXPECT_NE(over.output.find("thread (0,0,0) block (0,0,0)"), std::string::npos) << over.output;
}

}  // namespace
}  // namespace warpsim
