// The cycles the timing model predicts for one CTA of kernel `k` with one u32 buffer argument:
// the exact-cycle tests' small PTX kernels, with ptxas's resources for it when given.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {

inline uint64_t oneCtaCycles(const std::string& ptx, const sim::timing::TimingConfig& c,
                             const sim::timing::KernelResources* resources = nullptr,
                             const char* name = "timing_test.ptx") {
  PtxRunner r(ptx, name);
  sim::timing::TimingModel model(c);
  if (resources) model.setResources("k", *resources);
  sim::LaunchOptions o;
  o.runner = &model;
  const auto res =
      r.launch("k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(r.buffer<uint32_t>(32))}, o);
  EXPECT_FALSE(res.fault.has_value()) << res.fault->message;
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport() ? model.lastReport()->cycles : 0;
}

}  // namespace warpsim::test
