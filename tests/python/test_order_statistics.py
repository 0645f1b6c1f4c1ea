"""median, quantile, percentile and their nan forms against NumPy: every method, dtypes,
axes, keepdims, NaNs, weights, out=, errors."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import FLOAT_DTYPES, INT_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, make_input

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
REAL = [np.bool_] + INT_DTYPES + FLOAT_DTYPES
AXES = [None, 0, 1, -1, (0, 2), (1, 2)]


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


def tol(dtype):
    return {np.float16: 2e-3, np.float32: 2e-6}.get(np.dtype(dtype).type, 1e-12)


def with_nans(rng, a, fraction=0.25):
    a = a.copy()
    if a.dtype.kind == "f":
        a[rng.random(a.shape) < fraction] = np.nan
    return a


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("axis", AXES)
def test_median(device, rng, dtype, axis):
    a = random_array(rng, (4, 5, 6), dtype)
    x = cp.asarray(a)
    assert_matches(cp.median(x, axis=axis), np.median(a, axis=axis), rtol=tol(dtype))
    assert_matches(cp.median(x, axis=axis, keepdims=True), np.median(a, axis=axis, keepdims=True), rtol=tol(dtype))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_median_layouts_and_nan(device, rng, layout, n):
    a, x = make_input(rng, random_array, (3, n), np.float64, layout)
    assert_matches(cp.median(x, axis=1), np.median(a, axis=1))
    b = a.copy()
    b[1, 0] = np.nan
    assert_matches(cp.median(cp.asarray(b), axis=1), np.median(b, axis=1))
    assert_matches(cp.median(cp.asarray(b)), np.median(b))


def test_median_empty_and_out(device):
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 1), ((0, 3), 1)]:
        a = np.zeros(shape)
        assert_matches(cp.median(cp.asarray(a), axis=axis), quiet(np.median, a, axis=axis))
    a = np.arange(12.0).reshape(3, 4)
    out = cp.zeros(3)
    r = cp.median(cp.asarray(a), axis=1, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.median(a, axis=1))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("axis", AXES)
def test_nanmedian(device, rng, dtype, axis):
    a = with_nans(rng, random_array(rng, (4, 5, 6), dtype))
    a[1, 2] = np.nan  # an all-NaN slice along the last axis
    x = cp.asarray(a)
    assert_matches(cp.nanmedian(x, axis=axis), quiet(np.nanmedian, a, axis=axis), rtol=tol(dtype))
    assert_matches(cp.nanmedian(x, axis=axis, keepdims=True), quiet(np.nanmedian, a, axis=axis, keepdims=True),
                   rtol=tol(dtype))


def test_nanmedian_ints_and_empty(device, rng):
    a = random_array(rng, (4, 6), np.int16)
    assert_matches(cp.nanmedian(cp.asarray(a), axis=1), np.nanmedian(a, axis=1))
    for shape, axis in [((0,), None), ((0, 3), 0), ((0, 3), 1)]:
        e = np.zeros(shape)
        assert_matches(cp.nanmedian(cp.asarray(e), axis=axis), quiet(np.nanmedian, e, axis=axis))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64])
def test_quantile_methods(device, rng, method, dtype):
    a = random_array(rng, (3, 11), dtype)
    x = cp.asarray(a)
    for q in (0.0, 0.1337, 0.5, 1.0, [0.0, 0.25, 0.3, 0.999, 1.0], np.float32(0.3), np.array([[0.1, 0.9]])):
        expected = np.quantile(a, q, axis=1, method=method)
        got = cp.quantile(x, q if not isinstance(q, np.ndarray) or q.ndim == 0 else cp.asarray(q), axis=1,
                          method=method)
        assert_matches(got, expected, rtol=tol(expected.dtype))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 10])
def test_quantile_methods_small_n(device, rng, method, n):
    a = random_array(rng, (2, n), np.float64)
    q = np.linspace(0, 1, 21)
    assert_matches(cp.quantile(cp.asarray(a), cp.asarray(q), axis=1, method=method),
                   np.quantile(a, q, axis=1, method=method), rtol=1e-12)
    assert_matches(cp.percentile(cp.asarray(a), 100 * q, axis=1, method=method),
                   np.percentile(a, 100 * q, axis=1, method=method), rtol=1e-12)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("axis", AXES)
def test_quantile_axes(device, rng, dtype, axis):
    a = random_array(rng, (4, 5, 6), dtype)
    x = cp.asarray(a)
    q = [0.2, 0.75]
    if dtype is np.bool_:  # NumPy's interpolation subtracts booleans and raises; the picking methods work
        with pytest.raises(TypeError, match="boolean subtract"):
            cp.quantile(x, q, axis=axis)
        for method in ("lower", "higher", "nearest", "inverted_cdf"):
            assert_matches(cp.quantile(x, q, axis=axis, method=method), np.quantile(a, q, axis=axis, method=method))
        return
    assert_matches(cp.quantile(x, q, axis=axis), np.quantile(a, q, axis=axis), rtol=tol(np.float64))
    assert_matches(cp.quantile(x, 0.4, axis=axis, keepdims=True), np.quantile(a, 0.4, axis=axis, keepdims=True),
                   rtol=tol(dtype if np.dtype(dtype).kind == "f" else np.float64))
    assert_matches(cp.percentile(x, 40, axis=axis), np.percentile(a, 40, axis=axis),
                   rtol=tol(dtype if np.dtype(dtype).kind == "f" else np.float64))


def test_quantile_nan_and_inf(device, rng):
    a = random_array(rng, (4, 7), np.float64)
    a[0, 3] = np.nan
    a[1, 2] = np.inf
    a[2, :] = -np.inf
    for method in METHODS:
        assert_matches(cp.quantile(cp.asarray(a), [0.0, 0.5, 1.0], axis=1, method=method),
                       quiet(np.quantile, a, [0.0, 0.5, 1.0], axis=1, method=method))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_nanquantile(device, rng, method, dtype):
    a = with_nans(rng, random_array(rng, (5, 9), dtype))
    a[2] = np.nan
    a[3, 1:] = np.nan  # one value left
    x = cp.asarray(a)
    for q in (0.3, [0.0, 0.5, 1.0]):
        for axis in (None, 0, 1):
            expected = quiet(np.nanquantile, a, q, axis=axis, method=method)
            assert_matches(cp.nanquantile(x, q, axis=axis, method=method), expected, rtol=tol(expected.dtype))
    expected = quiet(np.nanpercentile, a, [10, 90], axis=1, method=method, keepdims=True)
    assert_matches(cp.nanpercentile(x, [10, 90], axis=1, method=method, keepdims=True), expected,
                   rtol=tol(expected.dtype))


def test_nanquantile_ints_and_empty(device, rng):
    a = random_array(rng, (4, 6), np.int32)
    assert_matches(cp.nanquantile(cp.asarray(a), 0.3, axis=1), np.nanquantile(a, 0.3, axis=1))
    e = np.zeros((0, 3))
    assert_matches(cp.nanquantile(cp.asarray(e), [0.1, 0.5], axis=0), quiet(np.nanquantile, e, [0.1, 0.5], axis=0))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_quantile_weights(device, rng, dtype):
    a = random_array(rng, (4, 9), dtype)
    w = rng.integers(0, 4, size=(4, 9)).astype(np.float64)
    w[:, 0] += 1  # no row of zeros
    x, wx = cp.asarray(a), cp.asarray(w)
    for q in (0.0, 0.3, [0.1, 0.5, 1.0]):
        for axis in (None, 1):
            assert_matches(cp.quantile(x, q, axis=axis, method="inverted_cdf", weights=wx),
                           np.quantile(a, q, axis=axis, method="inverted_cdf", weights=w))
    w1 = rng.random(9)
    assert_matches(cp.percentile(x, [20, 80], axis=1, method="inverted_cdf", weights=cp.asarray(w1)),
                   np.percentile(a, [20, 80], axis=1, method="inverted_cdf", weights=w1))
    if np.dtype(dtype).kind == "f":
        b = with_nans(rng, a)
        b[0] = np.nan
        assert_matches(cp.nanquantile(cp.asarray(b), 0.4, axis=1, method="inverted_cdf", weights=wx),
                       quiet(np.nanquantile, b, 0.4, axis=1, method="inverted_cdf", weights=w))


def test_quantile_errors_and_out(device, rng):
    x = cp.asarray(np.arange(10.0).reshape(2, 5))
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        cp.quantile(x, 1.5)
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        cp.percentile(x, [-1, 50])
    with pytest.raises(ValueError, match="q must be a scalar or 1d"):
        cp.quantile(x, cp.zeros((1, 1, 1)))
    with pytest.raises(ValueError, match="'foo' is not a valid method"):
        cp.quantile(x, 0.5, method="foo")
    with pytest.raises(TypeError, match="real numbers"):
        cp.quantile(cp.asarray([1j]), 0.5)
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        cp.quantile(x, 0.5, weights=cp.ones((2, 5)))
    with pytest.raises(ValueError, match="Weights must be non-negative"):
        cp.quantile(x, 0.5, method="inverted_cdf", weights=-cp.ones((2, 5)))
    with pytest.raises(ValueError, match="Weights included NaN, inf or were all zero"):
        cp.quantile(x, 0.5, method="inverted_cdf", weights=cp.zeros((2, 5)))
    with pytest.raises(IndexError):
        cp.quantile(cp.zeros((2, 0)), 0.5, axis=1)
    out = cp.zeros((3, 2))
    r = cp.quantile(x, [0.1, 0.5, 0.9], axis=1, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.quantile(np.arange(10.0).reshape(2, 5), [0.1, 0.5, 0.9], axis=1))


def test_quantile_large_rows(device, rng):
    a = rng.standard_normal((20, 5000)).astype(np.float32)
    assert_matches(cp.median(cp.asarray(a), axis=1), np.median(a, axis=1))
    assert_matches(cp.percentile(cp.asarray(a), [1, 50, 99], axis=1), np.percentile(a, [1, 50, 99], axis=1),
                   rtol=1e-12)
    assert_matches(cp.quantile(cp.asarray(a), 0.3), np.quantile(a, 0.3), rtol=1e-6)



@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [1, 2, 7, 8, 1000, 1001])
def test_median_selection_many_rows(device, rng, dtype, n):
    """Enough rows for the GPU's per-row selection (Backend::middle_pair): few distinct
    values (long runs of equal keys around the middle), negative zeros, infinities, NaN
    rows; median and nanmedian bit-for-bit as NumPy's (equal middles, exact means)."""
    rows = 40
    if np.dtype(dtype).kind == "f":
        pool = np.array([-np.inf, -2.5, -0.0, 0.0, 1.0, 1.0, 3.0, np.inf, 65504.0], dtype)
        a = pool[rng.integers(0, len(pool), (rows, n))]
        a[3] = random_array(rng, (n,), dtype)
        a[5, rng.integers(0, n)] = np.nan  # one NaN
        a[7] = np.nan  # all NaN
        a[9, : n // 2] = np.nan  # half NaN
    else:
        a = random_array(rng, (rows, n), dtype)
        a[::2] = a[::2] % 3 if dtype is not np.bool_ else a[::2]
    x = cp.asarray(a)
    assert_matches(cp.median(x, axis=1), quiet(np.median, a, axis=1))
    assert_matches(cp.median(x.T, axis=0), quiet(np.median, a.T, axis=0))
    if np.dtype(dtype).kind == "f":
        assert_matches(cp.nanmedian(x, axis=1), quiet(np.nanmedian, a, axis=1))
        assert_matches(cp.nanmedian(x, axis=1, keepdims=True), quiet(np.nanmedian, a, axis=1, keepdims=True))
