// One launch of a recursive kernel on the GPU at a given stack size and depth, for
// scripts/device_stack.sh: loads a PTX module (JIT-compiled by the driver, so the chip runs the
// very PTX the simulator runs), sets CU_LIMIT_STACK_SIZE, launches KERNEL(depth, out) on one
// thread and prints "ok DEPTH RESULT STACK" or "fault DEPTH CUDA_ERROR_NAME STACK". Exit status:
// 0 ok, 1 kernel fault, 2 a setup error. A fault leaves the context unusable, so each probe is
// its own process.
//
//   nvcc -O2 -o stack_probe stack_probe.cpp -lcuda
//   ./stack_probe recursive_depth.ptx rec_depth 1024 63
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const char* errorName(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}

bool setup(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  std::fprintf(stderr, "stack_probe: %s: %s\n", what, errorName(r));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: stack_probe PTX KERNEL STACK_BYTES DEPTH\n");
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream text;
  text << f.rdbuf();
  const std::string ptx = text.str();
  const size_t stack = std::strtoull(argv[3], nullptr, 10);
  unsigned depth = unsigned(std::strtoul(argv[4], nullptr, 10));
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr out;
  if (!setup(cuInit(0), "cuInit") || !setup(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      !setup(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      !setup(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") ||
      !setup(cuModuleLoadData(&mod, ptx.c_str()), "cuModuleLoadData") ||
      !setup(cuModuleGetFunction(&fn, mod, argv[2]), "cuModuleGetFunction") ||
      !setup(cuMemAlloc(&out, 4), "cuMemAlloc") ||
      !setup(cuMemsetD32(out, 0xFFFFFFFFu, 1), "cuMemsetD32"))
    return 2;
  const CUresult set = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack);
  if (set != CUDA_SUCCESS) {
    std::printf("setlimit %u %s %zu\n", depth, errorName(set), stack);
    return 2;
  }
  size_t actual = 0;
  cuCtxGetLimit(&actual, CU_LIMIT_STACK_SIZE);
  void* args[] = {&depth, &out};
  CUresult r = cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    std::printf("fault %u %s %zu\n", depth, errorName(r), actual);
    return 1;
  }
  unsigned result = 0;
  if (!setup(cuMemcpyDtoH(&result, out, 4), "cuMemcpyDtoH")) return 2;
  std::printf("ok %u %u %zu\n", depth, result, actual);
  return 0;
}
