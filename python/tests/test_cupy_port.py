"""CuPy code ported by changing the import: `import warpsim as cp_kernels`, numpy for cupy."""

import numpy as np
import pytest

import warpsim

# Written as a CuPy program would be: RawKernel(code, name), a (grid,), (block,), (args,) call,
# numpy scalars wrapped as CuPy code must wrap them.
CLAMP_SOURCE = r"""
extern "C" __global__ void clamp_scale(const float* x, float* y, float lo, float hi,
                                       float factor, int n) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  if (tid < n) y[tid] = fminf(fmaxf(x[tid], lo), hi) * factor;
}
"""


def test_raw_kernel_port_of_a_cupy_program():
    clamp_scale = warpsim.RawKernel(CLAMP_SOURCE, "clamp_scale")
    x = np.linspace(-3, 3, 6 * 7, dtype=np.float32).reshape(6, 7)
    y = np.zeros((6, 7), dtype=np.float32)
    clamp_scale((2,), (32,), (x, y, np.float32(-1), np.float32(2), np.float32(4), np.int32(42)))
    np.testing.assert_array_equal(y, np.clip(x, -1, 2) * 4)
    # plain Python scalars work too: typed from the kernel's signature
    y2 = np.zeros_like(y)
    result = clamp_scale((2,), (32,), (x, y2, -1.0, 2, 4.0, 42), shared_mem=0)
    np.testing.assert_array_equal(y2, y)
    assert result.stats.threads == 64


def test_raw_module_from_a_file_with_a_local_include_and_options(tmp_path):
    (tmp_path / "offset.h").write_text("#define OFFSET 1\n")
    (tmp_path / "times.cu").write_text(r"""
    #include "offset.h"
    template <int K> __device__ int times(int v) { return K * v + OFFSET; }
    extern "C" __global__ void times_k(int* v) { v[threadIdx.x] = times<FACTOR>(v[threadIdx.x]); }
    """)
    mod = warpsim.RawModule(path=str(tmp_path / "times.cu"),
                            options=("-DFACTOR=3", "-std=c++17", "-arch=sm_90a"))
    v = np.arange(5, dtype=np.int32)
    mod.get_function("times_k")((1,), (5,), (v,))
    np.testing.assert_array_equal(v, 3 * np.arange(5) + 1)
    # nvcc's last -arch wins over the default -arch=sm_90, as on the command line
    assert ".target sm_90a" in mod.get_function("times_k").module.ptx
