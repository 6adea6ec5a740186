// How many CTAs of a kernel fit on one SM at once, and what limits it: registers (allocated per
// warp in units), shared memory (the carve-out, 1 KB reserved per CTA), warps, threads, CTAs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "sim/timing/config.h"
#include "sim/timing/sass_stalls.h"

namespace warpsim::sim::timing {

// What a kernel needs per thread and per CTA, and where the numbers came from.
struct KernelResources {
  uint32_t registers = 32;     // per thread
  uint32_t staticShared = 0;   // bytes
  std::string source = "ptx";  // "ptxas" (ptxas -arch=sm_90 -v) or "ptx" (declarations; 32
                               // registers assumed)
  // Bytes of stack frame per function of the module (ptxas -v "N bytes stack frame"): the
  // registers a call saves to local memory in SASS and its return restores.
  std::map<std::string, uint32_t> stackFrames;
  // The module's SASS (ptxas + nvdisasm), for the fixed stalls (ptxas.sass_stalls); null when
  // none was asked for or could be made, `sassNote` then says why (empty: not asked for).
  std::shared_ptr<const SassListing> sass;
  std::string sassNote;
};

struct Occupancy {
  uint32_t ctasPerSm = 0;
  uint32_t warpsPerCta = 0;
  uint32_t registersPerThread = 0;
  uint32_t sharedPerCta = 0;   // static + dynamic + reserved, bytes
  uint32_t carveoutKb = 0;     // shared memory carve-out the driver picks
  uint32_t l1Bytes = 0;        // what the unified array leaves the L1
  std::string limiter;         // registers, shared, warps, threads, ctas
  std::string resourceSource;  // KernelResources::source
  double theoretical() const;  // resident warps / max warps, with maxWarps given at compute
  uint32_t maxWarpsPerSm = 64;
};

// Throws ConfigError when a CTA cannot fit on an SM at all (it names the resource).
Occupancy computeOccupancy(const TimingConfig& c, const KernelResources& k, uint32_t threadsPerCta,
                           uint32_t dynamicShared);

}  // namespace warpsim::sim::timing
