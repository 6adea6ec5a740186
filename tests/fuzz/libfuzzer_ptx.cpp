// A libFuzzer target over the front end and the launch path, for long runs with coverage
// guidance (the RapidCheck harness in launch_fuzz_test.cpp is CI's short run). Built only with
// clang and -DWARPSIM_LIBFUZZER=ON; the command is in docs/RELIABILITY.md. An input that is
// not handled cleanly aborts, so libFuzzer saves it as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/support/fuzz_launch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string problem = warpsim::test::fuzzLaunch(text, uint32_t(size));
  if (!problem.empty()) {
    std::fprintf(stderr, "warpsim fuzz: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
