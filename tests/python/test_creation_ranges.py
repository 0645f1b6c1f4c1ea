"""arange, linspace, logspace, eye, identity against NumPy. Values are computed with
NumPy's own operation order and precision, so comparisons are exact (bitwise),
except logspace, whose pow() may differ from NumPy's by an ulp."""
import math

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, NUMERIC_DTYPES


def check(c, n):
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape
    assert c.dtype == n.dtype
    np.testing.assert_array_equal(c.get(), n)


ARANGE_ARGS = [(5,), (0,), (-3,), (2, 9), (9, 2), (9, 2, -2), (-5, 7, 3), (0.5,), (0.1, 1.0, 0.3), (1, 2.5, 0.25),
               (10, 0, -0.7), (-1.5, 1.5, 0.1), (0, 1e-3, 1e-4), (3, 4, 10), (1e6, 1e6 + 5), (0, 1j), (0, 3, 0.5 + 0j),
               (np.int32(2), 6), (np.float32(0.5), 3), (True, 3)]


@pytest.mark.parametrize("args", ARANGE_ARGS)
def test_arange_default_dtype(device, args):
    check(cp.arange(*args), np.arange(*args))


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES)
@pytest.mark.parametrize("args", [(7,), (1, 9, 2), (0.5, 5, 1.5), (-3.5, 5, 1.5), (0, 1, 0.1), (2, -1, -0.25),
                                  (0.1, 0.9, 0.07)])
def test_arange_dtype(device, dtype, args):
    if np.dtype(dtype).kind == "u" and min(args) < 0:
        pytest.skip("NumPy's own result wraps differently by platform for negative unsigned ranges")
    check(cp.arange(*args, dtype=dtype), np.arange(*args, dtype=dtype))


def test_arange_keywords_and_bool(device):
    check(cp.arange(start=2, stop=8, step=3), np.arange(start=2, stop=8, step=3))
    check(cp.arange(2, dtype=np.bool_), np.arange(2, dtype=np.bool_))
    check(cp.arange(cp.asarray(np.int64(4))), np.arange(4))


def test_arange_errors(device):
    with pytest.raises(ZeroDivisionError, match="^division by zero$"):
        cp.arange(0, 5, 0)
    with pytest.raises(ZeroDivisionError):
        cp.arange(0.0, 5, 0.0)
    with pytest.raises(ValueError, match="^Maximum allowed size exceeded$"):
        cp.arange(0, np.inf)
    with pytest.raises(ValueError, match="^arange: cannot compute length$"):
        cp.arange(np.nan)
    with pytest.raises(TypeError, match=r"^arange\(\) is only supported for booleans when the result has at most "
                                        r"length 2\.$"):
        cp.arange(5, dtype=np.bool_)


LINSPACE_ARGS = [(0, 1, 5), (0, 1, 50), (-3, 7, 11), (1, 0, 4), (0.1, 0.9, 7), (2, 2, 4), (0, 1, 1), (0, 1, 0),
                 (0, 1, 2), (-1e10, 1e-10, 13), (0, 1j, 3), (1 + 1j, -2, 6), (np.float32(0), 1, 9),
                 (np.float16(1), 3, 5), (np.int32(3), 10, 8)]


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("args", LINSPACE_ARGS)
def test_linspace(device, args, endpoint):
    check(cp.linspace(*args, endpoint=endpoint), np.linspace(*args, endpoint=endpoint))
    c, c_step = cp.linspace(*args, endpoint=endpoint, retstep=True)
    n, n_step = np.linspace(*args, endpoint=endpoint, retstep=True)
    check(c, n)
    assert type(c_step) is type(n_step)
    if isinstance(n_step, float) and math.isnan(n_step):
        assert math.isnan(c_step)
    else:
        assert c_step == n_step


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("args", [(0, 1, 5), (-3, 1, 5), (-7.5, 7.5, 9), (0, 100, 7), (10, 0, 6)])
def test_linspace_dtype(device, dtype, args):
    if np.dtype(dtype).kind == "u" and min(args) < 0:
        pytest.skip("negative values into unsigned types are platform-dependent casts in NumPy")
    # Integer dtypes: NumPy 2 rounds toward -inf before casting.
    check(cp.linspace(*args, dtype=dtype), np.linspace(*args, dtype=dtype))


def test_linspace_errors(device):
    with pytest.raises(ValueError, match="^Number of samples, -1, must be non-negative.$"):
        cp.linspace(0, 1, -1)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        cp.linspace(0, 1, 3.0)


@pytest.mark.parametrize("args,kwargs", [((0, 3, 4), {}), ((0, 3, 4), {"base": 2}), ((-2, 2, 9), {"base": 3.5}),
                                         ((1, 0, 5), {"endpoint": False}), ((0, 3, 4), {"dtype": np.int64}),
                                         ((np.float32(0), 2, 5), {}), ((0, 1, 0), {}), ((2, 3, 1), {})])
def test_logspace(device, args, kwargs):
    c, n = cp.logspace(*args, **kwargs), np.logspace(*args, **kwargs)
    assert c.dtype == n.dtype and c.shape == n.shape
    # pow() of the platform libm, as NumPy's; allow one ulp in case the loops differ.
    np.testing.assert_array_max_ulp(c.get(), n, maxulp=1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 4, 1), (4, 3, -1), (3, 4, 5), (3, 4, -5), (0, None, 0),
                                   (1, 1, 0), (2, 5, 3), (5, 2, -4)])
def test_eye(device, dtype, n, m, k):
    check(cp.eye(n, m, k, dtype=dtype), np.eye(n, m, k, dtype=dtype))


def test_eye_identity_defaults_and_errors(device):
    check(cp.eye(3), np.eye(3))
    check(cp.eye(N=2, M=3, k=-1), np.eye(N=2, M=3, k=-1))
    check(cp.identity(4), np.identity(4))
    check(cp.identity(3, dtype=np.int8), np.identity(3, dtype=np.int8))
    with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
        cp.eye(-1)


# ---------------------------------------------------------------- array bounds and axis

@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 5])
def test_linspace_logspace_array_bounds(device, rng, axis, endpoint, num):
    start = rng.uniform(-5, 5, (2, 3))
    stop = rng.uniform(-5, 5, (3,))
    for lo, hi in [(start, stop), (start.astype(np.float32), 2), (start.tolist(), stop.tolist()), (1.5, stop)]:
        kw = dict(num=num, endpoint=endpoint, axis=axis)
        want = np.linspace(lo, hi, **kw)
        got = cp.linspace(cp.asarray(lo) if isinstance(lo, np.ndarray) else lo, hi, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)
        y, step = cp.linspace(lo, hi, retstep=True, **kw)
        want_y, want_step = np.linspace(lo, hi, retstep=True, **kw)
        np.testing.assert_allclose(np.asarray(step.get() if isinstance(step, cp.ndarray) else step), want_step,
                                   rtol=1e-6)
        np.testing.assert_allclose(cp.logspace(lo, hi, **kw).get(), np.logspace(lo, hi, **kw), rtol=1e-5)
    np.testing.assert_allclose(cp.linspace(start, stop, 4, dtype=np.int16, axis=1).get(),
                               np.linspace(start, stop, 4, dtype=np.int16, axis=1))
    base = np.array([2.0, 3.0, 10.0])
    np.testing.assert_allclose(cp.logspace(start, stop, 4, base=base, axis=axis).get(),
                               np.logspace(start, stop, 4, base=base, axis=axis), rtol=1e-6)


def test_linspace_denormal_step(device):
    import sys
    want = np.linspace(0.0, sys.float_info.min, 10)
    np.testing.assert_array_equal(cp.linspace(0.0, sys.float_info.min, 10).get(), want)
    smallest = np.nextafter(0.0, 1.0)  # a step that underflows to zero: NumPy divides i first
    for stop in (smallest, 3 * smallest, -smallest):
        np.testing.assert_array_equal(cp.linspace(0.0, stop, 10).get(), np.linspace(0.0, stop, 10))
    want = np.linspace(np.zeros(2), np.full(2, sys.float_info.min), 10)
    np.testing.assert_array_equal(cp.linspace(np.zeros(2), np.full(2, sys.float_info.min), 10).get(), want)


def check_grid(c, n):
    if isinstance(n, tuple):
        assert isinstance(c, tuple) and len(c) == len(n)
        for ci, ni in zip(c, n):
            check_close(ci, ni)
    else:
        check_close(c, n)


def check_close(c, n):
    assert isinstance(c, cp.ndarray) and c.shape == n.shape and c.dtype == n.dtype
    np.testing.assert_allclose(c.get(), n, rtol=1e-12)


@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_mgrid_ogrid(device, rng, grid):
    lo, hi = sorted(rng.uniform(-20, 20, 2))
    i, j = sorted(int(v) for v in rng.integers(-9, 9, 2))
    n = int(rng.integers(2, 9))
    keys = [np.s_[0:], np.s_[3:], np.s_[i:j], np.s_[i:j + 5:2], np.s_[lo:hi:n * 1j], np.s_[lo:hi:1j],
            np.s_[i:j + 4, lo:hi:n * 1j], np.s_[0:5:2.5, i:j + 3], np.s_[lo:hi:n * 1j, i:j + 2, 0:2]]
    for key in keys:
        check_grid(getattr(cp, grid)[key], getattr(np, grid)[key])
    # Array bounds broadcast against the points (as NumPy's).
    a, b = rng.uniform(-5, 0, (n, 1)), rng.uniform(0, 5, (n, 1))
    ca, cb = cp.asarray(a), cp.asarray(b)
    check_grid(getattr(cp, grid)[ca:cb:n * 1j], getattr(np, grid)[a:b:n * 1j])
    check_grid(getattr(cp, grid)[ca:cb:n * 1j, ca:cb:n * 1j], getattr(np, grid)[a:b:n * 1j, a:b:n * 1j])
