"""Shared pieces of the ufunc tests: op lists, input domains, tolerances, and a runner
that checks copper against NumPy (value, dtype, shape, or the same exception type)."""
import warnings

import numpy as np
import pytest

import copper as cp

UNARY = ("negative positive absolute reciprocal square sqrt cbrt exp exp2 expm1 log log2 log10 log1p "
         "sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint "
         "sign logical_not invert isnan isinf isfinite conjugate").split()
BINARY = ("add subtract multiply true_divide floor_divide remainder fmod power arctan2 hypot maximum "
          "minimum fmax fmin greater greater_equal less less_equal equal not_equal logical_and logical_or "
          "logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift").split()

# Ops whose every result is exactly determined (IEEE correctly rounded, integer or
# boolean results): copper must match NumPy bit for bit.
EXACT = set("negative positive absolute square sqrt floor ceil trunc rint sign logical_not invert isnan isinf "
            "isfinite conjugate add subtract multiply floor_divide remainder fmod maximum minimum fmax fmin "
            "greater greater_equal less less_equal equal not_equal logical_and logical_or logical_xor "
            "bitwise_and bitwise_or bitwise_xor left_shift right_shift".split())
# Correctly rounded for real types, but computed by formulas for complex ones (division
# by Smith's method or by scaling, |z| by hypot, sign as z/|z|...), where libraries differ
# in the last bits: exact for real dtypes only.
REAL_ONLY_EXACT = {"true_divide", "reciprocal", "sqrt", "absolute", "square", "sign", "multiply", "power"}

# Transcendental functions: libm and NumPy's SIMD kernels are each accurate to a few
# ulp, so two correct implementations may differ by up to ~4 ulp each: 8 eps.
ULPS = 8


def tolerance(name, dtype):
    """(rtol, atol) for comparing op `name` computed over `dtype` with NumPy."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        return 0.0, 0.0
    if dtype.kind == "f" and (name in EXACT or name in REAL_ONLY_EXACT) and name != "power":
        return 0.0, 0.0
    if dtype.kind == "c" and name in EXACT and name not in REAL_ONLY_EXACT:
        return 0.0, 0.0
    if dtype == np.float16:
        # Computed in float32 and rounded once to float16, as NumPy does: at most one
        # float16 ulp apart when the float32 results straddle a rounding boundary.
        eps = float(np.finfo(np.float16).eps)
        return eps, eps
    eps = float(np.finfo(dtype).eps)
    if dtype.kind == "c" and name == "power":
        # exp(b * log(a)): the rounding error of log(a) is multiplied by |b|, and the
        # exponent's error becomes a relative error of the result; |b log a| reaches ~16 here.
        return 16 * ULPS * eps, 16 * ULPS * eps
    if dtype.kind == "c" and name not in ("true_divide", "reciprocal", "multiply", "square"):
        # Complex elementary functions are composed of several real ones (log, atan2,
        # hypot...), whose errors add up: allow four times the real budget.
        return 4 * ULPS * eps, 4 * ULPS * eps
    return ULPS * eps, ULPS * eps


def domain(name, dtype):
    """(low, high) for random inputs: wide enough to reach NaN/inf edges, not only the easy part."""
    kind = np.dtype(dtype).kind
    if name in ("arcsin", "arccos", "arctanh"):
        return (-1.2, 1.2) if kind in "fc" else (-1, 1)
    if name == "arccosh":
        return (0.5, 50)
    if name in ("exp", "exp2", "expm1", "sinh", "cosh"):
        return (-20, 20) if kind in "fc" else (-10, 10)
    if name in ("power",):
        return (-4, 4)
    if name in ("left_shift", "right_shift"):
        return (-20, 20)
    return (-100, 100)


def random_operand(rng, name, shape, dtype):
    from conftest import random_array
    low, high = domain(name, dtype)
    return random_array(rng, shape, dtype, low, high)


def expected_exception(exc):
    for t in (OverflowError, ValueError, TypeError):
        if isinstance(exc, t):
            return t
    return type(exc)


def assert_same(got, expected, name, loop_dtype=None):
    """copper result `got` equals NumPy's `expected` in dtype, shape and values; the
    tolerance follows the dtype the op computed in (`loop_dtype`, default: the result's)."""
    assert isinstance(got, cp.ndarray), type(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    assert got.shape == expected.shape, (name, got.shape, expected.shape)
    rtol, atol = tolerance(name, expected.dtype if loop_dtype is None else loop_dtype)
    host = got.get()
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(host, expected, err_msg=name, strict=True)
    elif expected.dtype.kind == "c":
        if name == "power" and expected.dtype == np.complex64:
            # NumPy's complex64 power loses ~1e-6 of |z| (copper computes it in double),
            # so a part much smaller than |z| is compared relative to |z|.
            finite = np.isfinite(expected)
            atol = max(atol, rtol * float(np.max(np.abs(expected[finite]), initial=0.0)))
        # Part by part: a complex inf with a slightly different finite part is still close.
        for part in (np.real, np.imag):
            np.testing.assert_allclose(part(host), part(expected), rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=name)
    else:
        np.testing.assert_allclose(host, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=name)


def np_call(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)


def check(np_fn, cp_fn, np_args, cp_args, name, **kwargs):
    """Runs both; either both succeed with equal results, or copper raises NumPy's exception type."""
    try:
        expected = np_call(np_fn, *np_args, **kwargs)
    except Exception as exc:  # NumPy refuses: copper must refuse the same way
        with pytest.raises(expected_exception(exc)):
            cp_fn(*cp_args, **kwargs)
        return None
    got = cp_fn(*cp_args, **kwargs)
    arrays = [np.asarray(a) for a in np_args if a is not None]
    loop = np.result_type(*arrays, expected) if arrays else None
    assert_same(got, expected, name, loop)
    return got
