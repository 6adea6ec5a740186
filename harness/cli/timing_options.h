// --timing, --timing-config FILE, --print-timing-config, and what a timed run records besides
// the prediction (--trace FILE, --trace-limit N, --source-lines N, --timing-sample K), shared by
// the commands that run kernels (run, suite, bench).
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <ostream>
#include <vector>

#include "sim/timing/config.h"
#include "sim/timing/report.h"

namespace warpsim::cli {

void addTimingOptions(boost::program_options::options_description& opts);

// The configuration when timing was asked for (--timing, or --timing-config FILE over the
// built-in H200 defaults, or an option that needs the model); empty otherwise. Its `run` holds
// --trace, --source-lines and --timing-sample. Throws harness::ArgError naming the option and
// the file's problem.
std::optional<sim::timing::TimingConfig> timingFrom(
    const boost::program_options::variables_map& vm);

// Whether --print-timing-config was given.
bool printTimingConfig(const boost::program_options::variables_map& vm);

// How many source lines the text report lists (--source-lines N; 0 without it).
unsigned sourceLinesShown(const boost::program_options::variables_map& vm);

// After a run with --trace: says on `err` where the trace went, how many events it holds and,
// when the limit dropped some, how many and how to keep them.
void noteTrace(const sim::timing::TimingConfig& c,
               const std::vector<sim::timing::TimingReport>& launches, std::ostream& err);

}  // namespace warpsim::cli
