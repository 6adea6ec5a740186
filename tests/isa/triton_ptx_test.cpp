// PTX in the form Triton 3.x emits for sm_90 (tests/data/triton/*.ptx, written for these tests
// in that form): one-element vector operands in braces, spaces inside brackets, hidden trailing
// pointer parameters, .target sm_90a, a one-size .reqntid, DWARF sections, the unsized extern
// global_smem with 32-bit shared addresses. Parsed, lowered and run against CPU references.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/parser.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

std::string tritonPtx(const std::string& name) {
  std::ifstream f(std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/data/triton" / name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Deterministic f32 inputs in [-4, 4), exact (multiples of 2^-21).
std::vector<float> inputs(uint64_t seed, size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    v[i] = float(double(z >> 40) * 0x1p-21 - 4.0);
  }
  return v;
}

TEST(TritonPtx, BracedSingleElementsAndSpacedAddressesParse) {
  const ir::Module m = isa::parseModule(tritonPtx("add_kernel.ptx"), "add_kernel.ptx");
  ASSERT_EQ(m.target, "sm_90a");
  const ir::Function* k = m.findFunction("add_kernel");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->params.size(), 6u);  // four of the kernel's own, global_scratch, profile_scratch
  EXPECT_EQ(k->reqntid[0], 128u);
  EXPECT_EQ(k->reqntid[1], 1u);
  int singles = 0;
  for (const ir::Statement& s : k->body) {
    if (s.kind != ir::Statement::Kind::Instr) continue;
    const ir::Instruction& in = s.instr;
    if (in.opcode != "ld" && in.opcode != "st") continue;
    for (const ir::Operand& o : in.operands) {
      if (o.kind == ir::OperandKind::Vector && o.elems.size() == 1) ++singles;
      if (o.kind == ir::OperandKind::Address && in.mods[0] == "global") {
        EXPECT_EQ(o.baseKind, ir::OperandKind::Reg);
      }
    }
  }
  EXPECT_EQ(singles, 8);  // four loads and four stores of one element
}

TEST(TritonPtx, VectorAddRunsWithHiddenScratchParameters) {
  PtxRunner r(tritonPtx("add_kernel.ptx"), "add_kernel.ptx");
  constexpr uint32_t n = 2500;  // three programs of 1024, the last one ragged
  const auto x = inputs(11, n), y = inputs(12, n);
  const uint64_t dx = r.buffer<float>(n, x), dy = r.buffer<float>(n, y);
  const uint64_t out = r.buffer<float>(n + 64, std::vector<float>(n + 64, -7.0f));
  const auto res = r.launch("add_kernel", {3, 1, 1}, {128, 1, 1},
                            {PtxRunner::ptr(dx), PtxRunner::ptr(dy), PtxRunner::ptr(out),
                             PtxRunner::u32(n), PtxRunner::ptr(0), PtxRunner::ptr(0)});
  ASSERT_FALSE(res.fault) << res.fault->describe("add_kernel.ptx");
  const auto got = r.read<float>(out, n + 64);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], x[i] + y[i]) << i;
  for (uint32_t i = n; i < n + 64; ++i) ASSERT_EQ(got[i], -7.0f) << i;  // masked off
}

TEST(TritonPtx, RowSoftmaxWithCrossWarpReductionMatchesTheMath) {
  PtxRunner r(tritonPtx("softmax_kernel.ptx"), "softmax_kernel.ptx");
  constexpr uint32_t rows = 5, cols = 300;
  const auto x = inputs(21, size_t(rows) * cols);
  const uint64_t dx = r.buffer<float>(x.size(), x);
  const uint64_t out = r.buffer<float>(x.size());
  const auto res = r.launch("softmax_kernel", {rows, 1, 1}, {128, 1, 1},
                            {PtxRunner::ptr(out), PtxRunner::ptr(dx), PtxRunner::u32(cols),
                             PtxRunner::u32(cols), PtxRunner::ptr(0), PtxRunner::ptr(0)},
                            {}, 16);  // Triton's launcher passes its shared memory as dynamic
  ASSERT_FALSE(res.fault) << res.fault->describe("softmax_kernel.ptx");
  const auto got = r.read<float>(out, x.size());
  for (uint32_t row = 0; row < rows; ++row) {
    double mx = -INFINITY, sum = 0;
    for (uint32_t c = 0; c < cols; ++c) mx = std::max(mx, double(x[row * cols + c]));
    for (uint32_t c = 0; c < cols; ++c) sum += std::exp(double(x[row * cols + c]) - mx);
    for (uint32_t c = 0; c < cols; ++c) {
      const double want = std::exp(double(x[row * cols + c]) - mx) / sum;
      // ex2.approx (2 ulp) and div.full (2 ulp) on f32 sums: a few parts in 10^6.
      ASSERT_NEAR(got[row * cols + c], want, 4e-6 * want + 1e-12) << row << "," << c;
    }
  }
  EXPECT_GT(res.stats.barriers, 0u);
}

}  // namespace
}  // namespace warpsim::test
