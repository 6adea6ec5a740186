// The watchdog's command-line options, shared by the commands that run kernels: --budget (per
// CTA), --time-limit (per launch), and Ctrl-C, which stops the running kernel and reports where
// every warp of the CTA it stopped stands. --stack-size (the per-thread call stack, as
// cudaLimitStackSize) is here too: the limits a launch runs under.
#pragma once

#include <boost/program_options.hpp>

#include <atomic>

#include "sim/func/launch.h"

namespace warpsim::cli {

void addWatchdogOptions(boost::program_options::options_description& opts);

// --malloc-heap-size (the device heap, as cudaLimitMallocHeapSize; part of the watchdog options,
// and on its own for commands without them).
void addHeapOption(boost::program_options::options_description& opts);
void applyHeapOption(const boost::program_options::variables_map& vm, sim::LaunchOptions& lo);

// Sets the budget, the time limit, the stack size and the interrupt flag (Ctrl-C) of `lo` from the
// options.
void applyWatchdogOptions(const boost::program_options::variables_map& vm, sim::LaunchOptions& lo);

// The flag that the first Ctrl-C sets (a second one ends the process as usual). The handler
// is installed on the first call.
const std::atomic<bool>* interruptFlag();

}  // namespace warpsim::cli
