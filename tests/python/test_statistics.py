"""mean, var, std, nanmean and count_nonzero against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, eps_of, make_input

AXES = [None, 0, 1, -1, (0, 2)]


def stat_tolerance(a, dtype):
    """Accumulation order differs from NumPy's; float16 accumulates in float32 here
    (NumPy rounds some steps to float16), so float16 gets float16-sized slack."""
    t = np.dtype(dtype)
    if t.kind not in "fc":
        return 1e-13, 1e-13  # computed in float64
    e = eps_of(t)
    return 64 * e, 64 * e * max(1.0, float(np.max(np.abs(a.astype(np.complex128)))) if a.size else 1.0)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mean(device, rng, dtype, axis, layout):
    a, x = make_input(rng, random_array, (3, 4, 5), dtype, layout)
    rtol, atol = stat_tolerance(a, dtype)
    assert_matches(cp.mean(x, axis=axis), np.mean(a, axis=axis), rtol=rtol, atol=atol)
    assert_matches(x.mean(axis=axis, keepdims=True), a.mean(axis=axis, keepdims=True), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std(device, rng, dtype, axis, ddof, name):
    a, x = make_input(rng, random_array, (3, 4, 5), dtype, "strided", low=-10, high=10)
    expected = getattr(np, name)(a, axis=axis, ddof=ddof)
    rtol, atol = stat_tolerance(a, dtype)
    atol = atol * (20 if name == "var" else 1)  # var is in squared units
    assert_matches(getattr(cp, name)(x, axis=axis, ddof=ddof), expected, rtol=rtol, atol=atol)
    assert_matches(getattr(x, name)(axis=axis, ddof=ddof, keepdims=True),
                   getattr(a, name)(axis=axis, ddof=ddof, keepdims=True), rtol=rtol, atol=atol)


def test_var_large_ddof_and_empty(device):
    a = np.arange(6.0).reshape(2, 3)
    x = cp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_matches(cp.var(x, axis=0, ddof=2), np.var(a, axis=0, ddof=2))
        assert_matches(cp.std(x, ddof=9), np.std(a, ddof=9))
        assert_matches(cp.mean(cp.zeros((0, 3)), axis=0), np.mean(np.zeros((0, 3)), axis=0))
        assert_matches(cp.mean(cp.zeros((0,))), np.mean(np.zeros((0,))))
        assert_matches(cp.var(cp.zeros((0, 2)), axis=0), np.var(np.zeros((0, 2)), axis=0))


@pytest.mark.parametrize("src,dt", [(np.int16, np.float32), (np.float64, np.float32), (np.float32, np.float64),
                                    (np.float16, np.float64), (np.complex64, np.complex128)])
@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean"])
def test_stat_dtype_argument(device, rng, src, dt, name):
    a = random_array(rng, (5, 6), src, low=-10, high=10)
    x = cp.asarray(a)
    expected = getattr(np, name)(a, axis=0, dtype=dt)
    rtol = 64 * eps_of(dt)
    assert_matches(getattr(cp, name)(x, axis=0, dtype=dt), expected, rtol=rtol, atol=rtol * 100)


@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean"])
def test_stat_out(device, rng, name):
    a = random_array(rng, (4, 6), np.float64)
    x = cp.asarray(a)
    big = cp.zeros((6, 2))
    out = big[:, 0]
    r = getattr(cp, name)(x, axis=0, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, getattr(np, name)(a, axis=0), rtol=1e-13, atol=1e-12)
    assert_matches(big[:, 1], np.zeros(6))
    out_i = cp.full((4,), 9, np.int32)
    ints = np.arange(24).reshape(4, 6)
    if name == "std":
        # NumPy takes the square root in out's dtype: an error for an int out.
        with pytest.raises(TypeError, match=r"Cannot cast ufunc 'sqrt' output from dtype\('float64'\) to dtype\('int32'\)"):
            cp.std(cp.asarray(ints), axis=1, out=out_i)
        assert_matches(out_i, np.full((4,), 9, np.int32))
    else:
        getattr(cp, name)(cp.asarray(ints), axis=1, out=out_i)
        assert_matches(out_i, getattr(np, name)(ints, axis=1, out=np.zeros(4, np.int32)))
    with pytest.raises(ValueError, match="wrong number of dimensions"):
        getattr(cp, name)(x, axis=0, out=cp.zeros((1, 6)))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nanmean(device, rng, dtype, axis):
    a = random_array(rng, (6, 7), dtype)
    a[rng.random((6, 7)) < 0.25] = np.nan
    a[:, 2] = np.nan
    x = cp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanmean(a, axis=axis)
    rtol, atol = stat_tolerance(np.nan_to_num(a), dtype)
    assert_matches(cp.nanmean(x, axis=axis), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.bool_])
def test_nanmean_integers_is_mean(device, rng, dtype):
    a = random_array(rng, (4, 5), dtype)
    assert_matches(cp.nanmean(cp.asarray(a), axis=1), np.nanmean(a, axis=1), rtol=1e-14)


def test_float16_mean_accumulates_in_float32(device):
    # 10000 float16 ones + small values: a float16 accumulator would stall at 2048.
    a = np.full(10000, 1.0, np.float16)
    r = cp.mean(cp.asarray(a))
    assert r.dtype == np.float16
    assert float(r) == 1.0
    assert_matches(cp.mean(cp.asarray(a)), np.mean(a))


def test_complex_var_is_real(device, rng):
    a = random_array(rng, (10,), np.complex64)
    r = cp.var(cp.asarray(a))
    assert r.dtype == np.float32
    assert_matches(r, np.var(a), rtol=1e-5)
    assert cp.std(cp.asarray(a.astype(np.complex128))).dtype == np.float64


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, (0, 1), -1])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_count_nonzero(device, rng, dtype, axis, layout):
    a, x = make_input(rng, random_array, (3, 4, 5), dtype, layout, low=-1, high=1)
    if np.dtype(dtype).kind in "fc":
        a = np.where(rng.random(a.shape) < 0.4, 0, a).astype(dtype)
        x = cp.asarray(a)
    got = cp.count_nonzero(x, axis=axis)
    expected = np.count_nonzero(a, axis=axis)
    if axis is None:  # a 0-d array, as CuPy and the array API standard give (NumPy: an int)
        assert isinstance(got, cp.ndarray) and got.shape == () and int(got) == expected
    else:
        assert_matches(got, expected)
    assert_matches(cp.count_nonzero(x, axis=axis, keepdims=True), np.count_nonzero(a, axis=axis, keepdims=True))


def test_stat_errors(device):
    x = cp.ones((2, 3))
    for fn in (cp.mean, cp.var, cp.std, cp.nanmean):
        with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
            fn(x, axis=2)
        with pytest.raises(ValueError, match="duplicate value in 'axis'"):
            fn(x, axis=(0, -2))
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds for array of dimension 2"):
        cp.count_nonzero(x, axis=3)


def test_large_mean_var(device):
    rng = np.random.default_rng(9)
    a = rng.standard_normal((1000, 3000)).astype(np.float32) + 5
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        assert_matches(cp.mean(x, axis=axis), np.mean(a, axis=axis), rtol=2e-6, atol=2e-6)
        assert_matches(cp.std(x, axis=axis), np.std(a, axis=axis), rtol=2e-5, atol=2e-6)
