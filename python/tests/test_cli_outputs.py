"""The command line's numpy output (--dump NAME:FILE.npy) and --version."""

import subprocess

import numpy as np

import warpsim
from conftest import ROOT


def run(binary, *args):
    return subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_dump_to_npy_is_read_by_numpy(warpsim_binary, tmp_path):
    out = tmp_path / "y.npy"
    raw = tmp_path / "x.bin"
    p = run(warpsim_binary, "run", "tests/data/typed_params.ptx", "--kernel", "typed",
            "--grid", "1", "--block", "1", "--arg", "p=u8[4]:iota(3,2)", "--arg", "u32:2",
            "--arg", "f32:1", "--arg", "u32:2", "--arg", "f64:1", "--arg", "u8:1",
            "--arg", "f16:1", "--dump", f"p:{out}", "--dump", f"p:{raw}")
    assert p.returncode == 0, p.stderr
    dumped = np.load(out)
    assert dumped.dtype == np.uint8 and dumped.shape == (4,)
    np.testing.assert_array_equal(dumped, [3, 5, 7, 9])
    np.testing.assert_array_equal(dumped, np.frombuffer(raw.read_bytes(), dtype=np.uint8))


def test_dump_f32_npy_holds_the_kernels_results(warpsim_binary, tmp_path):
    src = tmp_path / "scale.ptx"
    src.write_text(SCALE_PTX)
    out = tmp_path / "v.npy"
    p = run(warpsim_binary, "run", str(src), "--kernel", "scale", "--grid", "1", "--block",
            "64", "--arg", "v=f32[50]:iota(0,0.5)", "--arg", "u32:50", "--dump", f"v:{out}")
    assert p.returncode == 0, p.stderr
    v = np.load(out)
    assert v.dtype == np.float32
    np.testing.assert_array_equal(v, np.arange(50, dtype=np.float32) * 0.5 * 3)


def test_version_names_commit_and_cuda(warpsim_binary):
    p = run(warpsim_binary, "--version")
    assert p.returncode == 0
    assert p.stdout.startswith(f"warpsim (git {warpsim.git_commit}), CUDA toolkit "
                               f"{warpsim.cuda_version} (")
    assert warpsim.cuda_version.split(".")[0].isdigit()


SCALE_PTX = r"""
.version 8.0
.target sm_90
.address_size 64

.visible .entry scale(.param .u64 v, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<3>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [v];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  mul.rn.f32 %f2, %f1, 0f40400000;
  st.global.f32 [%rd3], %f2;
DONE:
  ret;
}
"""
