"""Arguments at the edges (0-d arrays where a sequence is expected, empty probability
vectors, histogram ranges of one huge value) found by a sweep that called every public
function with such arguments in each position: each crashed the process (out-of-range
reads, an integer division by zero) and now gives NumPy's result or NumPy's exception."""
import numpy as np
import pytest

import copper as cp


def same(device, fn):
    try:
        want = fn(np, lambda a: np.asarray(a))
    except Exception as e:
        with pytest.raises(type(e)):
            fn(cp, lambda a: cp.asarray(a, device=device))
        return
    got = fn(cp, lambda a: cp.asarray(a, device=device))
    assert_same(got, want)


def assert_same(got, want):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        np.testing.assert_array_equal(cp.asnumpy(got), want)


@pytest.mark.parametrize("fn", ["polyder", "polyint"])
@pytest.mark.parametrize("p", [5, 2.5, 2**62])
def test_polynomial_calculus_of_a_scalar_is_a_type_error(device, fn, p):
    same(device, lambda xp, arr: getattr(xp, fn)(arr(p)))  # len() of unsized object


def test_choose_and_select_with_0d_sequences(device):
    a = np.arange(4)
    same(device, lambda xp, arr: xp.choose(arr(a % 1), arr(2.5)))  # iteration over a 0-d array
    same(device, lambda xp, arr: xp.select(arr(True), [arr(a)]))
    same(device, lambda xp, arr: xp.select([arr(a > 1)], arr(3.0)))


@pytest.mark.parametrize("size", [None, 3, (2, 2)])
def test_multinomial_of_no_categories(device, size):
    got = cp.random.multinomial(2, cp.zeros((0,), device=device), size=size)
    want = np.random.multinomial(2, np.zeros((0,)), size=size)
    assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("sample", [[[2.0**62]], [[1e300], [1e300]], [[5.0], [5.0], [5.0]]])
def test_histogramdd_of_a_range_without_width(device, sample):
    # All edges equal: NumPy's searchsorted puts every point in the last bin.
    same(device, lambda xp, arr: xp.histogramdd(arr(sample), bins=3))


@pytest.mark.parametrize("sample", [2**62, 2.5])
def test_histogramdd_of_a_python_number_is_a_type_error(device, sample):
    same(device, lambda xp, arr: xp.histogramdd(sample))
