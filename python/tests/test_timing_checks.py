"""The timing model and the checkers from Python, and Ctrl-C stopping a kernel."""

import json
import subprocess
import sys

import numpy as np
import pytest

import warpsim
from conftest import ROOT

# A kernel that waits for a flag nobody sets: only the watchdog or Ctrl-C stops it.
SPIN_PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 flag)
{
  .reg .pred %p;
  .reg .b32 %r;
  .reg .b64 %rd;
  ld.param.u64 %rd, [flag];
LOOP:
  ld.volatile.global.u32 %r, [%rd];
  setp.eq.u32 %p, %r, 0;
  @%p bra LOOP;
  ret;
}
"""


def saxpy_arrays(n=2048):
    return np.arange(n, dtype=np.float32), np.ones(n, dtype=np.float32)


def test_timing_returns_ncu_metrics_for_the_launch(module):
    x, y = saxpy_arrays()
    result = module.get_kernel("saxpy")(8, 256, (2048, 2.0, x, y), timing=True)
    t = result.timing
    assert isinstance(t, warpsim.Timing)
    assert t.cycles > 0 and t.nanoseconds > 0
    # the model runs the same instructions the functional statistics count
    assert t["smsp__inst_executed.sum"] == result.stats.warp_instructions
    assert t["launch__grid_size"] == 8
    assert t["launch__registers_source"] == "ptxas"
    assert f"{t.cycles:,}" in str(t) or str(t.cycles) in str(t)
    assert (y == 2 * x + 1).all()  # the timed launch computes, too
    assert module.get_kernel("saxpy")(8, 256, (2048, 2.0, x, y)).timing is None


def test_timing_parameters_change_the_prediction(module, tmp_path):
    kernel = module.get_kernel("saxpy")
    base = kernel(8, 256, (2048, 2.0, *saxpy_arrays()), timing=True).timing.cycles
    slow = kernel(8, 256, (2048, 2.0, *saxpy_arrays()), timing={"dram.latency": 5000})
    assert slow.timing.cycles > base
    config = tmp_path / "slow.json"
    config.write_text(json.dumps({"dram.latency": 5000}))
    moduled = warpsim.Module.from_ptx(module.ptx, timing=str(config))
    assert moduled.get_kernel("saxpy")(8, 256, (2048, 2.0, *saxpy_arrays())).timing.cycles == \
        slow.timing.cycles
    with pytest.raises(warpsim.TimingConfigError, match="no.such"):
        kernel(8, 256, (2048, 2.0, *saxpy_arrays()), timing={"no.such": 1})
    with pytest.raises(TypeError):
        kernel(8, 256, (2048, 2.0, *saxpy_arrays()), timing=3)


def test_memcheck_reports_every_bad_store_instead_of_faulting(module):
    out = np.zeros(40, dtype=np.int32)
    result = module.get_kernel("write_past_end")(1, 64, (40, out), check="memcheck")
    checks = result.checks
    assert isinstance(checks, warpsim.Checks)
    assert list(checks.tools) == ["memcheck"]
    assert not checks.ok and checks.errors == 1  # one site
    finding = checks.tools["memcheck"]["findings"][0]
    assert finding["title"].startswith("Invalid __global__ write of size 4 bytes")
    assert finding["count"] == 24  # threads 40..63
    assert finding["at"]["cuda_line"] > 0
    assert "ERROR SUMMARY: 1 error" in str(checks)
    np.testing.assert_array_equal(out, np.arange(40))  # the good stores landed


def test_a_clean_kernel_checks_clean_under_every_tool(module):
    x, y = saxpy_arrays(256)
    result = module.get_kernel("saxpy")(1, 256, (256, 2.0, x, y), check=True)
    assert result.checks.ok and result.checks.findings == []
    assert sorted(result.checks.tools) == ["initcheck", "memcheck", "racecheck", "synccheck"]
    with pytest.raises(ValueError, match="check 'lint'"):
        module.get_kernel("saxpy")(1, 256, (256, 2.0, x, y), check=["memcheck", "lint"])


def test_time_limit_stops_a_spinning_kernel():
    spin = warpsim.Module.from_ptx(SPIN_PTX, name="spin.ptx").get_kernel("spin")
    with pytest.raises(warpsim.KernelFault) as e:
        spin(1, 32, (np.zeros(1, dtype=np.uint32),), time_limit=0.2)
    assert e.value.kind == "watchdog"
    assert "time limit" in str(e.value)


def test_ctrl_c_stops_the_kernel_and_raises_keyboard_interrupt():
    script = f"""
import os, signal, sys, threading, time
import numpy as np
import warpsim
spin = warpsim.Module.from_ptx({SPIN_PTX!r}, name="spin.ptx").get_kernel("spin")
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    spin(1, 64, (np.zeros(1, dtype=np.uint32),))
except KeyboardInterrupt as e:
    print("KeyboardInterrupt:", e)
    print("seconds", round(time.monotonic() - start))
"""
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=60, cwd=ROOT, check=False)
    assert p.returncode == 0, p.stderr
    assert "KeyboardInterrupt: kernel fault (interrupted)" in p.stdout, p.stdout
    assert "spin.ptx" in p.stdout and "warp 1:" in p.stdout, p.stdout
    assert "seconds 0" in p.stdout or "seconds 1" in p.stdout, p.stdout


def test_stats_count_thread_instructions_both_ways_under_ncu_names(module):
    x, y = saxpy_arrays(1000)  # 1024 threads: the last warp's tail branches around the work
    s = module.get_kernel("saxpy")(4, 256, (1000, 2.0, x, y)).stats
    assert s.ncu["smsp__inst_executed.sum"] == s.warp_instructions
    assert s.ncu["smsp__thread_inst_executed_pred_on.sum"] == s.thread_instructions
    assert s.ncu["smsp__thread_inst_executed.sum"] == s.thread_instructions_active
    # guards make some lanes skip what they are active for; never the other way round
    assert s.thread_instructions < s.thread_instructions_active <= 32 * s.warp_instructions
