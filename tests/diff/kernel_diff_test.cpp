// Kernel-level differential property: each suite kernel on random sizes and inputs runs on the
// simulator and on the GPU, and every output must agree (bit for bit, or within the card's ULP
// tolerance). RapidCheck shrinks a failure to the smallest size and seed. Without a CUDA
// device the properties are skipped, saying why (CI replays the recorded cases instead).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "harness/cuda_backend.h"
#include "harness/report.h"
#include "harness/suite.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

class KernelDiff : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string why = harness::cudaUnavailableReason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(KernelDiff, SimulatorEqualsGpuOnRandomSizesAndInputs) {
  const kernels::Card& card = *kernels::findCard(GetParam());
  auto gpu = harness::makeCudaBackend();
  test::checkProperty(card.name + " sim vs gpu", 10, 100, [&] {
    const uint64_t hi = std::max(card.minSize, card.maxSize);
    const uint64_t size = *rc::gen::inRange<uint64_t>(card.minSize, hi + 1);
    const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
    const harness::CardResult onGpu = harness::runCard(*gpu, card, size, seed);
    const harness::CardResult onSim = harness::runCardOnSim(card, size, seed);
    RC_ASSERT(!onGpu.run.fault);
    if (onSim.run.fault) RC_FAIL(onSim.run.fault->describe(card.source + ".ptx"));
    const harness::Comparison c =
        harness::compareOutputs(onGpu.run.buffers, onSim.run.buffers, card.tolerance.maxUlp);
    if (!c.ok())
      RC_FAIL(std::to_string(c.mismatches) + " elements differ from the GPU, first " +
              harness::formatMismatch(onSim.run.buffers, c.first.front()));
  });
}

std::vector<std::string> names() {
  std::vector<std::string> v;
  for (const auto& c : kernels::allCards()) v.push_back(c.name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllCards, KernelDiff, ::testing::ValuesIn(names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace warpsim
