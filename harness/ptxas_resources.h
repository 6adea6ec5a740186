// What ptxas makes of a module's kernels for sm_90: registers per thread and static shared
// memory (`ptxas -arch=sm_90 -v`), for the timing model's occupancy, and each function's stack
// frame, for the call stack limit (sim/func/call_stack.h). The chip runs what ptxas
// made, so its register count, not the PTX's, decides how many CTAs fit on an SM.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "sim/timing/occupancy.h"

namespace warpsim::harness {

struct PtxasResources {
  std::map<std::string, sim::timing::KernelResources> kernels;  // by entry name
  // Each function's stack frame in bytes ("Function properties for f / N bytes stack frame"),
  // entries and device functions, by PTX name: the call stack model's frame sizes.
  std::map<std::string, uint32_t> stackFrames;
  std::string error;  // why ptxas gave nothing ("" when it ran): the caller says so and falls back
  // With `sass`: the SASS ptxas made (nvdisasm of its cubin), or why there is none.
  std::shared_ptr<const sim::timing::SassListing> sass;
  std::string sassError;
};

// Runs ptxas once on `ptx` (in a temporary directory). With `sass`, ptxas also writes line info
// (-lineinfo: the same code) and nvdisasm lists the cubin (harness/sass_listing.h); every
// kernel's KernelResources::sass then points at the module's listing.
PtxasResources ptxasResources(const std::string& ptx, bool sass = false);

// Parses ptxas -v output (exposed for tests).
std::map<std::string, sim::timing::KernelResources> parsePtxasVerbose(const std::string& text);
std::map<std::string, uint32_t> parsePtxasStackFrames(const std::string& text);

}  // namespace warpsim::harness
