"""Arguments: scalars typed from the PTX signature, arrays copied in and back."""

import numpy as np
import pytest

from warpsim.args import convert


def run_typed(module, *scalars):
    out = np.zeros(6, dtype=np.uint64)
    module.get_kernel("typed")(1, 1, (*scalars, out))
    return out


def test_scalars_are_packed_as_the_parameter_types(module):
    out = run_typed(module, 200, -3, 4000000000, -(2**40), 0.1, 0.1)
    assert out[0] == 200
    assert out[1] == 0xFFFD  # short -3
    assert out[2] == 4000000000
    assert out[3] == np.uint64(2**64 - 2**40)
    assert out[4] == np.float32(0.1).view(np.uint32)  # a Python float for .f32: f32
    assert out[5] == np.float64(0.1).view(np.uint64)


def test_numpy_scalars_convert_by_value(module):
    out = run_typed(module, np.uint8(7), np.int16(-1), np.int32(5), np.int64(9),
                    np.float64(0.25), np.float32(3))
    assert list(out[:4]) == [7, 0xFFFF, 5, 9]
    assert out[4] == np.float32(0.25).view(np.uint32)
    assert out[5] == np.float64(3).view(np.uint64)


def test_int_parameters_take_negative_values_for_nvccs_u32(module):
    # nvcc declares `int n` as .u32: -1 is accepted and packed as its two's complement
    y = np.ones(4, dtype=np.float32)
    module.get_kernel("saxpy")(1, 4, (-1, 1.0, np.zeros(4, np.float32), y))
    np.testing.assert_array_equal(y, np.ones(4, np.float32))


@pytest.mark.parametrize("position,value,error,pattern", [
    (0, 256, OverflowError, r"argument 1 \('typed_param_0', \.u8\).*256 does not fit 8 bits "
     r"\(-128\.\.255\)"),
    (1, 70000, OverflowError, r"argument 2 .*\.u16.*70000 does not fit 16 bits "
     r"\(-32768\.\.65535\)"),
    (2, 2**32, OverflowError, r"4294967296 does not fit 32 bits \(-2147483648\.\.4294967295\)"),
    (4, 1e39, OverflowError, r"argument 5 .*\.f32.*1e\+39 does not fit f32 \(largest finite"),
    (2, 1.5, TypeError, r"argument 3 .*\.u32.* takes an integer; float 1\.5 given"),
    (4, "1", TypeError, r"argument 5 .* takes a number; str '1' given"),
    (2, np.zeros(2), TypeError, r"argument 3 .* is not a pointer"),
])
def test_scalar_errors_name_the_argument(module, position, value, error, pattern):
    args = [1, 1, 1, 1, 1.0, 1.0]
    args[position] = value
    with pytest.raises(error, match=pattern):
        run_typed(module, *args)


def test_scalar_for_a_pointer_is_refused_by_size(module):
    with pytest.raises(TypeError, match=r"argument 2 .*\.u64.* takes an integer; float"):
        module.get_kernel("add_into")(1, 1, (np.zeros(1, np.int32), 1.0, 1))


def test_wrong_argument_count(module):
    with pytest.raises(TypeError, match=r"takes 4 arguments \(\.u32, \.f32, \.u64, \.u64\), "
                                        r"3 given"):
        module.get_kernel("saxpy")(1, 1, (1, 1.0, np.zeros(1, np.float32)))


def test_the_same_array_twice_shares_one_device_buffer(module):
    v = np.arange(10, dtype=np.int32)
    module.get_kernel("add_into")(1, 32, (v, v, 10))
    np.testing.assert_array_equal(v, 2 * np.arange(10))


def test_overlapping_views_alias_as_on_a_gpu(module):
    v = np.ones(11, dtype=np.int32)
    # y = v[1:], x = v[:10]: in a single warp every lane loads before any stores
    module.get_kernel("add_into")(1, 32, (v[:10], v[1:], 10))
    np.testing.assert_array_equal(v, [1] + [2] * 10)


def test_strided_view_is_written_back(module):
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    column = m[:, 1]
    module.get_kernel("halves")(1, 32, (column, 3))
    np.testing.assert_array_equal(m[:, 1], [2.0, -5.0, 18.0])
    np.testing.assert_array_equal(m[:, 0], [0.0, 4.0, 8.0])


def test_read_only_array_is_not_written(module):
    v = np.arange(4, dtype=np.float32)
    v.flags.writeable = False
    module.get_kernel("halves")(1, 32, (v, 4))
    np.testing.assert_array_equal(v, np.arange(4, dtype=np.float32))


def test_host_thread_options_give_the_same_result(module):
    outs = []
    for options in ({"threads": 1}, {"threads": 2}, {"serial": True}):
        v = np.linspace(-1, 1, 5000, dtype=np.float32)
        module.get_kernel("halves")(40, 128, (v, 5000), **options)
        outs.append(v)
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0], outs[2])


def param(ptx_type, bytes_=None):
    return {"name": "p", "type": ptx_type, "ptx_type": "." + ptx_type, "vec_width": 1,
            "is_array": False, "bytes": bytes_ or int(ptx_type[1:]) // 8}


def test_signed_and_untyped_parameters_from_hand_written_ptx():
    assert convert(-2**31, 1, param("s32"), "k") == (2**31).to_bytes(4, "little")
    with pytest.raises(OverflowError, match=r"2147483648 does not fit 32 bits "
                                            r"\(-2147483648\.\.2147483647\)"):
        convert(2**31, 1, param("s32"), "k")
    assert convert(1.5, 1, param("b32"), "k") == np.float32(1.5).tobytes()
    assert convert(1.5, 1, param("b64"), "k") == np.float64(1.5).tobytes()
    assert convert(-1, 1, param("b16"), "k") == b"\xff\xff"
    assert convert(65504.0, 1, param("f16"), "k") == np.float16(65504).tobytes()
    with pytest.raises(OverflowError, match="does not fit f16"):
        convert(70000.0, 1, param("f16"), "k")
    assert convert(float("inf"), 1, param("f32"), "k") == np.float32("inf").tobytes()


def test_struct_parameters_take_bytes_of_their_size():
    struct = {"name": "s", "type": "b8", "ptx_type": ".b8[8]", "vec_width": 1,
              "is_array": True, "bytes": 8}
    pair = np.array([(1, 2.5)], dtype=[("i", "<i4"), ("f", "<f4")])[0]
    assert convert(pair, 1, struct, "k") == pair.tobytes()
    with pytest.raises(ValueError, match="takes 8 bytes; 4 given"):
        convert(b"abcd", 1, struct, "k")
