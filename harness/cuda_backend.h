// The real GPU as a backend, through the CUDA driver API. libcuda is opened at run time
// (dlopen("libcuda.so.1")), so the same binary builds and runs where there is no driver; there,
// makeCudaBackend throws NoDevice("no CUDA device: <reason>").
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "harness/backend.h"

namespace warpsim::harness {

class NoDevice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA call that failed: the message names the call and the error ("cuMemAlloc_v2:
// CUDA_ERROR_OUT_OF_MEMORY").
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CudaOptions {
  unsigned timedRuns = 0;  // 0: launch once; else warm up once and report the median of N runs
};

std::unique_ptr<Backend> makeCudaBackend(const CudaOptions& options = {});

// "" when a CUDA device is usable here, else why not (for tests that skip without a GPU).
std::string cudaUnavailableReason();

}  // namespace warpsim::harness
