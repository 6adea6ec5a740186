// How the commands that run kernels lower PTX: `--no-contract` executes every mul and add as
// written (each rounded on its own) instead of fusing the pairs that ptxas fuses (isa/contract.h).
#pragma once

#include <boost/program_options.hpp>

#include "sim/func/launch.h"

namespace warpsim::cli {

void addLoweringOptions(boost::program_options::options_description& opts);

// Sets `lo.contract` from the options.
void applyLoweringOptions(const boost::program_options::variables_map& vm, sim::LaunchOptions& lo);

}  // namespace warpsim::cli
