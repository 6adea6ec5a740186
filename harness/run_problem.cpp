#include "harness/run_problem.h"

#include <cstring>

namespace warpsim::harness {

ProblemRun runProblem(Backend& backend, const kernels::Problem& problem) {
  ProblemRun run;
  run.buffers = problem.buffers;
  for (const kernels::HostBuffer& b : problem.buffers) {
    const uint64_t a =
        backend.allocate(std::max<uint64_t>(b.bytes.size(), 1), "buffer '" + b.name + "'");
    backend.copyIn(a, b.bytes.data(), b.bytes.size());
    run.addresses.push_back(a);
  }
  for (size_t li = 0; li < problem.launches.size(); ++li) {
    const kernels::Launch& l = problem.launches[li];
    LaunchSpec spec;
    spec.entry = l.entry;
    spec.grid = {l.grid.x, l.grid.y, l.grid.z};
    spec.block = {l.block.x, l.block.y, l.block.z};
    spec.dynamicShared = l.dynamicShared;
    spec.cluster = {l.cluster.x, l.cluster.y, l.cluster.z};
    spec.cooperative = l.cooperative;
    for (const kernels::KernelArg& a : l.args) spec.args.push_back(a.paramBytes(run.addresses));
    LaunchOutcome o = backend.launch(spec);
    run.stats.merge(o.stats);
    run.printfOutput += o.printfOutput;
    run.seconds += o.seconds;
    run.writes.insert(run.writes.end(), o.writes.begin(), o.writes.end());
    if (o.timing) run.timings.push_back(*o.timing);
    if (o.fault) {
      run.fault = std::move(o.fault);
      run.faultedLaunch = li;
      break;
    }
  }
  try {
    for (size_t i = 0; i < run.buffers.size(); ++i)
      backend.copyOut(run.buffers[i].bytes.data(), run.addresses[i], run.buffers[i].bytes.size());
    for (uint64_t a : run.addresses) backend.free(a);
  } catch (const std::exception&) {
    // After a kernel fault a GPU context refuses every further call; the fault is the result.
    if (!run.fault) throw;
  }
  return run;
}

}  // namespace warpsim::harness
