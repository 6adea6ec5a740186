// One PTX text through the whole front end and a small launch, for fuzzing (the RapidCheck
// harness in tests/fuzz and the libFuzzer target share it): parse, allocate module variables,
// lower, then launch up to two of its kernels on a small grid with a small instruction budget.
// Bad input must end in a user error (PtxError pointing inside the text, LaunchError,
// OutOfDeviceMemory) or a kernel fault; anything else is a problem reported as text. A crash
// or a hang is found by the caller (the process dies; the HangGuard fires).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "sim/gpu.h"
#include "tests/support/ptx_mutate.h"

namespace warpsim::test {

// What one fuzz run may take: 64 MiB of device memory, 20,000 warp-instructions per launch,
// one host thread.
inline constexpr uint64_t kFuzzDeviceMemory = 64ull << 20;
inline constexpr uint64_t kFuzzBudget = 20'000;

// "" when `text` is handled cleanly; else what went wrong. `shape` (any number) picks the grid,
// block and scalar argument values, so that callers can vary them.
inline std::string fuzzLaunch(const std::string& text, uint32_t shape = 0) {
  sim::Gpu gpu(kFuzzDeviceMemory);
  const sim::LoadedModule* m = nullptr;
  try {
    m = &gpu.loadPtx(text, "fuzz.ptx");
  } catch (const isa::PtxError& e) {
    return ptxErrorProblem(text, e);
  } catch (const std::exception& e) {
    return std::string("loading threw something other than a PtxError: ") + e.what();
  }
  int launched = 0;
  for (const isa::FunctionCode& fn : m->program.functions) {
    if (!fn.isEntry || fn.isExtern || launched == 2) continue;
    ++launched;
    std::vector<std::vector<uint8_t>> args;
    try {
      for (const isa::ParamSlot& p : fn.params) {
        std::vector<uint8_t> a(p.bytes, 0);
        if (p.bytes == 8) {  // most likely a pointer: give it a buffer
          const uint64_t buf = gpu.memory().allocate(4096, "buffer '" + p.name + "'");
          std::memcpy(a.data(), &buf, 8);
        } else if (p.bytes == 4) {
          const uint32_t v = shape % 3 == 0 ? 64 : shape % 3 == 1 ? 0 : 0xFFFFFFFFu;
          std::memcpy(a.data(), &v, 4);
        }
        args.push_back(std::move(a));
      }
      sim::LaunchConfig c;
      c.entry = fn.name;
      c.grid = {1 + shape % 2, 1, 1};
      c.block = {shape % 4 == 3 ? 33u : 32u * (1 + shape % 2), 1, 1};
      c.params = gpu.packParams(*m, fn.name, args);
      sim::LaunchOptions o;
      o.threads = 1;
      o.instructionBudget = kFuzzBudget;
      gpu.launch(*m, c, o);  // a kernel fault is a result, not a problem
    } catch (const sim::LaunchError&) {
    } catch (const sim::OutOfDeviceMemory&) {
    } catch (const isa::PtxError&) {  // the kernel reaches a function that could not be built
    } catch (const std::exception& e) {
      return "launching '" + fn.name + "' threw " + e.what();
    }
  }
  return {};
}

}  // namespace warpsim::test
