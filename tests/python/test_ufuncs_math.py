"""Exponential, logarithmic, trigonometric, hyperbolic and rounding ufuncs against NumPy
over every dtype (unsupported ones must raise TypeError as in NumPy), plus special values."""
import re
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, FLOAT_DTYPES, random_array
from ufunc_cases import assert_same, check, np_call, random_operand

EXP_LOG = ["sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p"]
TRIG = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
        "arctanh"]
ROUNDING = ["floor", "ceil", "trunc", "rint"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", EXP_LOG + TRIG + ROUNDING)
def test_unary_math_every_dtype(device, rng, name, dtype):
    x = random_operand(rng, name, (4, 6), dtype)
    check(getattr(np, name), getattr(cp, name), (x,), (cp.asarray(x),), name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["arctan2", "hypot"])
def test_binary_math_every_dtype(device, rng, name, dtype):
    a = random_operand(rng, name, (4, 6), dtype)
    b = random_operand(rng, name, (4, 6), dtype)
    check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", EXP_LOG + TRIG + ROUNDING)
def test_special_values(device, name, dtype):
    x = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, np.inf, -np.inf, np.nan, 2.5, -2.5, 3.5, 1e-30], dtype=dtype)
    check(getattr(np, name), getattr(cp, name), (x,), (cp.asarray(x),), name)


def scattered_specials(rng, n, dtype):
    """n random values of one function's whole range with NaNs, infinities, signed zeros and
    edge values at random places: the CPU's vector loops (backend/cpu/vector_math.h) send
    registers holding such lanes through their patching path, so every mix must agree."""
    x = rng.uniform(-3, 3, n) * 10.0 ** rng.integers(-3, 3, n)
    edges = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-30, -1e-30, 800.0,
                      -800.0, 1e30])
    pick = rng.random(n) < 0.3
    x[pick] = rng.choice(edges, int(pick.sum()))
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", EXP_LOG + TRIG + ROUNDING)
def test_long_arrays_with_scattered_special_values(device, rng, name, dtype):
    # Lengths around the register widths and past a block; contiguous, strided, reversed
    # and in place (the loops' gather and kept-input paths); values, NaN positions, signed
    # zeros and errstate's flags as NumPy's.
    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
    for n in (17, 1000, 4099):
        x = scattered_specials(rng, n, dtype)
        for key in (slice(None), slice(None, None, 3), slice(None, None, -1)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the flags are compared below
                got = check(np_fn, cp_fn, (x[key],), (cp.asarray(x)[key],), name).get()
            want = np_call(np_fn, x[key])
            zero = want == 0
            np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]), err_msg=name)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
        with cp.errstate(all="ignore"):
            inplace = cp.asarray(x)
            cp_fn(inplace, out=inplace)
        assert_same(inplace, np_call(np_fn, x), name)
    with warnings.catch_warnings(record=True) as seen_np:
        warnings.simplefilter("always")
        np_fn(x)
    with warnings.catch_warnings(record=True) as seen_cp:
        warnings.simplefilter("always")
        cp_fn(cp.asarray(x)).get()
    assert sorted(str(w.message) for w in seen_cp) == sorted(str(w.message) for w in seen_np), name


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["arctan2", "hypot"])
def test_binary_math_long_arrays_with_scattered_special_values(device, rng, name, dtype):
    # Contiguous, strided, a broadcast scalar on either side and in place.
    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
    for n in (17, 4099):
        a, b = scattered_specials(rng, n, dtype), scattered_specials(rng, n, dtype)
        cases = [((a, b), (cp.asarray(a), cp.asarray(b))),
                 ((a[::-2], b[::2][::-1]), (cp.asarray(a)[::-2], cp.asarray(b)[::2][::-1])),
                 ((a, b[3]), (cp.asarray(a), cp.asarray(b)[3])),
                 ((a[5], b), (cp.asarray(a)[5], cp.asarray(b)))]
        for np_args, cp_args in cases:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = check(np_fn, cp_fn, np_args, cp_args, name).get()
            want = np_call(np_fn, *np_args)
            zero = want == 0
            np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]), err_msg=name)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
        inplace = cp.asarray(a)
        with cp.errstate(all="ignore"):
            cp_fn(inplace, cp.asarray(b), out=inplace)
        assert_same(inplace, np_call(np_fn, a, b), name)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_absolute_long_arrays_with_scattered_special_values(device, rng, dtype):
    # |z| runs through the vector hypot over deinterleaved parts on the CPU: NaN and infinite
    # parts anywhere (|inf + nan j| is inf), huge parts (overflow), strided and reversed.
    for n in (17, 4099):
        z = np.empty(n, dtype)
        z.real = scattered_specials(rng, n, np.float64) * 10.0 ** rng.integers(-30, 30, n)
        z.imag = scattered_specials(rng, n, np.float64)
        for key in (slice(None), slice(None, None, -3)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = check(np.absolute, cp.absolute, (z[key],), (cp.asarray(z)[key],), "absolute").get()
            want = np_call(np.absolute, z[key])
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
        with warnings.catch_warnings(record=True) as seen_np:
            warnings.simplefilter("always")
            np.absolute(z)
        with warnings.catch_warnings(record=True) as seen_cp:
            warnings.simplefilter("always")
            cp.absolute(cp.asarray(z)).get()
        assert sorted(str(w.message) for w in seen_cp) == sorted(str(w.message) for w in seen_np)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_arctan2_and_hypot_special_values(device, dtype):
    v = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan], dtype=dtype)
    a, b = np.repeat(v, len(v)), np.tile(v, len(v))
    for name in ["arctan2", "hypot"]:
        check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cos", "tanh", "arctan", "arcsinh"])
def test_complex_functions_on_axes_and_quadrants(device, name, dtype):
    re = np.array([0.0, 1.0, -1.0, 0.5, -2.0, 3.0, 0.0, -0.0], dtype=np.float64)
    im = np.array([1.0, 0.0, 0.0, -0.5, 2.0, -3.0, -1.0, 0.0], dtype=np.float64)
    z = (re + 1j * im).astype(dtype)
    check(getattr(np, name), getattr(cp, name), (z,), (cp.asarray(z),), name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_angle(device, rng, dtype):
    z = random_array(rng, (5,), dtype)
    for deg in (False, True):
        expected = np_call(np.angle, z, deg=deg)
        got = cp.angle(cp.asarray(z), deg=deg)
        assert got.dtype == expected.dtype
        eps = np.finfo(expected.dtype).eps
        np.testing.assert_allclose(got.get(), expected, rtol=8 * eps, atol=8 * eps)


ROUND_DECIMALS = [0, 1, 2, 3, -1, -2]


@pytest.mark.parametrize("decimals", ROUND_DECIMALS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_around(device, rng, dtype, decimals):
    x = random_array(rng, (3, 7), dtype, -1000, 1000)
    if np.dtype(dtype).kind == "f":
        x[0, :4] = np.array([0.5, 1.5, 2.5, -2.5], dtype=dtype) * (10.0 ** -decimals)
    try:
        expected = np_call(np.round, x, decimals)
    except TypeError as exc:  # bool with decimals: NumPy's in-place multiply refuses
        with pytest.raises(TypeError, match=re.escape(str(exc))):
            cp.around(cp.asarray(x), decimals)
        return
    got = cp.around(cp.asarray(x), decimals)
    assert got.dtype == expected.dtype
    # Inexact types run NumPy's own multiply-rint-divide in the same dtype: same bits.
    np.testing.assert_array_equal(got.get(), expected)
    np.testing.assert_array_equal(cp.round(cp.asarray(x), decimals).get(), expected)
    np.testing.assert_array_equal(cp.asarray(x).round(decimals).get(), expected)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_around_integers_half_to_even(device, dtype):
    info = np.iinfo(dtype)
    values = [5, 15, 25, 35, 44, 46, 125]
    if info.bits < 64:  # NumPy rounds through float64, exact only below 2**53
        values.append(info.max // 100 * 10 + 5)
    if info.min < 0:
        values += [-5, -15, -25, -46, -125]
    x = np.array(values, dtype=dtype)
    for decimals in [-1, -2, -3]:
        assert_same(cp.around(cp.asarray(x), decimals), np.round(x, decimals), "rint")


def test_around_integers_exact_beyond_float_precision(device):
    # NumPy rounds integers through float64 and loses the low digits above 2**53;
    # copper rounds in integer arithmetic, so the result is the exact nearest multiple.
    values = [2**62 + 5, 2**62 + 15, -(2**62) - 16, 2**62 + 25]
    got = cp.around(cp.asarray(np.array(values, dtype=np.int64)), -1).get()
    # Python's round() on int is exact and rounds half to even.
    np.testing.assert_array_equal(got, np.array([round(v, -1) for v in values], dtype=np.int64))


def test_around_large_decimals_and_out(device, rng):
    x = random_array(rng, (6,), np.float64)
    expected = np_call(np.round, x, 400)  # 10**400 overflows to inf: NumPy gives nan
    np.testing.assert_array_equal(cp.around(cp.asarray(x), 400).get(), expected)
    out = cp.asarray(np.zeros(6, np.float32))
    r = cp.around(cp.asarray(x), 1, out=out)
    assert r is out
    np.testing.assert_array_equal(out.get(), np.round(x, 1).astype(np.float32))


def test_around_python_scalar(device):
    assert cp.around(2.567, 2).get() == np.round(2.567, 2)
