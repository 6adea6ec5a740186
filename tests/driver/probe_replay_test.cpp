// Probes that printed their results on the H200, run again under `warpsim exec` and compared
// with the chip's output line for line (every line must agree):
//   scripts/probes/mma/m8n8k4_probe.cu              mma.sync m8n8k4 row.col f32.f16.f16.f32:
//     which products each lane's results sum (the quad pairs' layouts); the chip's output
//     beside the probe (H200, 2026-12-05);
//   scripts/probes/bulk_reduce/bulk_reduce_probe.cu  cp.reduce.async.bulk in every (op, type)
//     over edge values, the cluster form and the tensor form under FLOAT32 and FLOAT32_FTZ;
//   scripts/probes/bulk_reduce/im2col_probe.cu       TMA im2col boxes over every filter tap;
// the latter two's chip outputs in tests/recorded/bulk_reduce/ (xz; H200, 2026-12-05,
// `bash scripts/device_bulk_reduce.sh`);
//   kernels/programs/cuda_graphs.cu                  CUDA graphs (built, captured, cloned,
//     conditional nodes, capture errors): tests/recorded/programs/cuda_graphs.chip.txt (H100,
//     2026-12-05, `JOBS=probes PROBES=kernels/programs/cuda_graphs.cu bash
//     scripts/device_batch.sh`);
//   scripts/probes/trap/trap_probe.cu                a trap, __trap(), a failed assert and an
//     out-of-bounds store: tests/recorded/programs/trap_probe.chip.txt (H100, 2026-12-06,
//     `bash scripts/device_trap.sh`).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shell.h"

namespace {

using warpsim::test::lines;

// The chip's output (`reader` prints it: cat or xz -dc) against the probe's under warpsim exec.
void expectAgrees(const std::string& reader, const std::string& chipFile,
                  const std::string& probe) {
  const warpsim::test::Outcome chip =
      warpsim::test::shell(reader + " " + std::string(WARPSIM_SOURCE_DIR) + "/" + chipFile);
  if (chip.status != 0) GTEST_SKIP() << "could not read the chip's output: " << chip.output;
  // stdout alone: warpsim's own notes on stderr are not the program's output.
  const warpsim::test::Outcome sim =
      warpsim::test::shell("(" + std::string(WARPSIM_BINARY) + " exec " + WARPSIM_PROGRAMS_DIR +
                           "/" + probe + " 2>/dev/null)");
  ASSERT_EQ(sim.status, 0) << sim.output;
  const std::vector<std::string> want = lines(chip.output), got = lines(sim.output);
  ASSERT_EQ(got.size(), want.size()) << probe;
  unsigned differing = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] != got[i] && ++differing <= 5)
      ADD_FAILURE() << probe << " line " << i + 1 << ": chip '" << want[i] << "', warpsim '"
                    << got[i] << "'";
  EXPECT_EQ(differing, 0u) << probe << ": of " << want.size() << " lines";
}

TEST(ProbeReplay, MmaM8n8k4AgreesWithTheH200) {
  expectAgrees("cat", "scripts/probes/mma/m8n8k4_probe.h200.txt", "m8n8k4_probe");
}

TEST(ProbeReplay, BulkReduceAgreesWithTheH200) {
  expectAgrees("xz -dc", "tests/recorded/bulk_reduce/bulk_reduce_probe.h200.txt.xz",
               "bulk_reduce_probe");
}

TEST(ProbeReplay, Im2colAgreesWithTheH200) {
  expectAgrees("xz -dc", "tests/recorded/bulk_reduce/im2col_probe.h200.txt.xz", "im2col_probe");
}

}  // namespace

// Each way a kernel stops itself, in a process of its own as on the chip (scripts/device_trap.sh,
// an H100 the device tool lent, 2026-12-06): a trap is an unspecified launch failure, a failed
// assert cudaErrorAssert, an out-of-bounds store an illegal address.
TEST(ProbeReplay, KernelsThatStopThemselvesReportTheChipsErrors) {
  const warpsim::test::Outcome chip = warpsim::test::shell(
      "cat " + std::string(WARPSIM_SOURCE_DIR) + "/tests/recorded/programs/trap_probe.chip.txt");
  ASSERT_EQ(chip.status, 0) << chip.output;
  const std::vector<std::string> want = lines(chip.output);
  const std::vector<std::string> cases = {"trap", "__trap", "assert", "oob"};
  ASSERT_GE(want.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const warpsim::test::Outcome sim =
        warpsim::test::shell("(" + std::string(WARPSIM_BINARY) + " exec " + WARPSIM_PROGRAMS_DIR +
                             "/trap_probe " + cases[i] + " 2>/dev/null)");
    EXPECT_EQ(sim.status, 0) << cases[i];
    EXPECT_EQ(lines(sim.output), std::vector<std::string>{want[i]}) << cases[i];
  }
}

TEST(ProbeReplay, CudaGraphsPrintWhatTheChipPrints) {
  expectAgrees("cat", "tests/recorded/programs/cuda_graphs.chip.txt", "cuda_graphs");
}
