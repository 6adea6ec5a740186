// Human and machine (JSON) renderings of launch statistics, faults and comparisons.
#pragma once

#include <string>

#include "harness/compare.h"
#include "harness/json.h"
#include "sim/func/fault.h"
#include "sim/observers/statistics.h"

namespace warpsim::harness {

// A block of "key: value" lines: instructions by class, SIMD efficiency, memory behaviour.
std::string formatStats(const sim::Stats& s);
void statsJson(Json& j, const sim::Stats& s);
void faultJson(Json& j, const sim::FaultInfo& f, const std::string& ptxPath);
// "buffer out[17]: expected 0x... (1.5), got 0x... (1.25), 3 ulp"
std::string formatMismatch(const std::vector<kernels::HostBuffer>& buffers, const Mismatch& m);

}  // namespace warpsim::harness
