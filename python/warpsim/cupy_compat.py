"""CuPy's RawKernel and RawModule, so that CuPy code ports by changing the import: numpy
arrays stand for cupy arrays. Where CuPy compiles with NVRTC, warpsim compiles with nvcc
(`options` are passed to it), so `backend` only selects the same path.

Differences from CuPy: scalars are typed from the kernel's signature (CuPy passes a Python
int as a 64-bit and a float as a double, so CuPy code wraps them in numpy.int32/float32; both
work here); arrays are copied to the simulated device and back at each launch.
"""

from .module import Module


class RawKernel:
    """RawKernel(code, name, options=()) -> kernel(grid, block, args, shared_mem=0).

    Compiled on first use, as CuPy does. Extra keyword arguments (device_memory, threads,
    serial, budget, echo_printf) are Module options.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 *, enable_cooperative_groups=False, jitify=False, **module_options):
        self.code = code
        self.name = name
        self.options = tuple(options)
        self.backend = backend
        self._module_options = module_options
        self._kernel = None

    @property
    def kernel(self):
        """The compiled warpsim.Kernel."""
        if self._kernel is None:
            module = Module.from_cuda(self.code, self.options, **self._module_options)
            self._kernel = module.get_kernel(self.name)
        return self._kernel

    def compile(self, log_stream=None):
        self.kernel  # pylint: disable=pointless-statement

    def __call__(self, grid, block, args, *, shared_mem=0, **launch_options):
        return self.kernel(grid, block, args, shared_mem, **launch_options)


class RawModule:
    """RawModule(code=..., options=()) or RawModule(path=FILE.cu|FILE.ptx);
    get_function(name) -> a kernel callable as kernel(grid, block, args, shared_mem=0)."""

    def __init__(self, *, code=None, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False, **module_options):
        if (code is None) == (path is None):
            raise TypeError("RawModule takes code= or path=, one of them")
        if code is not None:
            self.module = Module.from_cuda(code, tuple(options), **module_options)
        else:
            self.module = Module.from_file(path, tuple(options), **module_options)

    def get_function(self, name):
        return self.module.get_kernel(name)
