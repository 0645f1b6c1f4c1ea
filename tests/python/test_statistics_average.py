"""average, cov and corrcoef against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array
from reduction_cases import assert_matches, eps_of, make_input

NUMERIC = [d for d in ALL_DTYPES if d is not np.bool_]


def tolerance(*dtypes):
    e = max(eps_of(np.result_type(*dtypes, np.float16)), 1e-15)
    return 64 * e


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_average_unweighted(device, rng, dtype, axis):
    a = random_array(rng, (3, 4, 5), dtype, low=-10, high=10)
    x = cp.asarray(a)
    rtol = tolerance(dtype)
    assert_matches(cp.average(x, axis=axis), np.average(a, axis=axis), rtol=rtol, atol=rtol)
    avg, scl = cp.average(x, axis=axis, returned=True, keepdims=True)
    e_avg, e_scl = np.average(a, axis=axis, returned=True, keepdims=True)
    assert_matches(avg, e_avg, rtol=rtol, atol=rtol)
    assert_matches(scl, e_scl)


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("wdtype", [np.int32, np.float32, np.float64])
def test_average_weighted(device, rng, dtype, wdtype):
    a = random_array(rng, (3, 4, 5), dtype, low=-10, high=10)
    w = random_array(rng, (3, 4, 5), wdtype, low=1, high=5)
    x, wx = cp.asarray(a), cp.asarray(w)
    rtol = tolerance(dtype, wdtype)
    for axis in (None, 1, (0, 2)):
        assert_matches(cp.average(x, axis=axis, weights=wx), np.average(a, axis=axis, weights=w), rtol=rtol, atol=rtol)
        got = cp.average(x, axis=axis, weights=wx, returned=True, keepdims=True)
        expected = np.average(a, axis=axis, weights=w, returned=True, keepdims=True)
        assert_matches(got[0], expected[0], rtol=rtol, atol=rtol)
        assert_matches(got[1], expected[1], rtol=rtol, atol=rtol)


def test_average_weights_along_axes(device, rng):
    a = random_array(rng, (3, 4, 5), np.float64)
    for axis, wshape in [(1, (4,)), ((2, 0), (5, 3)), ((0, 2), (3, 5)), (-1, (5,))]:
        w = random_array(rng, wshape, np.float64, low=1, high=3)
        x = cp.asarray(a)
        assert_matches(cp.average(x, axis=axis, weights=cp.asarray(w)), np.average(a, axis=axis, weights=w),
                       rtol=1e-13)
        got = cp.average(x, axis=axis, weights=cp.asarray(w), returned=True)
        expected = np.average(a, axis=axis, weights=w, returned=True)
        assert_matches(got[1], expected[1], rtol=1e-13)
    # Python lists as weights
    assert_matches(cp.average(cp.asarray(a), axis=1, weights=[1, 2, 3, 4]), np.average(a, axis=1, weights=[1, 2, 3, 4]),
                   rtol=1e-13)


def test_average_errors(device):
    x = cp.ones((3, 4))
    with pytest.raises(TypeError, match="Axis must be specified"):
        cp.average(x, weights=cp.ones(4))
    with pytest.raises(ValueError, match="Shape of weights must be consistent"):
        cp.average(x, axis=1, weights=cp.ones(3))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        cp.average(x, axis=1, weights=cp.asarray([1.0, -1.0, 0.0, 0.0]))
    with pytest.raises(np.exceptions.AxisError):
        cp.average(x, axis=2)


def cov_cases(rng, dtype):
    return [random_array(rng, (3, 6), dtype, low=-5, high=5), random_array(rng, (6,), dtype, low=-5, high=5)]


@pytest.mark.parametrize("dtype", NUMERIC)
def test_cov(device, rng, dtype):
    for m in cov_cases(rng, dtype):
        x = cp.asarray(m)
        rtol = tolerance(dtype, np.float64)
        atol = rtol * 100
        assert_matches(cp.cov(x), np.cov(m), rtol=rtol, atol=atol)
        assert_matches(cp.cov(x, rowvar=False), np.cov(m, rowvar=False), rtol=rtol, atol=atol)
        assert_matches(cp.cov(x, bias=True), np.cov(m, bias=True), rtol=rtol, atol=atol)
        assert_matches(cp.cov(x, ddof=2), np.cov(m, ddof=2), rtol=rtol, atol=atol)
        y = random_array(rng, m.shape, dtype, low=-5, high=5)
        assert_matches(cp.cov(x, cp.asarray(y)), np.cov(m, y), rtol=rtol, atol=atol)


def test_cov_weights_and_dtype(device, rng):
    m = random_array(rng, (3, 7), np.float64)
    x = cp.asarray(m)
    fw = rng.integers(0, 4, size=7)
    aw = rng.uniform(0.5, 2, size=7)
    for kw in [dict(fweights=fw), dict(aweights=aw), dict(fweights=fw, aweights=aw),
               dict(fweights=fw, aweights=aw, ddof=0), dict(aweights=aw, bias=True)]:
        ckw = {k: (cp.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        assert_matches(cp.cov(x, **ckw), np.cov(m, **kw), rtol=1e-12, atol=1e-12)
    assert_matches(cp.cov(x, dtype=np.float32), np.cov(m, dtype=np.float32), rtol=1e-5, atol=1e-5)
    assert_matches(cp.cov(x.astype(np.float32)), np.cov(m.astype(np.float32)), rtol=1e-6, atol=1e-6)
    assert_matches(cp.cov(x, ddof=1.0), np.cov(m, ddof=1.0), rtol=1e-12)


def test_cov_errors_and_edges(device, rng):
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        cp.cov(cp.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="y has more than 2 dimensions"):
        cp.cov(x, cp.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="ddof must be integer"):
        cp.cov(x, ddof=1.5)
    with pytest.raises(TypeError, match="fweights must be integer"):
        cp.cov(x, fweights=cp.asarray([1.5, 1, 1]))
    with pytest.raises(RuntimeError, match="incompatible numbers of samples and fweights"):
        cp.cov(x, fweights=cp.asarray([1, 1]))
    with pytest.raises(RuntimeError, match="cannot handle multidimensional aweights"):
        cp.cov(x, aweights=cp.ones((3, 1)))
    with pytest.raises(ValueError, match="aweights cannot be negative"):
        cp.cov(x, aweights=cp.asarray([1.0, -1.0, 1.0]))
    assert_matches(cp.cov(cp.zeros((0, 3))), np.cov(np.zeros((0, 3))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        one = np.array([1.0, 2.0])[:1]
        assert_matches(cp.cov(cp.asarray(one)), np.cov(one))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64, np.complex128])
def test_corrcoef(device, rng, dtype):
    for m in cov_cases(rng, dtype):
        x = cp.asarray(m)
        rtol = tolerance(dtype, np.float64) * 4
        assert_matches(cp.corrcoef(x), np.corrcoef(m), rtol=rtol, atol=rtol)
        assert_matches(cp.corrcoef(x, rowvar=False), np.corrcoef(m, rowvar=False), rtol=rtol, atol=rtol)
        y = random_array(rng, m.shape, dtype, low=-5, high=5)
        assert_matches(cp.corrcoef(x, cp.asarray(y)), np.corrcoef(m, y), rtol=rtol, atol=rtol)
    m = random_array(rng, (3, 6), np.float64)
    assert_matches(cp.corrcoef(cp.asarray(m), dtype=np.float32), np.corrcoef(m, dtype=np.float32), rtol=1e-5, atol=1e-6)
    with pytest.warns(DeprecationWarning):
        cp.corrcoef(cp.asarray(m), bias=1)


@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_cov_noncontiguous(device, rng, layout):
    m, x = make_input(rng, random_array, (3, 8), np.float64, layout)
    assert_matches(cp.cov(x), np.cov(m), rtol=1e-12, atol=1e-12)
    assert_matches(cp.corrcoef(x), np.corrcoef(m), rtol=1e-12, atol=1e-12)
