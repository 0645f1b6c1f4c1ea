"""searchsorted (side, sorter, NaNs, complex) and digitize (increasing and decreasing bins,
right=) against NumPy, with NumPy's errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import copper as cp
from conftest import ALL_DTYPES, DEVICES
from test_sorting import assert_same, special_array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(device, rng, dtype, side):
    a = np.sort(special_array(rng, (40,), dtype))
    v = special_array(rng, (3, 7), dtype)
    assert_same(cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side), np.searchsorted(a, v, side=side))
    assert_same(cp.asarray(a).searchsorted(cp.asarray(v), side), a.searchsorted(v, side))
    # Queries equal to elements of a (runs of duplicates) land before or after the run.
    assert_same(cp.searchsorted(cp.asarray(a), cp.asarray(a), side=side), np.searchsorted(a, a, side=side))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_sorter_and_scalars(device, rng, side):
    a = special_array(rng, (50,), np.float64)
    sorter = np.argsort(a, kind="stable")
    v = special_array(rng, (20,), np.float64)
    got = cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side, sorter=cp.asarray(sorter))
    assert_same(got, np.searchsorted(a, v, side=side, sorter=sorter))
    s = cp.searchsorted(cp.asarray(a), 0.5, side=side, sorter=sorter.astype(np.int32))
    assert s.shape == () and int(s) == np.searchsorted(a, 0.5, side=side, sorter=sorter)
    # Mixed dtypes compare in the common type; a Python int too big for the array widens.
    i8 = np.array([-3, 1, 2, 100], dtype=np.int8)
    assert int(cp.searchsorted(cp.asarray(i8), 300)) == np.searchsorted(i8, 300)
    assert int(cp.searchsorted(cp.asarray(i8), 1.5, side=side)) == np.searchsorted(i8, 1.5, side=side)
    f = np.array([0.5, 1.5, 2.5], dtype=np.float32)
    assert_same(cp.searchsorted(cp.asarray(f), [1, 2, 3], side=side), np.searchsorted(f, [1, 2, 3], side=side))
    assert_same(cp.searchsorted(cp.asarray(np.array([], np.int32)), cp.asarray([1, 2])), np.array([0, 0]))


def test_searchsorted_errors(device):
    a = cp.asarray([1, 2, 3])
    with pytest.raises(ValueError, match=r"search side must be 'left' or 'right' \(got 'x'\)"):
        cp.searchsorted(a, 1, side="x")
    with pytest.raises(ValueError, match="search side must be one of 'left' or 'right'"):
        cp.searchsorted(a, 1, side="RIGHT")
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        cp.searchsorted(a, 1, sorter=cp.asarray([0, 1]))
    with pytest.raises(TypeError, match="sorter must only contain integers"):
        cp.searchsorted(a, 1, sorter=cp.asarray([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="Sorter index out of range."):
        cp.searchsorted(a, 1, sorter=cp.asarray([0, 1, 3]))
    with pytest.raises(ValueError, match="object too deep for desired array"):
        cp.searchsorted(cp.ones((2, 2)), 1)
    with pytest.raises(ValueError, match="object of too small depth for desired array"):
        cp.searchsorted(cp.asarray(np.float64(1)), 1)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("decreasing", [False, True])
def test_digitize(device, rng, dtype, right, decreasing):
    bins = np.unique(special_array(rng, (12,), dtype))
    bins = bins[~np.isnan(bins)] if bins.dtype.kind == "f" else bins
    bins = np.concatenate([bins, bins[-1:]])  # a repeated edge
    if decreasing:
        bins = bins[::-1].copy()
    x = special_array(rng, (4, 9), dtype)
    assert_same(cp.digitize(cp.asarray(x), cp.asarray(bins), right=right), np.digitize(x, bins, right=right))
    assert int(cp.digitize(3, cp.asarray(bins), right)) == np.digitize(3, bins, right)


def test_digitize_errors(device):
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        cp.digitize(cp.asarray([1.0]), cp.asarray([1, 3, 2]))
    with pytest.raises(TypeError, match="x may not be complex"):
        cp.digitize(cp.asarray([1 + 1j]), cp.asarray([1, 2]))
    with pytest.raises(ValueError, match="object too deep for desired array"):
        cp.digitize(cp.asarray([1.0]), cp.asarray([[1, 2]]))
    assert_same(cp.digitize(cp.asarray([1.0, 2.0]), cp.asarray(np.array([], np.float64))), np.array([0, 0]))


@pytest.mark.parametrize("dev", DEVICES)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_searchsorted_hypothesis(dev, data):
    values = st.sampled_from([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -2.0, 3.5, 1.0])
    a = np.sort(np.array(data.draw(st.lists(values, max_size=20)), dtype=np.float64))
    v = np.array(data.draw(st.lists(values, max_size=10)), dtype=np.float64)
    side = data.draw(st.sampled_from(["left", "right"]))
    got = cp.searchsorted(cp.asarray(a, device=dev), cp.asarray(v, device=dev), side=side)
    assert_same(got, np.searchsorted(a, v, side=side))
