// The SASS that ptxas makes of a module, as nvdisasm lists it with line info: each
// instruction's source line, kind and the fixed stall count of its control bits, for the
// timing model's fixed stalls (sim/timing/sass_stalls.h).
#pragma once

#include <string>

#include "sim/timing/sass_stalls.h"

namespace warpsim::harness {

// The nvdisasm to use: $WARPSIM_NVDISASM, the one beside `ptxas`, or PATH's; "" when there is
// none (the caller falls back and says so).
std::string findNvdisasm(const std::string& ptxas);

// Parses `nvdisasm -c -g -hex` of a cubin: per function, its instructions in order (NOPs, which
// never issue in a warp's path, left out). Instructions whose encoding is not shown are skipped.
sim::timing::SassListing parseNvdisasm(const std::string& text);

}  // namespace warpsim::harness
