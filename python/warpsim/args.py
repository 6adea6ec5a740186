"""Kernel arguments typed from the kernel's PTX signature.

Scalars are converted by value to the parameter's PTX type: a Python float (or int) for a .f32
parameter is packed as f32, an int for .u32/.s64/... as that integer. A value the type cannot
hold raises OverflowError; a value of the wrong kind (a float for an integer parameter, an array
for a 32-bit one) raises TypeError. numpy arrays stand for device pointers (64-bit parameters).
"""

import math

import numpy as np

_FLOATS = {16: np.float16, 32: np.float32, 64: np.float64}
_LARGEST = {16: "65504", 32: "3.4028235e+38", 64: "1.7976931348623157e+308"}


def _where(position, param, kernel):
    return (f"argument {position} ('{param['name']}', {param['ptx_type']}) of kernel "
            f"{kernel}")


def _shown(value):
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def _raw_bytes(value, position, param, kernel):
    """A parameter passed by value as bytes (a struct, an array, a vector)."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        data = value.tobytes()
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError(f"{_where(position, param, kernel)} takes {param['bytes']} bytes by "
                        f"value (bytes or a numpy value); {_shown(value)} given")
    if len(data) != param["bytes"]:
        raise ValueError(f"{_where(position, param, kernel)} takes {param['bytes']} bytes; "
                         f"{len(data)} given")
    return data


def convert(value, position, param, kernel):
    """bytes for a scalar parameter, a numpy array for a pointer parameter."""
    if param["is_array"] or param["vec_width"] > 1:
        return _raw_bytes(value, position, param, kernel)
    ptx = param["type"]
    kind, bits = ptx[0], int(ptx[1:]) if ptx[1:].isdigit() else 0
    if isinstance(value, np.ndarray):
        if bits != 64 or kind == "f":
            raise TypeError(f"{_where(position, param, kernel)} is not a pointer; a numpy "
                            "array (a 64-bit device pointer) was given")
        return value
    if isinstance(value, np.generic):
        value = value.item()
    if kind == "f" or (kind == "b" and isinstance(value, float) and bits in _FLOATS):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{_where(position, param, kernel)} takes a number; "
                            f"{_shown(value)} given")
        try:
            real = float(value)
        except OverflowError:
            raise OverflowError(f"{_where(position, param, kernel)}: {value} does not fit "
                                f"f{bits} (largest finite value {_LARGEST[bits]})") from None
        with np.errstate(over="ignore"):
            packed = _FLOATS[bits](real)
        if math.isfinite(real) and not np.isfinite(packed):
            raise OverflowError(f"{_where(position, param, kernel)}: {value!r} does not fit "
                                f"f{bits} (largest finite value {_LARGEST[bits]})")
        return packed.tobytes()
    if kind in "usb" and bits in (8, 16, 32, 64):
        if not isinstance(value, int):
            raise TypeError(f"{_where(position, param, kernel)} takes an integer; "
                            f"{_shown(value)} given")
        # nvcc declares `int` parameters .u32, so a .uN parameter takes negative values too
        # (their two's complement); a .sN one takes the signed range only.
        low = -(1 << (bits - 1))
        high = (1 << (bits - 1)) - 1 if kind == "s" else (1 << bits) - 1
        if not low <= value <= high:
            raise OverflowError(f"{_where(position, param, kernel)}: {value} does not fit "
                                f"{bits} bits ({low}..{high})")
        return (value & ((1 << bits) - 1)).to_bytes(bits // 8, "little")
    raise TypeError(f"{_where(position, param, kernel)}: warpsim cannot pass a .{ptx} "
                    "parameter from Python")
