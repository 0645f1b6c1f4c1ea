"""ndarray.tolist(): nested lists of Python scalars, equal to NumPy's in values and types."""
import numpy as np
import pytest
from conftest import ALL_DTYPES, random_array

import copper as cp

SHAPES = [(), (0,), (0, 3), (3, 0), (1,), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 1)]


def same_nested(got, expected):
    """Equal values (NaN equal to NaN, signed zeros told apart) with identical Python types."""
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        for g, e in zip(got, expected):
            same_nested(g, e)
        return
    assert type(got) is type(expected)
    if isinstance(expected, complex):
        same_nested(got.real, expected.real)
        same_nested(got.imag, expected.imag)
    elif isinstance(expected, float) and np.isnan(expected):
        assert np.isnan(got)
    elif isinstance(expected, float):
        assert got == expected and np.signbit(got) == np.signbit(expected)
    else:
        assert got == expected


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_tolist_matches_numpy(device, rng, dtype, shape):
    a = np.asarray(random_array(rng, shape, dtype))
    same_nested(cp.asarray(a).tolist(), a.tolist())


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tolist_extremes(device, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        a = np.array([info.min, info.max, 0, info.max // 2], dtype)  # uint64 max needs a Python int past int64
    elif dtype.kind == "b":
        a = np.array([True, False])
    else:
        a = np.array([np.nan, np.inf, -np.inf, -0.0, 0.1, 1 / 3], dtype=dtype)
        if dtype.kind == "c":
            a = a + np.array([1j, -0.0j, np.nan * 1j, 2j, -1j, 0j], dtype=dtype)
    same_nested(cp.asarray(a).tolist(), a.tolist())
    for v in a:
        same_nested(cp.asarray(np.array(v)).tolist(), np.array(v).tolist())


def test_tolist_views(device, rng):
    host = rng.integers(-100, 100, size=(4, 5, 6))
    arr = cp.asarray(host)
    same_nested(arr[::-1, 1:4, ::2].tolist(), host[::-1, 1:4, ::2].tolist())
    same_nested(arr.T.tolist(), host.T.tolist())
    same_nested(cp.asarray(host[:, ::-2]).tolist(), host[:, ::-2].tolist())


def test_tolist_zero_dim_is_a_scalar(device):
    assert cp.asarray(np.array(7, np.int8)).tolist() == 7
    assert type(cp.asarray(np.array(7, np.int8)).tolist()) is int
    assert type(cp.asarray(np.array(True)).tolist()) is bool
    assert cp.asarray(np.array(np.float32(0.1))).tolist() == np.array(np.float32(0.1)).tolist()
