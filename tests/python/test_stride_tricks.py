"""numpy.lib.stride_tricks (as_strided, sliding_window_view) against NumPy: random values of
every dtype, C, transposed, stepped and reversed sources, 0-d and empty arrays, both
devices; views share memory (writes show through); NumPy's errors, and copper's own
ValueError for a view that would reach outside its array's memory."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array

as_strided = cp.lib.stride_tricks.as_strided
sliding = cp.lib.stride_tricks.sliding_window_view


def sources(rng, dtype):
    """(NumPy view, copper view) pairs over the same values in several layouts."""
    base = random_array(rng, (6, 8), dtype)
    x = cp.asarray(base)
    return [(base, x), (base.T, x.T), (base[::2, 1::3], x[::2, 1::3]), (base[::-1, ::-2], x[::-1, ::-2])]


def check_view(got, want):
    assert got.shape == want.shape and got.strides == want.strides and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sliding_window_view_matches_numpy(device, rng, dtype):
    for a, x in sources(rng, dtype):
        for window, axis in [((2, 3), None), (3, 1), (2, 0), ((2, 2), (1, 1)), (1, -1), (a.shape[1], 1), ((0, 1), None)]:
            want = np.lib.stride_tricks.sliding_window_view(a, window, axis)
            check_view(sliding(x, window, axis), want)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.float64, np.complex128])
def test_as_strided_matches_numpy(device, rng, dtype):
    for a, x in sources(rng, dtype):
        cases = [dict(), dict(shape=(3,)), dict(shape=(2, 2, 2), strides=(0,) + a.strides),
                 dict(shape=a.shape[::-1], strides=a.strides[::-1]), dict(shape=(3, 2), strides=(a.strides[-1], a.strides[-1]))]
        for kw in cases:
            if "shape" in kw and "strides" not in kw and not a.flags.c_contiguous:
                continue  # NumPy keeps x's strides then, which mismatch a new ndim
            check_view(as_strided(x, **kw), np.lib.stride_tricks.as_strided(a, **kw))
    zero_d = random_array(rng, (), dtype)
    check_view(as_strided(cp.asarray(zero_d), (4,), (0,)), np.lib.stride_tricks.as_strided(zero_d, (4,), (0,)))
    empty = np.zeros((0, 3), dtype)
    check_view(as_strided(cp.asarray(empty), (3, 0)), np.lib.stride_tricks.as_strided(empty, (3, 0)))


def test_views_share_memory(device, rng):
    a = random_array(rng, (10,), np.float64)
    x = cp.asarray(a)
    w = sliding(x, 4)
    assert w.base is not None
    x[5] = 99.0
    a[5] = 99.0
    np.testing.assert_array_equal(w.get(), np.lib.stride_tricks.sliding_window_view(a, 4))
    s = as_strided(x, (5, 2), (8, 8))
    s[1, 1] = -7.0  # element 2 of x
    assert float(x[2]) == -7.0
    # The CuPy suite's case: a 2 x 2**32 view of two elements, indexed.
    b = cp.arange(2, dtype=cp.int32)
    big = as_strided(b, shape=(2, 2**32), strides=(4, 0))
    np.testing.assert_array_equal(big[cp.array([1]), cp.array([2**32 - 1])].get(), [1])


def test_errors(device):
    a = np.arange(12.0).reshape(3, 4)
    x = cp.asarray(a)
    for args, kw in [(((2,),), {}), (((2, 5),), {}), (((-1, 2),), {}), ((2,), dict(axis=(0, 1))), ((3,), dict(axis=2))]:
        with pytest.raises(Exception) as want:
            np.lib.stride_tricks.sliding_window_view(a, *args, **kw)
        with pytest.raises(type(want.value), match="^" + __import__("re").escape(str(want.value)) + "$"):
            sliding(x, *args, **kw)
    with pytest.raises(ValueError, match="^mismatch in length of strides and shape$"):
        as_strided(x, (2, 2), (8,))
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        as_strided(x, (-1,), (8,))
    # NumPy would read past the array here; copper refuses.
    with pytest.raises(ValueError, match="^as_strided: .*does not fit in the 96-byte memory$"):
        as_strided(x, (13,), (8,))
    with pytest.raises(ValueError, match="does not fit"):
        as_strided(x[1:], (4,), (-16,))  # from element 4 back past element 0
