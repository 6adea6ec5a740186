// Device-side assert(): nvcc compiles it to a call of __assertfail(message, file, line,
// function, charSize); the simulator stops the kernel with a fault of kind assertion and
// CUDA's text, "FILE:LINE: FUNCTION: Assertion `EXPR` failed.", at the first failing thread.
// tests/data/assert_positive.ptx is nvcc 13's PTX of tests/data/assert_positive.cu.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

std::string readData(const std::string& name) {
  std::ifstream f(std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/data" / name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct AssertRun {
  sim::LaunchResult result;
  std::vector<int32_t> out;
};

AssertRun runCheck(const std::vector<int32_t>& in) {
  PtxRunner r(readData("assert_positive.ptx"), "assert_positive.ptx");
  const uint32_t n = uint32_t(in.size());
  const uint64_t a = r.buffer<int32_t>(n, in), out = r.buffer<int32_t>(n);
  AssertRun run;
  run.result = r.launch("check_positive", {(n + 63) / 64, 1, 1}, {64, 1, 1},
                        {PtxRunner::ptr(a), PtxRunner::ptr(out), PtxRunner::u32(n)});
  run.out = r.read<int32_t>(out, n);
  return run;
}

TEST(Assert, PassingAssertionsDoNotFault) {
  std::vector<int32_t> in(200);
  for (int32_t i = 0; i < 200; ++i) in[size_t(i)] = i * 3;
  const AssertRun r = runCheck(in);
  ASSERT_FALSE(r.result.fault) << r.result.fault->describe("");
  for (int32_t i = 0; i < 200; ++i) EXPECT_EQ(r.out[size_t(i)], i * 6);
}

TEST(Assert, AFailedAssertionIsAFaultWithCudasText) {
  std::vector<int32_t> in(200, 5);
  in[137] = -1;  // block 2, thread 9
  in[170] = -2;  // a later block fails too; the first failing CTA in order is reported
  const AssertRun r = runCheck(in);
  ASSERT_TRUE(r.result.fault);
  const sim::FaultInfo& f = *r.result.fault;
  EXPECT_EQ(f.kind, sim::FaultKind::Assertion);
  EXPECT_EQ(f.message,
            "assert_positive.cu:8: void check_positive(const int *, int *, int): "
            "Assertion `in[i] >= 0` failed.");
  EXPECT_EQ(f.cta.x, 2u);
  EXPECT_EQ(f.thread.x, 9u);
  EXPECT_EQ(f.cudaFile, "tests/data/assert_positive.cu");
  EXPECT_EQ(f.cudaLine, 8u);
  EXPECT_EQ(f.instruction, "call.uni __assertfail");
  EXPECT_EQ(f.describe("assert_positive.ptx").rfind("kernel fault (assertion): ", 0), 0u);
}

}  // namespace
}  // namespace warpsim::test
