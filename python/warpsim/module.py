"""Modules and kernels: compile or load, find a kernel, launch with numpy arrays."""

import json
import numbers
import os
import re
import sys

import numpy as np

from . import _warpsim
from .args import convert

demangle_name = _warpsim.demangle
from .result import KernelFault, LaunchResult

# A thread's stack lives in its 512 KiB of local memory (as `warpsim run --stack-size`).
_MAX_STACK_SIZE = 512 * 1024
_UNITS = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def _device_memory_bytes(value):
    if value is None:
        return _warpsim.default_device_memory
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+)\s*(B|KiB|MiB|GiB|TiB)?\s*", value)
        if not m:
            raise ValueError(f"device_memory '{value}': expected BYTES or a number with "
                             "KiB, MiB, GiB or TiB")
        value = int(m.group(1)) * _UNITS[m.group(2) or ""]
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"device_memory {value!r}: expected a positive number of bytes")
    return int(value)


def _dim3(value, what):
    dims = (value,) if isinstance(value, numbers.Integral) else tuple(value)
    if not 1 <= len(dims) <= 3 or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"{what} {value!r}: expected an int or a tuple of 1 to 3 ints")
    if not all(1 <= d <= 0xFFFFFFFF for d in dims):
        raise ValueError(f"{what} {value!r}: every dimension must be at least 1")
    return [int(d) for d in dims]


def _count(value, what, largest):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{what} {value!r}: expected an int")
    if not 0 <= value <= largest:
        raise ValueError(f"{what} {value}: expected 0..{largest}")
    return int(value)


def _timing_text(value):
    """A launch's timing option as the extension takes it: None (no timing model), "" (the H200
    defaults) or JSON text of parameters over them."""
    if value is None or value is False:
        return None
    if value is True:
        return ""
    if isinstance(value, dict):
        return json.dumps(value)
    if isinstance(value, (str, os.PathLike)):
        with open(value, encoding="utf-8") as f:
            return f.read()
    raise TypeError(f"timing {value!r}: expected True, a dict of timing parameters or the path "
                    "of a JSON file of them")


def _check_tools(value):
    if value is None or value is False:
        return []
    if value is True:
        return ["all"]
    if isinstance(value, str):
        return [value]
    tools = list(value)
    if not all(isinstance(t, str) for t in tools):
        raise TypeError(f"check {value!r}: expected True, a tool name or a list of them")
    return tools


def _seconds(value):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not 0 <= value <= 1e9:
        raise ValueError(f"time_limit {value!r}: expected seconds from 0 (no limit) to 1e9")
    return float(value)


class Param:
    """A kernel parameter: its PTX name, its PTX type as declared (".u32", ".b8[16]") and its
    size in bytes."""

    def __init__(self, raw):
        self.name = raw["name"]
        self.type = raw["ptx_type"]
        self.bytes = raw["bytes"]
        self._raw = raw

    def __repr__(self):
        return f"Param({self.name!r}, {self.type!r})"


class Kernel:
    """A kernel of a Module, callable as kernel(grid, block, args, shared_mem=0).

    name: the PTX name (mangled for C++ kernels); demangled: the C++ name with its parameter
    types; params: [Param]; signature: both, as a wrong name's error lists them.
    """

    def __init__(self, module, raw):
        self.module = module
        self.name = raw["name"]
        self.demangled = raw["demangled"]
        self.signature = raw["signature"]
        self.params = [Param(p) for p in raw["params"]]

    def __repr__(self):
        return f"<warpsim.Kernel {self.signature}>"

    def __call__(self, grid, block, args, shared_mem=0, *, threads=None, serial=None,
                 budget=None, time_limit=None, timing=None, check=None, stack_size=None,
                 cluster=None, cooperative=False):
        """Launches the kernel and returns a LaunchResult; raises KernelFault on a fault.

        grid, block: an int or a tuple of up to three ints. args: one per parameter, in
        order: numpy arrays for pointers (copied to device buffers before the launch and back
        after it, so the arrays are updated in place), Python or numpy scalars for the rest
        (converted to the parameter's PTX type). threads, serial, budget, time_limit, timing,
        check, stack_size: this launch only (see Module). cluster: thread-block cluster
        dimensions (an int or a tuple of up to three ints; the grid a multiple, at most 8 CTAs).
        cooperative: a cooperative launch (cg::this_grid().sync(); the grid must fit the chip
        at once). Ctrl-C stops the kernel and raises
        KeyboardInterrupt saying where its warps stood; the arrays hold what it had written.
        """
        if isinstance(args, (str, bytes)) or not hasattr(args, "__len__"):
            raise TypeError(f"args must be a tuple or list of arguments, not {type(args).__name__}")
        if len(args) != len(self.params):
            raise TypeError(f"kernel {self.demangled} takes {len(self.params)} arguments "
                            f"({', '.join(p.type for p in self.params) or 'none'}), "
                            f"{len(args)} given")
        converted, copies = [], []
        for position, (value, param) in enumerate(zip(args, self.params), start=1):
            c = convert(value, position, param._raw, self.demangled)
            if isinstance(c, np.ndarray) and not (c.flags.c_contiguous or c.flags.f_contiguous):
                # A strided view: the kernel gets a dense copy, written back into the view.
                dense = np.ascontiguousarray(c)
                copies.append((c, dense))
                c = dense
            converted.append(c)
        m = self.module
        shared_mem = _count(shared_mem, "shared_mem", 0xFFFFFFFF)
        threads = m.threads if threads is None else _count(threads, "threads", 1024)
        budget = m.budget if budget is None else _count(budget, "budget", 2**64 - 1)
        time_limit = m.time_limit if time_limit is None else _seconds(time_limit)
        timing = m.timing if timing is None else _timing_text(timing)
        check = m.check if check is None else _check_tools(check)
        stack_size = (m.stack_size if stack_size is None
                      else _count(stack_size, "stack_size", _MAX_STACK_SIZE))
        raw = m._sim.launch(self.name, _dim3(grid, "grid"), _dim3(block, "block"), shared_mem,
                            converted, threads, m.serial if serial is None else bool(serial),
                            budget, time_limit, timing, check, stack_size, m.malloc_heap_size,
                            [] if cluster is None else _dim3(cluster, "cluster"),
                            bool(cooperative))
        for view, dense in copies:
            if view.flags.writeable:
                np.copyto(view, dense)
        result = LaunchResult(raw)
        if m.echo_printf and result.printf:
            sys.stdout.write(result.printf)
        if raw["fault"] is not None:
            raise KernelFault(raw["fault"], result)
        return result


class Module:
    """PTX loaded into a simulated H200 (its own device memory; module variables persist
    across launches).

    Options: device_memory (bytes, or "4GiB"; the default 4 GiB), threads (host threads for
    CTAs, 0 = every core), serial (CTAs one at a time in order: deterministic float atomics),
    budget (warp-instructions before the watchdog stops a kernel; None = warpsim's default),
    stack_size (call stack bytes per thread, as cudaDeviceSetLimit(cudaLimitStackSize), default
    1024: recursion past it is a "stack overflow" KernelFault), malloc_heap_size (the device
    heap of malloc/free in kernels, as cudaDeviceSetLimit(cudaLimitMallocHeapSize), default
    8 MiB: fixed by the first launch of a kernel that calls malloc; blocks persist across
    launches of the module),
    echo_printf (write the kernel's printf output to sys.stdout after each launch, as a GPU
    program's appears; it is in LaunchResult.printf either way), time_limit (seconds of wall
    time a launch may run before the watchdog stops it; None = 600, 0 = none), timing (True, a
    dict of timing parameters over the H200's, or the path of a JSON file of them: each launch
    runs on the timing model and its result has .timing), check (True for every checker, or
    "memcheck", "racecheck", "initcheck", "synccheck", or a list of them: the result has
    .checks), contract (fuse each mul and the add/sub that consumes it into one fma as ptxas
    does, so results round as on the chip; False executes the PTX literally, as
    `--no-contract` does).
    """

    def __init__(self, ptx, *, name="module.ptx", device_memory=None, threads=0, serial=False,
                 budget=None, echo_printf=True, time_limit=None, timing=None, check=None,
                 stack_size=1024, contract=True, malloc_heap_size=8 << 20):
        self._sim = _warpsim.SimModule(ptx, name, _device_memory_bytes(device_memory),
                                       bool(contract))
        self.name = name
        self.threads = _count(threads, "threads", 1024)
        self.serial = bool(serial)
        self.budget = None if budget is None else _count(budget, "budget", 2**64 - 1)
        self.stack_size = _count(stack_size, "stack_size", _MAX_STACK_SIZE)
        self.malloc_heap_size = _count(malloc_heap_size, "malloc_heap_size", 1 << 40)
        self.echo_printf = bool(echo_printf)
        self.time_limit = None if time_limit is None else _seconds(time_limit)
        self.timing = _timing_text(timing)
        self.check = _check_tools(check)

    @classmethod
    def from_ptx(cls, text, *, name="module.ptx", **options):
        """A module from PTX text. Raises PtxError (with file, line and column) on bad PTX."""
        return cls(text, name=name, **options)

    @classmethod
    def from_cuda(cls, source, options=(), *, name="kernel.cu", **module_options):
        """Compiles CUDA source with nvcc -ptx -lineinfo -arch=sm_90 OPTIONS (as `warpsim
        run` compiles a .cu file); `name` is the file name faults report. Raises CompileError
        with nvcc's diagnostics."""
        if isinstance(options, str):
            options = (options,)
        ptx = _warpsim.compile_cuda(source, name, [str(o) for o in options])
        return cls(ptx, name=name, **module_options)

    @classmethod
    def from_file(cls, path, options=(), **module_options):
        """A .cu file (compiled with nvcc and OPTIONS) or a .ptx file."""
        path = str(path)
        if path.endswith(".cu"):
            if isinstance(options, str):
                options = (options,)
            ptx = _warpsim.compile_cuda_file(path, [str(o) for o in options])
            return cls(ptx, name=path, **module_options)
        with open(path, encoding="utf-8") as f:
            return cls(f.read(), name=path, **module_options)

    @property
    def ptx(self):
        """The module's PTX text (fault reports' PTX lines count in it)."""
        return self._sim.ptx

    @property
    def kernels(self):
        """[Kernel] of every .entry, in the order the PTX declares them."""
        return [Kernel(self, k) for k in self._sim.kernels]

    def get_kernel(self, name):
        """The kernel `name` denotes: its PTX (mangled) name, its demangled name with or
        without the parameter list, or a unique prefix. Raises KernelNotFound listing the
        module's kernels with their signatures."""
        ptx_name = self._sim.find(name)
        return next(k for k in self.kernels if k.name == ptx_name)

    @property
    def globals(self):
        """{PTX name: bytes} of the module's __device__ and __constant__ variables."""
        return dict(self._sim.variables)

    def _variable(self, name):
        names = self._sim.variables
        if name in names:
            return name
        matches = [n for n in names if demangle_name(n) == name]
        if len(matches) == 1:
            return matches[0]
        listing = "".join(f"\n  {n} ({size} bytes)" for n, size in names.items())
        raise LookupError(f"no variable named '{name}' in {self.name}" +
                          (f"; its variables:{listing}" if names else " (it has none)"))

    def get_global(self, name, dtype=np.uint8):
        """A copy of a __device__ or __constant__ variable's contents as a numpy array of
        `dtype` (as it stands after the launches so far)."""
        return np.frombuffer(self._sim.read_variable(self._variable(name)), dtype=dtype).copy()

    def set_global(self, name, value):
        """Writes a variable (a numpy array or bytes of exactly its size), as cudaMemcpyToSymbol
        does; later launches see it."""
        data = value.tobytes() if isinstance(value, (np.ndarray, np.generic)) else bytes(value)
        self._sim.write_variable(self._variable(name), data)  # ValueError: not its size

    def __repr__(self):
        return f"<warpsim.Module {self.name}: {', '.join(k.demangled for k in self.kernels)}>"
