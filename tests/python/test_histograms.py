"""bincount, histogram, histogram_bin_edges, histogram2d and histogramdd against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from reduction_cases import assert_matches

REAL_DTYPES = [d for d in ALL_DTYPES if np.dtype(d).kind not in "c"]


def np_histogram(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns converting bool input
        return np.histogram(*args, **kwargs)


# ---- bincount -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.bool_] + INT_DTYPES)
def test_bincount(device, rng, dtype):
    x = random_array(rng, (200,), dtype, low=0, high=60)
    assert_matches(cp.bincount(cp.asarray(x)), np.bincount(x))
    assert_matches(cp.bincount(cp.asarray(x), minlength=100), np.bincount(x, minlength=100))
    assert_matches(cp.bincount(cp.asarray(x), minlength=3), np.bincount(x, minlength=3))


@pytest.mark.parametrize("wdtype", REAL_DTYPES)
def test_bincount_weights(device, rng, wdtype):
    x = rng.integers(0, 20, size=300)
    w = random_array(rng, (300,), wdtype, low=-5, high=5)
    expected = np.bincount(x, weights=w, minlength=25)
    got = cp.bincount(cp.asarray(x), weights=cp.asarray(w), minlength=25)
    assert_matches(got, expected, rtol=1e-12, atol=1e-12)


def test_bincount_layouts_and_sizes(device, rng):
    x = rng.integers(0, 1000, size=(3, 100_000))[1, ::3]  # strided view
    w = rng.random(300_000)[::-9][: x.size]
    cx = cp.asarray(np.ascontiguousarray(np.stack([x, x]))).T[:, 0]
    assert_matches(cp.bincount(cx), np.bincount(x))
    assert_matches(cp.bincount(cp.asarray(x), weights=cp.asarray(w)), np.bincount(x, weights=w), rtol=1e-12)
    big = rng.integers(0, 5_000_000, size=1000)  # more bins than fit any private copy
    assert_matches(cp.bincount(cp.asarray(big)), np.bincount(big))
    many = rng.integers(0, 7, size=2_000_000)  # several ranges on the CPU
    assert_matches(cp.bincount(cp.asarray(many)), np.bincount(many))
    assert_matches(cp.bincount(cp.asarray(np.zeros(0, np.int64)), minlength=4), np.bincount(np.zeros(0, np.int64), minlength=4))
    assert_matches(cp.bincount([0, 1, 1, 5]), np.bincount([0, 1, 1, 5]))
    assert_matches(cp.bincount(cp.asarray(np.zeros(0, int)), weights=cp.zeros(0)),
                   np.bincount(np.zeros(0, int), weights=np.zeros(0)))


def test_bincount_errors(device):
    with pytest.raises(ValueError, match="object too deep"):
        cp.bincount(cp.zeros((2, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="too small depth"):
        cp.bincount(cp.asarray(np.int64(3)))
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float64'\\) to dtype\\('int64'\\)"):
        cp.bincount(cp.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        cp.bincount(cp.asarray([1, 2]), minlength=-1)
    with pytest.raises(TypeError, match="use 0 instead of None"):
        cp.bincount(cp.asarray([1, 2]), minlength=None)
    with pytest.raises(ValueError, match="must have no negative elements"):
        cp.bincount(cp.asarray([-1, 2]))
    with pytest.raises(ValueError, match="don't have the same length"):
        cp.bincount(cp.asarray([1, 2]), weights=cp.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="complex128"):
        cp.bincount(cp.asarray([1, 2]), weights=cp.asarray([1j, 2]))
    with pytest.raises(TypeError):
        cp.bincount(x=cp.asarray([1, 2]))  # positional-only, as NumPy's


# ---- histogram ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("bins", [1, 7, 100])
def test_histogram_integer_bins(device, rng, dtype, bins):
    a = random_array(rng, (3, 50), dtype)
    hist, edges = cp.histogram(cp.asarray(a), bins=bins)
    e_hist, e_edges = np_histogram(a, bins=bins)
    assert_matches(edges, e_edges)
    assert_matches(hist, e_hist)


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float16, np.float32, np.float64])
def test_histogram_range(device, rng, dtype):
    a = random_array(rng, (400,), dtype)
    for rng_ in [(0, 50), (-20.5, 30.25), (10, 10), (np.float32(-3), np.float32(4)), (-1000, 1000)]:
        hist, edges = cp.histogram(cp.asarray(a), bins=13, range=rng_)
        e_hist, e_edges = np.histogram(a, bins=13, range=rng_)
        assert_matches(edges, e_edges)
        assert_matches(hist, e_hist)


def test_histogram_values_on_edges(device):
    # Values exactly on interior edges, on the last edge, and just around them.
    a = np.concatenate([np.linspace(0, 1, 11), np.nextafter(np.linspace(0, 1, 11), 2), [0.3, 0.7, 1.0, -0.0]])
    for dtype in (np.float32, np.float64):
        x = a.astype(dtype)
        for bins in (10, 3, np.array([0.0, 0.1, 0.1, 0.5, 1.0]), [0.2, 0.3]):
            hist, edges = cp.histogram(cp.asarray(x), bins=bins)
            e_hist, e_edges = np.histogram(x, bins=bins)
            assert_matches(hist, e_hist)
            assert_matches(edges, e_edges)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_histogram_array_bins(device, rng, dtype):
    a = random_array(rng, (300,), dtype)
    for bins in ([-50, -10, 0, 3, 3, 40, 90], np.array([0.5, 1.5, 20.25]), np.array([-128, 0, 127], np.int8),
                 np.array([0, 2 ** 40], np.uint64)):
        if np.dtype(dtype) == np.bool_ and np.asarray(bins).dtype.kind == "u":
            continue
        hist, edges = cp.histogram(cp.asarray(a), bins=cp.asarray(bins))
        e_hist, e_edges = np_histogram(a, bins=bins)
        assert_matches(hist, e_hist)
        assert_matches(edges, np.asarray(e_edges))
        hist, _ = cp.histogram(cp.asarray(a), bins=bins if isinstance(bins, list) else bins.tolist())
        assert_matches(hist, np_histogram(a, bins=list(np.asarray(bins)))[0])


@pytest.mark.parametrize("wdtype", REAL_DTYPES + [np.complex64, np.complex128])
def test_histogram_weights(device, rng, wdtype):
    a = random_array(rng, (500,), np.float32)
    w = random_array(rng, (500,), wdtype, low=-3, high=3)
    for bins in (9, [-100, -3, 0, 50, 100]):
        if np.dtype(wdtype) in (np.bool_, np.float16) and isinstance(bins, list):
            continue  # NumPy fails (bool += int64), or sums float16 cumulatively in float16
        hist, _ = cp.histogram(cp.asarray(a), bins=bins, weights=cp.asarray(w))
        e_hist, _ = np.histogram(a, bins=bins, weights=w)
        tol = 1e-3 if np.dtype(wdtype) in (np.float16, np.float32, np.complex64) else 1e-12
        assert_matches(hist, e_hist, rtol=tol, atol=tol)


def test_histogram_density(device, rng):
    a = random_array(rng, (2, 300), np.float64)
    w = rng.random((2, 300))
    for bins in (10, [-100, -50, 0, 1, 100]):
        for weights in (None, w):
            hist, edges = cp.histogram(cp.asarray(a), bins=bins, density=True,
                                       weights=None if weights is None else cp.asarray(weights))
            e_hist, e_edges = np.histogram(a, bins=bins, density=True, weights=weights)
            assert_matches(hist, e_hist, rtol=1e-12)
    ai = random_array(rng, (300,), np.int32)
    assert_matches(cp.histogram(cp.asarray(ai), bins=[-100, 0, 100], density=True)[0],
                   np.histogram(ai, bins=[-100, 0, 100], density=True)[0], rtol=1e-12)


def test_histogram_nan_inf_and_empty(device):
    a = np.array([1.0, np.nan, 2.0, np.inf, -np.inf, 3.0])
    for bins in (4, [0.0, 1.5, 3.0]):
        hist, edges = cp.histogram(cp.asarray(a), bins=bins, range=(0, 3))
        e_hist, e_edges = np.histogram(a, bins=bins, range=(0, 3))
        assert_matches(hist, e_hist)
        assert_matches(edges, e_edges)
    e = np.zeros(0)
    for bins in (5, [0, 1, 2]):
        hist, edges = cp.histogram(cp.asarray(e), bins=bins)
        e_hist, e_edges = np.histogram(e, bins=bins)
        assert_matches(hist, e_hist)
        assert_matches(edges, np.asarray(e_edges))
    hist, edges = cp.histogram(cp.asarray(np.array([5], np.int8)))
    e_hist, e_edges = np.histogram(np.array([5], np.int8))
    assert_matches(hist, e_hist)
    assert_matches(edges, e_edges)


def test_histogram_large(device, rng):
    # Several CPU ranges, GPU vector loads with a ragged tail, strided input.
    a = rng.standard_normal(1_000_003).astype(np.float32)
    hist, edges = cp.histogram(cp.asarray(a), bins=100)
    e_hist, e_edges = np.histogram(a, bins=100)
    assert_matches(edges, e_edges)
    assert_matches(hist, e_hist)
    b = rng.standard_normal((1000, 300))
    hist, _ = cp.histogram(cp.asarray(b)[:, ::7], bins=50, range=(-2, 2))
    assert_matches(hist, np.histogram(b[:, ::7], bins=50, range=(-2, 2))[0])
    many = rng.uniform(0, 1, 20_000)
    hist, _ = cp.histogram(cp.asarray(many), bins=20_000)  # global atomics on the GPU
    assert_matches(hist, np.histogram(many, bins=20_000)[0])


def test_histogram_errors(device):
    x = cp.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="`bins` must be 1d, when an array"):
        cp.histogram(x, bins=[[1, 2]])
    with pytest.raises(TypeError, match="`bins` must be an integer, a string, or an array"):
        cp.histogram(x, bins=1.5)
    with pytest.raises(ValueError, match="'foo' is not a valid estimator for `bins`"):
        cp.histogram(x, bins="foo")
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        cp.histogram(cp.asarray([1.0, np.nan]))
    with pytest.raises(ValueError, match=r"supplied range of \[0, inf\] is not finite"):
        cp.histogram(x, range=(0, np.inf))
    with pytest.raises(ValueError, match="max must be larger than min"):
        cp.histogram(x, range=(3, 1))
    with pytest.raises(ValueError, match="`bins` must increase monotonically"):
        cp.histogram(x, bins=[1, 3, 2])
    with pytest.raises(ValueError, match="`bins` must be positive, when an integer"):
        cp.histogram(x, bins=0)
    with pytest.raises(ValueError, match="weights should have the same shape as a."):
        cp.histogram(x, weights=cp.asarray([1.0]))
    with pytest.raises(ValueError, match="Too many bins for data range. Cannot create 100 finite-sized bins."):
        cp.histogram(cp.asarray([1.0, 1 + 1e-15]), bins=100)
    with pytest.raises(TypeError, match="not supported for weighted data"):
        cp.histogram(x, bins="sqrt", weights=x)


@pytest.mark.parametrize("estimator", ["sqrt", "sturges", "rice", "scott", "doane", "stone", "fd", "auto"])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_histogram_bin_estimators(device, rng, estimator, dtype):
    a = random_array(rng, (500,), dtype)
    for range_ in (None, (-50, 60)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            e_edges = np.histogram_bin_edges(a, bins=estimator, range=range_)
            e_hist, _ = np.histogram(a, bins=estimator, range=range_)
        assert_matches(cp.histogram_bin_edges(cp.asarray(a), bins=estimator, range=range_), e_edges,
                       rtol=1e-6 if dtype == np.float32 else 1e-12)
        hist, _ = cp.histogram(cp.asarray(a), bins=estimator, range=range_)
        assert_matches(hist, e_hist)


def test_histogram_bin_edges(device, rng):
    a = random_array(rng, (100,), np.float64)
    for bins in (5, [0, 1, 2]):
        assert_matches(cp.histogram_bin_edges(cp.asarray(a), bins=bins), np.asarray(np.histogram_bin_edges(a, bins=bins)))
    assert_matches(cp.histogram_bin_edges(cp.asarray(a), bins=4, range=(0, 1)), np.histogram_bin_edges(a, 4, (0, 1)))
    assert_matches(cp.histogram_bin_edges(cp.asarray(np.zeros(0)), bins="sqrt"), np.histogram_bin_edges(np.zeros(0), "sqrt"))


# ---- histogram2d / histogramdd ------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_histogram2d(device, rng, dtype):
    x = random_array(rng, (300,), dtype)
    y = random_array(rng, (300,), dtype, low=0, high=10)
    w = rng.random(300)
    cases = [dict(), dict(bins=5), dict(bins=[4, 6]), dict(bins=[[-100, 0, 100], [0, 5, 10]]),
             dict(bins=[-100, -10, 0, 10, 100]), dict(bins=3, range=[[-50, 50], [0, 5]]),
             dict(bins=4, density=True), dict(bins=[3, [0, 2, 10]], weights=w),
             dict(bins=4, weights=w, density=True)]
    for kw in cases:
        ckw = dict(kw)
        if "weights" in ckw:
            ckw["weights"] = cp.asarray(ckw["weights"])
        hist, xe, ye = cp.histogram2d(cp.asarray(x), cp.asarray(y), **ckw)
        e_hist, e_xe, e_ye = np.histogram2d(x, y, **kw)
        assert_matches(hist, e_hist, rtol=1e-12, atol=1e-12)
        assert_matches(xe, np.asarray(e_xe))
        assert_matches(ye, np.asarray(e_ye))


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32, np.float64])
def test_histogramdd(device, rng, dtype):
    s = random_array(rng, (400, 3), dtype, low=0, high=50)
    w = rng.random(400)
    cases = [dict(), dict(bins=4), dict(bins=(2, 3, 4)), dict(bins=[[0, 10, 50], 3, np.array([0.0, 25.0, 50.0])]),
             dict(bins=3, range=[(0, 20), None, (10, 40)]), dict(bins=5, density=True), dict(bins=3, weights=w),
             dict(bins=(3, 4, 2), weights=w, density=True)]
    for kw in cases:
        ckw = dict(kw)
        if "weights" in ckw:
            ckw["weights"] = cp.asarray(ckw["weights"])
        hist, edges = cp.histogramdd(cp.asarray(s), **ckw)
        e_hist, e_edges = np.histogramdd(s, **kw)
        assert_matches(hist, e_hist, rtol=1e-12, atol=1e-12)
        assert len(edges) == len(e_edges)
        for got, exp in zip(edges, e_edges):
            assert_matches(got, np.asarray(exp))
    # a sequence of coordinate arrays, and a 1-D sample
    hist, _ = cp.histogramdd([cp.asarray(s[:, 0]), cp.asarray(s[:, 1])], bins=3)
    assert_matches(hist, np.histogramdd([s[:, 0], s[:, 1]], bins=3)[0])
    hist, _ = cp.histogramdd(cp.asarray(s[:, 0]), bins=6)
    assert_matches(hist, np.histogramdd(s[:, 0], bins=6)[0])


def test_histogramdd_nan_and_errors(device):
    s = np.array([[0.0, 1.0], [np.nan, 0.5], [1.0, 1.0], [0.5, np.inf]])
    hist, _ = cp.histogramdd(cp.asarray(s), bins=2, range=[(0, 1), (0, 1)])
    assert_matches(hist, np.histogramdd(s, bins=2, range=[(0, 1), (0, 1)])[0])
    x = cp.asarray(np.ones((3, 2)))
    with pytest.raises(ValueError, match="The dimension of bins must be equal"):
        cp.histogramdd(x, bins=[2, 2, 2])
    with pytest.raises(ValueError, match="range argument must have one entry per dimension"):
        cp.histogramdd(x, range=[(0, 1)])
    with pytest.raises(ValueError, match=r"`bins\[1\]` must be positive, when an integer"):
        cp.histogramdd(x, bins=[2, 0])
    with pytest.raises(TypeError, match=r"`bins\[0\]` must be an integer, when a scalar"):
        cp.histogramdd(x, bins=[2.5, 2])
    with pytest.raises(ValueError, match=r"`bins\[0\]` must be monotonically increasing"):
        cp.histogramdd(x, bins=[[2, 1], 2])
    with pytest.raises(ValueError, match=r"`bins\[0\]` must be a scalar or 1d array"):
        cp.histogramdd(x, bins=[[[1, 2]], 2])
    with pytest.raises(ValueError, match="same length"):
        cp.histogramdd(x, weights=cp.ones(2))
