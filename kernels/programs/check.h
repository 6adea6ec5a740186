// CHECK(call): print the failing CUDA call and its error, exit 1. Shared by the example programs.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                         \
  do {                                                                      \
    const cudaError_t e_ = (call);                                          \
    if (e_ != cudaSuccess) {                                                \
      std::printf("%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, \
                  cudaGetErrorString(e_), cudaGetErrorName(e_));            \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)
