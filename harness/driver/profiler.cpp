// cuProfilerStart/Stop (cudaProfilerStart/Stop): there is no profiler to start; succeed, as the
// driver does when no profiling tool is attached.
#include <cuda.h>
#include <cudaProfiler.h>

extern "C" {

CUresult cuProfilerStart() { return CUDA_SUCCESS; }
CUresult cuProfilerStop() { return CUDA_SUCCESS; }

}  // extern "C"
