// What one warp-instruction of the tensor class costs the tensor pipe of its SM sub-partition.
// The chip runs mma.sync / wmma.mma as SASS instructions of a fixed shape per input type
// (HMMA.16816 for f16 and bf16, HMMA.1688 for tf32, IMMA.16832 for 8-bit integers, DMMA.884 for
// f64), so a PTX shape costs as many of them as its work holds; wgmma.mma_async runs on the same
// pipe at its own rate, a quarter of the warpgroup's work per warp.
#pragma once

#include "isa/program.h"
#include "sim/timing/config.h"

namespace warpsim::sim::timing {

struct TensorWork {
  double cycles = 0;   // the pipe is busy this long from the issue
  bool wgmma = false;  // asynchronous: its accumulator is the tensor core's until wgmma.wait_group
};

// Zero work for an instruction that is not of the tensor class (or has no mNnNkN shape).
TensorWork tensorWork(const isa::Inst& in, const TimingConfig& c);

}  // namespace warpsim::sim::timing
