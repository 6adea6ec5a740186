// The host memory a launch takes for .local does not grow with the host's cores: each CTA in
// flight holds its threads' local memory (up to 512 KiB a thread), so the functional driver runs
// no more CTAs side by side than the device memory holds (sim/func/grid.cpp).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <string>

#include "tests/support/shell.h"

namespace warpsim {
namespace {

TEST(LocalMemoryLimit, CtasInFlightAreBoundedByTheDeviceMemory) {
  // 512 KiB of .local a thread, 256 threads a CTA: 128 MiB a CTA. On 16 host threads that was
  // 2 GiB of host memory; with 256 MiB of device memory at most two CTAs run side by side.
  const std::string ptx = std::string(WARPSIM_SOURCE_DIR) + "/tests/data/big_local.ptx";
  const test::Outcome o =
      test::shell("/usr/bin/time -f 'peak_kib %M' " + std::string(WARPSIM_BINARY) + " run " + ptx +
                  " --kernel big_local --grid 16 --block 256 --threads 16 --device-memory 256MiB");
  ASSERT_EQ(o.status, 0) << o.output;
  const size_t at = o.output.rfind("peak_kib ");
  ASSERT_NE(at, std::string::npos) << o.output;
  const long peakKib = std::stol(o.output.substr(at + 9));
  EXPECT_LT(peakKib, 700 * 1024) << o.output;  // two CTAs' 256 MiB and the rest
}

}  // namespace
}  // namespace warpsim
