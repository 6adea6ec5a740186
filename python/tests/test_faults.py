"""Kernel faults as exceptions, printf output, the device-memory limit."""

import numpy as np
import pytest

import warpsim
from conftest import KERNELS


def test_kernel_fault_names_thread_block_and_lines(module):
    out = np.zeros(100, dtype=np.int32)
    with pytest.raises(warpsim.KernelFault) as e:
        module.get_kernel("write_past_end")(grid=2, block=64, args=(100, out))
    f = e.value
    cuda_line = next(i for i, line in enumerate(KERNELS.splitlines(), start=1)
                     if "FAULT-LINE" in line)
    assert f.kind == "out-of-bounds access"
    assert (f.cuda_file, f.cuda_line) == ("kernels.cu", cuda_line)
    assert f.block == (1, 0, 0) and f.thread[1:] == (0, 0) and 36 <= f.thread[0] < 64
    assert "st.global" in module.ptx.splitlines()[f.ptx_line - 1]
    assert f.instruction.startswith("st.global")
    assert f.address is not None
    assert f"at kernels.cu:{cuda_line} (PTX line {f.ptx_line}, " in str(f)
    assert f"thread ({f.thread[0]},0,0) block (1,0,0)" in str(f)
    # the arrays come back as the faulting batch left them: every in-bounds store landed
    np.testing.assert_array_equal(out, np.arange(100))
    assert f.result.stats.ctas == 2


def test_printf_output_is_returned_and_echoed(module, capsys):
    result = module.get_kernel("hello")(1, 32, (7,))
    assert result.printf == "hello 7 from thread 0\nhello 7 from thread 1\n"
    assert capsys.readouterr().out == result.printf


def test_printf_echo_can_be_turned_off(module, capsys):
    quiet = warpsim.Module.from_ptx(module.ptx, echo_printf=False)
    assert quiet.get_kernel("hello")(1, 1, (3,)).printf == "hello 3 from thread 0\n"
    assert capsys.readouterr().out == ""


def test_device_memory_limit(module):
    small = warpsim.Module.from_ptx(module.ptx, device_memory="1MiB")
    big = np.zeros(300_000, dtype=np.float32)  # 1.2 MB
    with pytest.raises(warpsim.OutOfDeviceMemory):
        small.get_kernel("halves")(1, 32, (big, 10))
    ok = np.ones(1000, dtype=np.float32)
    small.get_kernel("halves")(1, 32, (ok, 2))  # the failed launch freed what it took
    assert list(ok[:3]) == [2.0, -1.0, 1.0]
    with pytest.raises(ValueError, match="device_memory"):
        warpsim.Module.from_ptx(module.ptx, device_memory="lots")


def test_watchdog_budget_is_a_fault(module):
    v = np.zeros(4096, dtype=np.float32)
    with pytest.raises(warpsim.KernelFault) as e:
        module.get_kernel("halves")(32, 128, (v, 4096), budget=10)
    assert e.value.kind == "watchdog"


def test_launch_geometry_errors(module):
    with pytest.raises(warpsim.LaunchError, match="block of 2048 threads"):
        module.get_kernel("hello")(1, (32, 64), (1,))
    with pytest.raises(ValueError, match="grid"):
        module.get_kernel("hello")(0, 1, (1,))


def test_stack_overflow_is_a_fault_and_the_stack_size_an_option():
    import pathlib
    ptx = (pathlib.Path(__file__).resolve().parents[2] / "tests/data/recursive_depth.ptx").read_text()
    m = warpsim.Module.from_ptx(ptx, name="recursive_depth.ptx")
    out = np.zeros(1, dtype=np.uint32)
    m.get_kernel("rec_depth")(1, 1, (62, out))  # 8 + 63 frames of 16 bytes fit 1 KiB
    assert out[0] == 62
    with pytest.raises(warpsim.KernelFault) as e:
        m.get_kernel("rec_depth")(1, 1, (63, out))
    assert e.value.kind == "stack overflow"
    assert "call 64 deep, of 'down'" in str(e.value)
    m.get_kernel("rec_depth")(1, 1, (126, out), stack_size=2048)
    assert out[0] == 126
    big = warpsim.Module.from_ptx(ptx, stack_size=4096)
    big.get_kernel("rec_depth")(1, 1, (200, out))
    assert out[0] == 200
    with pytest.raises(ValueError, match="stack_size"):
        warpsim.Module.from_ptx(ptx, stack_size=1 << 20)


def test_device_malloc_heap_size_is_a_module_option_and_blocks_persist():
    import pathlib
    ptx = (pathlib.Path(__file__).resolve().parents[2] / "tests/data/heap_ops.ptx").read_text()
    m = warpsim.Module.from_ptx(ptx, name="heap_ops.ptx", malloc_heap_size=4096)
    ptrs = np.zeros(64, dtype=np.uint64)
    # The limit grants one unit of 4 MiB, as the H200's heap does: 12 blocks of 100 bytes a page.
    m.get_kernel("heap_alloc")(1, 64, (ptrs, 100))
    assert (ptrs != 0).all() and (ptrs % 16 == 0).all()
    i = np.arange(64, dtype=np.uint64)
    np.testing.assert_array_equal(ptrs - ptrs[0], i // 12 * 2208 + i % 12 * 160)
    values = np.zeros(64, dtype=np.uint32)
    m.get_kernel("heap_read_free")(1, 64, (ptrs, values))  # a later launch reads and frees
    np.testing.assert_array_equal(values, np.arange(64, dtype=np.uint32) * 7 + 1)
    # A limit of 0 grants no heap: every malloc returns NULL.
    none = warpsim.Module.from_ptx(ptx, name="heap_ops.ptx", malloc_heap_size=0)
    none.get_kernel("heap_alloc")(1, 64, (ptrs, 100))
    assert (ptrs == 0).all()
    with pytest.raises(ValueError, match="malloc_heap_size"):
        warpsim.Module.from_ptx(ptx, malloc_heap_size=-1)
