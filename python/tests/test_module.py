"""Modules, kernels and launches: values checked against numpy."""

import numpy as np
import pytest

import warpsim

SAXPY_PTX = r"""
.version 8.0
.target sm_90
.address_size 64

.visible .entry saxpy_ptx(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<6>;
  ld.param.u32 %r1, [n];
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.s32 %p, %r2, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.s32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f3, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f3;
DONE:
  ret;
}
"""


def test_saxpy_from_cuda_matches_numpy(module):
    n = 1000
    x = np.arange(n, dtype=np.float32) - 300
    y = np.linspace(-2, 2, n, dtype=np.float32)
    expected = np.float32(0.5) * x + y  # exact: halves of integers plus y
    result = module.get_kernel("saxpy")(grid=4, block=256, args=(n, 0.5, x, y))
    np.testing.assert_array_equal(y, expected)
    s = result.stats
    assert (s.ctas, s.threads) == (4, 1024)
    assert s.warp_instructions == s.instructions > 0
    assert 0 < s.simd_efficiency < 1  # the last warp's tail idles past n
    assert s.global_requests > 0 and s.bank_conflicts == 0
    assert result.timing is None and result.checks is None


def test_saxpy_from_ptx_matches_numpy():
    module = warpsim.Module.from_ptx(SAXPY_PTX, name="saxpy.ptx")
    rng = np.random.default_rng(3)
    x = rng.standard_normal(300).astype(np.float32)
    y = rng.standard_normal(300).astype(np.float32)
    # fma.rn: one rounding of the exact a*x+y, which f64 arithmetic reproduces here
    expected = (np.float64(-1.5) * x.astype(np.float64) + y).astype(np.float32)
    module.get_kernel("saxpy_ptx")((3,), (128,), (300, np.float32(-1.5), x, y))
    np.testing.assert_array_equal(y, expected)


def test_2d_grid_kernel(module):
    rows, cols = 37, 50
    a = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols) / 7
    out = np.zeros_like(a)
    result = module.get_kernel("scale_rows")(grid=(4, 3), block=(16, 16),
                                             args=(rows, cols, a, out))
    np.testing.assert_array_equal(out, a * np.arange(1, rows + 1)[:, None])
    assert result.stats.ctas == 12


def test_kernels_list_names_and_parameter_types(module):
    by_name = {k.demangled: k for k in module.kernels}
    saxpy = by_name["saxpy(int, float, float const*, float*)"]
    assert saxpy.name == "_Z5saxpyifPKfPf"
    assert [p.type for p in saxpy.params] == [".u32", ".f32", ".u64", ".u64"]
    assert "scale_rows" in by_name


def test_get_kernel_by_mangled_demangled_and_prefix(module):
    for name in ("_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "saxpy", "sax"):
        assert module.get_kernel(name).name == "_Z5saxpyifPKfPf"
    assert module.get_kernel("scale").name == "scale_rows"


def test_wrong_kernel_name_lists_the_kernels(module):
    with pytest.raises(warpsim.KernelNotFound) as e:
        module.get_kernel("saxpi")
    text = str(e.value)
    assert text.startswith("no kernel named 'saxpi' in kernels.cu; its kernels:")
    assert "saxpy(int, float, float const*, float*)  [_Z5saxpyifPKfPf: .u32 .f32 .u64 .u64]" \
        in text
    assert "scale_rows  [.u32 .u32 .u64 .u64]" in text
    assert isinstance(e.value, LookupError)


def test_ambiguous_prefix_is_an_error(module):
    with pytest.raises(warpsim.KernelNotFound, match="'h' is ambiguous"):
        module.get_kernel("h")


def test_compile_error_carries_nvccs_diagnostics():
    with pytest.raises(warpsim.CompileError, match=r"bad\.cu.*undefined_thing"):
        warpsim.Module.from_cuda("__global__ void k() { undefined_thing(); }", name="bad.cu")


def test_bad_ptx_names_line():
    with pytest.raises(warpsim.PtxError, match=r"broken\.ptx:\d+:\d+"):
        warpsim.Module.from_ptx(".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .entry k() { bogus.op; }\n", name="broken.ptx")


def test_device_and_constant_variables(module):
    assert (module.globals["coefficients"], module.globals["launches"]) == (16, 4)
    np.testing.assert_array_equal(module.get_global("coefficients", np.float32), [1, 2, 3, 4])
    x = np.array([0, 1, 2], dtype=np.float32)
    y = np.zeros(3, dtype=np.float32)
    poly = module.get_kernel("poly")
    poly(1, 32, (x, y, 3))
    np.testing.assert_array_equal(y, [1, 1 + 2 + 3 + 4, 1 + 4 + 12 + 32])
    module.set_global("coefficients", np.array([0, 1, 0, 0], dtype=np.float32))
    poly(1, 32, (x, y, 3))
    np.testing.assert_array_equal(y, x)
    assert module.get_global("launches", np.uint32)[0] == 2  # variables persist
    with pytest.raises(ValueError, match="'coefficients' holds 16 bytes; 8 given"):
        module.set_global("coefficients", np.zeros(2, dtype=np.float32))
    with pytest.raises(LookupError, match=r"(?s)no variable named 'coef' in kernels.cu; its "
                                          r"variables:\n.*  coefficients \(16 bytes\)\n"):
        module.get_global("coef")


def test_contraction_fuses_mul_sub_unless_switched_off():
    # nvcc writes a*b - c as mul.f32 + sub.f32; ptxas fuses them (one rounding), and so does
    # warpsim unless contract=False (each instruction rounded on its own).
    ptx = SAXPY_PTX.replace("saxpy_ptx", "msub").replace(
        "fma.rn.f32 %f3, %f1, %f2, %f3;", "mul.f32 %f2, %f1, %f2;\n  sub.f32 %f3, %f2, %f3;")
    x = np.full(32, 1 + 2.0**-12, dtype=np.float32)
    one = np.ones(32, dtype=np.float32)
    fused, literal = one.copy(), one.copy()
    warpsim.Module.from_ptx(ptx).get_kernel("msub")(1, 32, (32, np.float32(x[0]), x, fused))
    warpsim.Module.from_ptx(ptx, contract=False).get_kernel("msub")(
        1, 32, (32, np.float32(x[0]), x, literal))
    np.testing.assert_array_equal(fused, np.float32(2.0**-11 + 2.0**-24))  # rounded once
    np.testing.assert_array_equal(literal, np.float32(2.0**-11))  # the product rounded first
