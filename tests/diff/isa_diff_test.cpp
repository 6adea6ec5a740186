// ISA-level differential property: random generated programs (harness/ptxgen) run on the GPU
// and in the simulator, and every output word must agree, or the difference must be one that
// the trace explains (harness/ptxgen/trace.h: a known behaviour of the driver's compilation).
// RapidCheck draws the seed and the program length, and shrinks a failure to the shortest
// program that still differs unexplained. Without a CUDA device the property is skipped,
// saying why (CI replays the recorded programs instead).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <filesystem>
#include <fstream>

#include "harness/cuda_backend.h"
#include "harness/nvcc.h"
#include "harness/ptxgen/isa_case.h"
#include "harness/ptxgen/trace.h"
#include "tests/support/rc_check.h"
#include "tests/support/temp_path.h"

namespace warpsim::ptxgen {
namespace {

namespace fs = std::filesystem;

TEST(IsaDiff, GeneratedProgramsAgreeWithTheGpuOrTheDifferenceIsExplained) {
  if (const std::string why = harness::cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  std::string ptxas;
  try {
    ptxas = harness::findPtxas();
  } catch (const harness::ToolError& e) {
    GTEST_SKIP() << e.what();
  }
  auto gpu = harness::makeCudaBackend();
  const fs::path dir = test::processTempPath("warpsim_isa_diff");
  fs::create_directories(dir);
  test::checkProperty("isa sim vs gpu", 300, 100, [&] {
    const uint64_t seed = *rc::gen::inRange<uint64_t>(1, uint64_t{1} << 40);
    GenOptions o;
    o.maxInstructions = *rc::gen::inRange(1u, 81u);
    o.minInstructions = std::min(o.minInstructions, o.maxInstructions);
    const GeneratedProgram g = generateProgram(seed, o);
    const std::string file = (dir / ("prog-" + std::to_string(seed) + ".ptx")).string();
    std::ofstream(file) << g.ptx;
    // A program that crashes ptxas would crash the driver's JIT, and this process with it.
    if (harness::ptxasVerdict(ptxas, file).rfind("crashed", 0) == 0) RC_DISCARD("crashes ptxas");
    const IsaCase c = caseFor(g, file);
    const std::vector<uint8_t> inputs = makeInputs(seed, g.inputs, g.threads());
    const IsaRun onGpu = runIsa(*gpu, g.ptx, file, c, inputs);
    if (onGpu.fault) RC_FAIL("faulted on the GPU: " + onGpu.fault->message);
    const IsaRun onSim = runIsaInSimulator(g.ptx, file, c, inputs);
    if (onSim.fault) RC_FAIL(onSim.fault->describe(file));
    const std::string difference = describeDifference(c, g.ptx, onGpu.out, onSim.out);
    if (difference.empty()) return;
    const Divergence d = explainDifference(*gpu, g.ptx, c, inputs);
    if (d.category.empty())
      RC_FAIL("seed " + std::to_string(seed) + ": " + difference + "\n" + d.text);
  });
}

}  // namespace
}  // namespace warpsim::ptxgen
