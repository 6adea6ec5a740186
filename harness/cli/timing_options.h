// --timing, --timing-config FILE and --print-timing-config, shared by the commands that run
// kernels (run, suite, bench).
#pragma once

#include <boost/program_options.hpp>

#include <optional>

#include "sim/timing/config.h"

namespace warpsim::cli {

void addTimingOptions(boost::program_options::options_description& opts);

// The configuration when timing was asked for (--timing, or --timing-config FILE over the
// built-in H200 defaults); empty otherwise. Throws harness::ArgError naming the option and the
// file's problem.
std::optional<sim::timing::TimingConfig> timingFrom(
    const boost::program_options::variables_map& vm);

// Whether --print-timing-config was given.
bool printTimingConfig(const boost::program_options::variables_map& vm);

}  // namespace warpsim::cli
