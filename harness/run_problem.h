// Runs a Problem (buffers + launches, from a kernel card or from `warpsim run` arguments) on
// a backend: allocate, copy in, launch in order, copy every buffer back.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "kernels/card.h"

namespace warpsim::harness {

struct ProblemRun {
  std::vector<kernels::HostBuffer> buffers;  // contents after the last launch
  std::vector<uint64_t> addresses;           // each buffer's device address
  sim::Stats stats;                          // summed over the launches
  std::optional<sim::FaultInfo> fault;       // the first fault; later launches did not run
  size_t faultedLaunch = 0;
  std::string printfOutput;
  double seconds = 0;
  std::vector<sim::WriteRecord> writes;            // simulator, with LaunchOptions::watch
  std::vector<sim::timing::TimingReport> timings;  // timed simulator: one per launch that ran
};

// The backend must have the problem's module loaded.
ProblemRun runProblem(Backend& backend, const kernels::Problem& problem);

}  // namespace warpsim::harness
