"""nanvar, nanstd, nanargmin/nanargmax, nancumsum/nancumprod and ptp against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, eps_of, make_input

INEXACT = FLOAT_DTYPES + [np.complex64, np.complex128]


def with_nans(rng, a, fraction=0.3):
    """a with about `fraction` of its elements NaN (inexact dtypes only)."""
    a = a.copy()
    if a.dtype.kind in "fc":
        a[rng.random(a.shape) < fraction] = np.nan
    return a


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
def test_nanvar_nanstd(device, rng, dtype, axis, name):
    a = with_nans(rng, random_array(rng, (3, 4, 5), dtype, low=-10, high=10))
    x = cp.asarray(a)
    e = eps_of(dtype) or 1e-15
    rtol = 64 * e
    for ddof in (0, 1):
        expected = quiet(getattr(np, name), a, axis=axis, ddof=ddof)
        got = getattr(cp, name)(x, axis=axis, ddof=ddof)
        assert_matches(got, expected, rtol=rtol, atol=rtol * 100)
    expected = quiet(getattr(np, name), a, axis=axis, keepdims=True)
    assert_matches(getattr(cp, name)(x, axis=axis, keepdims=True), expected, rtol=rtol, atol=rtol * 100)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_nanvar_layouts_and_all_nan_slices(device, rng, layout):
    a, _ = make_input(rng, random_array, (4, 6), np.float64, layout)
    a = with_nans(rng, a)
    a[1] = np.nan  # a slice with nothing left: NaN
    a[2, :5] = np.nan  # one value left: NaN with ddof=1
    x = cp.asarray(a)
    for ddof in (0, 1, 2):
        assert_matches(cp.nanvar(x, axis=1, ddof=ddof), quiet(np.nanvar, a, axis=1, ddof=ddof), rtol=1e-12)
        assert_matches(cp.nanstd(x, axis=0, ddof=ddof), quiet(np.nanstd, a, axis=0, ddof=ddof), rtol=1e-12)


def test_nanvar_options(device, rng):
    a = with_nans(rng, random_array(rng, (5, 6), np.float32))
    x = cp.asarray(a)
    # NumPy forms the deviations in float32 even with dtype=float64
    assert_matches(cp.nanvar(x, axis=0, dtype=np.float64), np.nanvar(a, axis=0, dtype=np.float64), rtol=1e-6)
    assert_matches(cp.nanstd(x, axis=1, correction=1), np.nanstd(a, axis=1, correction=1), rtol=1e-5)
    out = cp.zeros(6, dtype=np.float32)
    r = cp.nanvar(x, axis=0, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.nanvar(a, axis=0), rtol=1e-5)
    with pytest.raises(TypeError, match="must be inexact"):
        cp.nanvar(x, dtype=np.int64)
    with pytest.raises(ValueError, match="simultaneously"):
        cp.nanvar(x, ddof=1, correction=1)
    assert_matches(cp.var(x, correction=1), np.var(a, correction=1), rtol=1e-5)
    # Fractional corrections divide by n - ddof as they are.
    assert_matches(cp.std(x, axis=0, correction=0.5, keepdims=True),
                   np.std(a, axis=0, correction=0.5, keepdims=True), rtol=1e-5)
    assert_matches(cp.nanvar(x, axis=1, ddof=1.5), np.nanvar(a, axis=1, ddof=1.5), rtol=1e-5)


def test_nanvar_empty(device):
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 0), ((0, 3), 1)]:
        a = np.zeros(shape)
        assert_matches(cp.nanvar(cp.asarray(a), axis=axis), quiet(np.nanvar, a, axis=axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanargminmax(device, rng, dtype, name):
    a = with_nans(rng, random_array(rng, (4, 5, 6), dtype))
    a[..., 0] = random_array(rng, (4, 5), dtype)  # every slice keeps a number
    x = cp.asarray(a)
    for axis in (None, 2, -1):
        assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
        assert_matches(getattr(cp, name)(x, axis=axis, keepdims=True), getattr(np, name)(a, axis=axis, keepdims=True))
    b = random_array(rng, (4, 5, 6), dtype)  # no NaN: every axis
    for axis in (0, 1):
        assert_matches(getattr(cp, name)(cp.asarray(b), axis=axis), getattr(np, name)(b, axis=axis))


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanargminmax_errors_and_out(device, name):
    a = np.array([[np.nan, 1.0, 2.0], [np.nan, np.nan, np.nan]])
    x = cp.asarray(a)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(cp, name)(x, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(cp, name)(cp.asarray(np.full(3, np.nan)))
    assert_matches(getattr(cp, name)(x[:, 1:], axis=0), getattr(np, name)(a[:, 1:], axis=0))
    with pytest.raises(ValueError, match="empty sequence"):
        getattr(cp, name)(cp.zeros((2, 0)), axis=1)
    out = cp.zeros(3, dtype=np.int64)
    b = np.array([[3.0, np.nan], [1.0, 2.0], [np.nan, 0.0]])
    r = getattr(cp, name)(cp.asarray(b), axis=1, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, getattr(np, name)(b, axis=1))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
def test_nancumsum_nancumprod(device, rng, dtype, name):
    a = with_nans(rng, random_array(rng, (3, 4), dtype, low=-3, high=3))
    x = cp.asarray(a)
    e = eps_of(dtype)
    for axis in (None, 0, 1):
        expected = getattr(np, name)(a, axis=axis)
        assert_matches(getattr(cp, name)(x, axis=axis), expected, rtol=16 * e, atol=16 * e)
    if dtype in (np.int16, np.float32):
        expected = getattr(np, name)(a, axis=1, dtype=np.float64)
        assert_matches(getattr(cp, name)(x, axis=1, dtype=np.float64), expected, rtol=1e-12)
        out = cp.zeros((3, 4), dtype=np.float64)
        getattr(cp, name)(x, axis=0, out=out)
        assert_matches(out, getattr(np, name)(a, axis=0).astype(np.float64), rtol=16 * e)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d is not np.bool_])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ptp(device, rng, dtype, axis, layout):
    a, x = make_input(rng, random_array, (4, 5), dtype, layout)
    assert_matches(cp.ptp(x, axis=axis), np.ptp(a, axis=axis))
    assert_matches(cp.ptp(x, axis=axis, keepdims=True), np.ptp(a, axis=axis, keepdims=True))


def test_ptp_errors_and_out(device, rng):
    with pytest.raises(TypeError, match="boolean subtract"):
        cp.ptp(cp.asarray(np.array([True, False])))
    with pytest.raises(ValueError, match="zero-size array"):
        cp.ptp(cp.zeros((0, 3)), axis=0)
    a = np.array([[np.nan, 1.0], [2.0, 5.0]])
    assert_matches(cp.ptp(cp.asarray(a), axis=0), np.ptp(a, axis=0))
    out = cp.zeros(2)
    r = cp.ptp(cp.asarray(a), axis=1, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.ptp(a, axis=1))
    i8 = np.array([-100, 100], dtype=np.int8)  # wraps, as NumPy's subtract
    assert_matches(cp.ptp(cp.asarray(i8)), np.ptp(i8))


@pytest.mark.parametrize("dtype", INT_DTYPES[:2])
def test_nan_forms_of_integers_are_plain(device, rng, dtype):
    a = random_array(rng, (3, 4), dtype)
    x = cp.asarray(a)
    assert_matches(cp.nanvar(x, axis=0), np.nanvar(a, axis=0), rtol=1e-13)
    assert_matches(cp.nanargmax(x, axis=1), np.nanargmax(a, axis=1))
    assert_matches(cp.nancumsum(x), np.nancumsum(a))
