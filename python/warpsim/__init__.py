"""warpsim: CUDA kernels on a simulated NVIDIA H200, numpy arrays in and out.

    import numpy as np, warpsim
    module = warpsim.Module.from_cuda(source)          # or Module.from_ptx(text)
    saxpy = module.get_kernel("saxpy")
    result = saxpy(grid=4, block=256, args=(n, 2.0, x, y))   # x, y: numpy arrays
    result.stats.simd_efficiency

warpsim.RawKernel and warpsim.RawModule mirror CuPy's. See README.md, section "Python".
"""

from ._warpsim import (CompileError, KernelNotFound, LaunchError, OutOfDeviceMemory, PtxError,
                       TimingConfigError, cuda_version, git_commit)
from .cupy_compat import RawKernel, RawModule
from .module import Kernel, Module, Param
from .result import Checks, KernelFault, LaunchResult, Stats, Timing

for _error in (CompileError, KernelNotFound, LaunchError, OutOfDeviceMemory, PtxError,
               TimingConfigError):
    _error.__module__ = __name__  # shown as warpsim.LaunchError, where users import it from
del _error

__all__ = [
    "Checks", "CompileError", "Kernel", "KernelFault", "KernelNotFound", "LaunchError",
    "LaunchResult", "Module", "OutOfDeviceMemory", "Param", "PtxError", "RawKernel", "RawModule",
    "Stats", "Timing", "TimingConfigError", "cuda_version", "git_commit"
]
