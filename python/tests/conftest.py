"""Shared fixtures: the kernels are compiled once per test session (nvcc takes seconds)."""

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
try:
    import warpsim  # noqa: F401  (PYTHONPATH=build/python, as ctest sets it)
except ImportError:
    sys.path.insert(0, str(ROOT / "build" / "python"))
    import warpsim  # noqa: F401

KERNELS = r"""
#include <cstdio>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void scale_rows(int rows, int cols, const double* in, double* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c] * (r + 1);
}

extern "C" __global__ void write_past_end(int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;  // FAULT-LINE: no bounds check
}

extern "C" __global__ void typed(unsigned char b, short s, unsigned int u, long long l,
                                 float f, double d, unsigned long long* out) {
  out[0] = b; out[1] = (unsigned short)s; out[2] = u; out[3] = l;
  out[4] = __float_as_uint(f); out[5] = __double_as_longlong(d);
}

extern "C" __global__ void hello(int tag) {
  if (threadIdx.x < 2) printf("hello %d from thread %d\n", tag, threadIdx.x);
}

extern "C" __global__ void add_into(const int* x, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

__constant__ float coefficients[4] = {1, 2, 3, 4};
__device__ unsigned int launches;

extern "C" __global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* c = coefficients;
  if (i < n) y[i] = c[0] + x[i] * (c[1] + x[i] * (c[2] + x[i] * c[3]));
  if (i == 0) atomicAdd(&launches, 1u);
}

extern "C" __global__ void halves(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { if (i % 2) v[i] = -v[i]; else v[i] = v[i] * 2.0f; }
}
"""


@pytest.fixture(scope="session")
def module():
    return warpsim.Module.from_cuda(KERNELS, options=["-std=c++17"], name="kernels.cu")


@pytest.fixture(scope="session")
def warpsim_binary():
    path = os.environ.get("WARPSIM_BINARY", str(ROOT / "build" / "bin" / "warpsim"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"the warpsim CLI is not built at {path}")
    return path
