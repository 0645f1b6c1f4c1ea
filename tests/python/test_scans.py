"""cumsum and cumprod against NumPy."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, eps_of, make_input


def scan_tolerance(a, dtype, name):
    # Same sequential order as NumPy, so only float16 (accumulated per step in float32
    # and rounded, as NumPy does) could differ; keep a few ulps of slack on floats.
    e = eps_of(dtype)
    return 4 * e, 4 * e * (float(np.max(np.abs(np.cumsum(np.abs(a.astype(np.complex128)))))) if a.size else 1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scan(device, rng, dtype, axis, layout, name):
    hi = 100 if name == "cumsum" else 2
    a, x = make_input(rng, random_array, (3, 4, 5), dtype, layout, low=-hi, high=hi)
    if name == "cumprod" and np.dtype(dtype).kind in "fc":
        a = (a / 1.5).astype(dtype)
        x = cp.asarray(a)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(a, axis=axis)
    rtol, atol = scan_tolerance(a, dtype, name)
    assert_matches(getattr(cp, name)(x, axis=axis), expected, rtol=rtol, atol=atol)
    assert_matches(getattr(x, name)(axis=axis), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("src,dt", [(np.int8, np.int8), (np.float64, np.int32), (np.int32, np.float32),
                                    (np.float16, np.float32), (np.bool_, None), (np.uint16, None)])
def test_scan_dtype(device, rng, src, dt):
    a = random_array(rng, (6, 50), src, low=-5, high=5)
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        for name in ("cumsum", "cumprod"):
            with np.errstate(all="ignore"):
                expected = getattr(np, name)(a, axis=axis, dtype=dt)
            assert_matches(getattr(cp, name)(x, axis=axis, dtype=dt), expected, rtol=4 * eps_of(expected.dtype),
                           atol=4 * eps_of(expected.dtype))


def test_scan_float16_rounds_each_step(device, rng):
    a = random_array(rng, (2000,), np.float16, low=0, high=2)
    assert_matches(cp.cumsum(cp.asarray(a)), np.cumsum(a))  # exactly NumPy's


def test_scan_zero_dim_and_empty(device):
    a = np.array(4.5)
    assert_matches(cp.cumsum(cp.asarray(a)), np.cumsum(a))
    assert_matches(cp.cumprod(cp.asarray(a), axis=0), np.cumprod(a, axis=0))
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0)]:
        e = np.zeros(shape, np.int32)
        assert_matches(cp.cumsum(cp.asarray(e), axis=axis), np.cumsum(e, axis=axis))


def test_scan_out(device, rng):
    a = random_array(rng, (4, 6), np.float64)
    x = cp.asarray(a)
    big = cp.zeros((4, 12))
    out = big[:, ::2]
    r = cp.cumsum(x, axis=1, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.cumsum(a, axis=1), rtol=1e-15, atol=1e-12)
    assert_matches(big[:, 1::2], np.zeros((4, 6)))
    out_i = cp.zeros((24,), np.int32)
    cp.cumsum(x, out=out_i)
    assert_matches(out_i, np.cumsum(a, out=np.zeros(24, np.int32)))
    # In place.
    cp.cumprod(x, axis=0, out=x)
    assert_matches(x, np.cumprod(a, axis=0), rtol=1e-14, atol=1e-12)


def test_scan_errors(device):
    x = cp.ones((2, 3))
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        cp.cumsum(x, axis=2)
    with pytest.raises(np.exceptions.AxisError, match="axis 1 is out of bounds for array of dimension 1"):
        cp.cumsum(cp.asarray(np.array(1.0)), axis=1)
    with pytest.raises(ValueError, match="provided out is the wrong size for the accumulation"):
        cp.cumsum(x, out=cp.zeros((2, 3)))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        cp.cumsum(x, axis=0, out=cp.zeros((2, 4)))
    with pytest.raises(TypeError, match="'tuple' object cannot be interpreted as an integer"):
        cp.cumsum(x, axis=(0, 1))


@pytest.mark.parametrize("shape,axis", [((2000, 1000), 0), ((2000, 1000), 1), ((1_000_000,), None),
                                        ((100_000, 9), 0)])
def test_scan_large(device, shape, axis):
    rng = np.random.default_rng(2)
    a = rng.integers(-50, 50, size=shape)
    x = cp.asarray(a)
    assert_matches(cp.cumsum(x, axis=axis), np.cumsum(a, axis=axis))
    f = a.astype(np.float64)
    assert_matches(cp.cumsum(cp.asarray(f), axis=axis), np.cumsum(f, axis=axis))
