"""Shared inputs and comparisons for the reduction, statistics and scan tests."""
import numpy as np

import copper as cp

# (shape, slices) pairs: the copper array is a view made by slicing a larger array the
# same way in NumPy and in copper, so strides are non-contiguous or negative.
LAYOUTS = ["contiguous", "strided", "transposed"]


def make_input(rng, random_array, shape, dtype, layout, low=-100, high=100):
    """A NumPy array and an equal copper array laid out as `layout` says."""
    if layout == "contiguous" or len(shape) == 0:
        a = random_array(rng, shape, dtype, low, high)
        return a, cp.asarray(a)
    if layout == "strided":
        big = random_array(rng, (2 * shape[0],) + tuple(2 * n + 1 for n in shape[1:]), dtype, low, high)
        # Every other element, reversed along the first axis: negative and non-unit strides.
        index = (slice(None, None, -2),) + tuple(slice(1, None, 2) for _ in shape[1:])
        a = big[index]
        assert a.shape == tuple(shape), (a.shape, shape)
        return a, cp.asarray(big)[index]
    big = random_array(rng, tuple(reversed(shape)), dtype, low, high)
    return big.T, cp.asarray(big).T


def eps_of(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        return float(np.finfo(dtype).eps)
    return 0.0


def assert_matches(got, expected, *, rtol=0.0, atol=0.0, check_dtype=True):
    """Compare a copper result with NumPy's: shape, dtype, values (NaN equal to NaN)."""
    assert isinstance(got, cp.ndarray), type(got)
    g = got.get()
    e = np.asarray(expected)
    assert g.shape == e.shape, (g.shape, e.shape)
    if check_dtype:
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(g, e)
    else:
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True)


def sum_tolerance(a, dtype, axis=None):
    """Error bound for a float sum: summation order differs from NumPy's, so allow a few
    ulps of the sum of magnitudes (pairwise summation's error is O(eps log n) of that)."""
    e = eps_of(dtype)
    if e == 0:
        return 0.0, 0.0
    mag = np.sum(np.abs(a.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)), axis=axis)
    bound = 8 * e * (np.max(mag) if np.size(mag) else 0.0)
    return 8 * e, bound
