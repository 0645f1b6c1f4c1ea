"""unique (every return_* combination, axis, equal_nan, NumPy 2's inverse shape), the
array API unique_* functions, isin and the set functions against NumPy."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import copper as cp
from conftest import ALL_DTYPES, DEVICES
from test_sorting import assert_same, special_array


def assert_tuple_same(got, want):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (30,), (4, 7), (2, 0, 3), ()])
def test_unique_flags(device, rng, dtype, shape):
    n = special_array(rng, shape, dtype)
    c = cp.asarray(n)
    assert_same(cp.unique(c), np.unique(n))
    for flags in itertools.product([False, True], repeat=3):
        if not any(flags):
            continue
        kw = dict(zip(["return_index", "return_inverse", "return_counts"], flags))
        assert_tuple_same(cp.unique(c, **kw), np.unique(n, **kw))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_nans(device, dtype, equal_nan):
    n = np.array([np.nan, 1.0, -0.0, np.nan, 0.0, np.inf, 1.0, -np.nan], dtype=dtype)
    if n.dtype.kind == "c":
        n[1] = complex(1.0, np.nan)
        n[5] = complex(np.nan, 2.0)
    c = cp.asarray(n)
    kw = dict(return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    assert_tuple_same(cp.unique(c, **kw), np.unique(n, **kw))
    assert_same(cp.unique(c, equal_nan=equal_nan), np.unique(n, equal_nan=equal_nan))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64, np.bool_])
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_unique_axis(device, rng, dtype, axis):
    base = special_array(rng, (3, 2, 4), dtype) if dtype != np.bool_ else rng.random((3, 2, 4)) < 0.5
    n = np.concatenate([base, base[:1], base[::-1]], axis=0)  # repeated slices along axis 0
    n = np.concatenate([n, n[:, :, :2]], axis=2)              # and along axis 2
    c = cp.asarray(n)
    kw = dict(return_index=True, return_inverse=True, return_counts=True)
    assert_tuple_same(cp.unique(c, axis=axis, **kw), np.unique(n, axis=axis, **kw))
    assert_same(cp.unique(c, axis=axis), np.unique(n, axis=axis))


def test_unique_axis_edge_cases(device):
    for shape, axis in [((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((4,), 0)]:
        n = np.zeros(shape, dtype=np.int32)
        if n.size:
            n.flat[:] = [1, 0, 1, 0][: n.size]
        c = cp.asarray(n)
        assert_tuple_same(cp.unique(c, axis=axis, return_counts=True, return_inverse=True),
                          np.unique(n, axis=axis, return_counts=True, return_inverse=True))
    with pytest.raises(np.exceptions.AxisError):
        cp.unique(cp.asarray([1, 2]), axis=1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_api_unique_functions(device, rng, dtype):
    n = special_array(rng, (5, 6), dtype)
    c = cp.asarray(n)
    r, w = cp.unique_all(c), np.unique_all(n)
    assert type(r).__name__ == "UniqueAllResult"
    for g, e in zip(r, w):
        assert_same(g, e)
    r, w = cp.unique_counts(c), np.unique_counts(n)
    assert_same(r.values, w.values) and assert_same(r.counts, w.counts)
    r, w = cp.unique_inverse(c), np.unique_inverse(n)
    assert_same(r.values, w.values)
    # Distinct NaNs may map to any of the NaN values: check that the inverse rebuilds x.
    inv = r.inverse_indices.get()
    assert inv.shape == n.shape and inv.dtype == np.int64
    np.testing.assert_array_equal(r.values.get()[inv], n)
    # NumPy may return unique_values unsorted (hashing); copper sorts.
    assert_same(cp.unique_values(c), np.sort(np.unique_values(n)))


@pytest.mark.parametrize("dtypes", [(np.int32, np.int32), (np.float64, np.float32), (np.int8, np.float16),
                                    (np.complex64, np.float64), (np.bool_, np.bool_), (np.uint64, np.uint64)])
@pytest.mark.parametrize("invert", [False, True])
def test_isin(device, rng, dtypes, invert):
    a = special_array(rng, (4, 9), dtypes[0])
    b = special_array(rng, (13,), dtypes[1])
    for kind in [None, "sort"]:
        assert_same(cp.isin(cp.asarray(a), cp.asarray(b), invert=invert, kind=kind),
                    np.isin(a, b, invert=invert, kind=kind))
    ub = np.unique(b)
    assert_same(cp.isin(cp.asarray(a), cp.asarray(ub), assume_unique=True, invert=invert),
                np.isin(a, ub, assume_unique=True, invert=invert))
    assert_same(cp.isin(cp.asarray(a), cp.asarray(b[:0]), invert=invert), np.isin(a, b[:0], invert=invert))
    assert_same(cp.isin(2, cp.asarray(b)), np.isin(2, b))


def test_isin_errors(device):
    with pytest.raises(ValueError, match="Invalid kind: 'x'. Please use None, 'sort' or 'table'."):
        cp.isin(cp.asarray([1]), cp.asarray([1]), kind="x")
    with pytest.raises(ValueError, match="The 'table' method is only supported for boolean or integer arrays"):
        cp.isin(cp.asarray([1.0]), cp.asarray([1.0]), kind="table")
    assert_same(cp.isin(cp.asarray([1, 5]), cp.asarray([1, 2]), kind="table"), np.array([True, False]))


@pytest.mark.parametrize("dtypes", [(np.int64, np.int64), (np.float32, np.float64), (np.int16, np.uint8),
                                    (np.complex128, np.complex128)])
@pytest.mark.parametrize("assume_unique", [False, True])
def test_set_functions(device, rng, dtypes, assume_unique):
    a = special_array(rng, (25,), dtypes[0])
    b = special_array(rng, (3, 6), dtypes[1])
    if assume_unique:
        a, b = np.unique(a), np.unique(b)
    ca, cb = cp.asarray(a), cp.asarray(b)
    assert_same(cp.intersect1d(ca, cb, assume_unique), np.intersect1d(a, b, assume_unique))
    assert_tuple_same(cp.intersect1d(ca, cb, assume_unique, True), np.intersect1d(a, b, assume_unique, True))
    assert_same(cp.setdiff1d(ca, cb, assume_unique), np.setdiff1d(a, b, assume_unique))
    assert_same(cp.setxor1d(ca, cb, assume_unique), np.setxor1d(a, b, assume_unique))
    assert_same(cp.union1d(ca, cb), np.union1d(a, b))
    empty = a[:0]
    for x, y in [(empty, b), (a, empty), (empty, empty)]:
        cx, cy = cp.asarray(x), cp.asarray(y)
        assert_same(cp.intersect1d(cx, cy), np.intersect1d(x, y))
        assert_same(cp.setdiff1d(cx, cy), np.setdiff1d(x, y))
        assert_same(cp.setxor1d(cx, cy), np.setxor1d(x, y))
        assert_same(cp.union1d(cx, cy), np.union1d(x, y))


def test_set_functions_take_lists(device):
    assert_same(cp.union1d([3, 1], [2, 1]), np.union1d([3, 1], [2, 1]))
    assert_same(cp.intersect1d([3, 1, 2], [2, 1]), np.intersect1d([3, 1, 2], [2, 1]))
    assert_same(cp.setdiff1d([3, 1, 2], [2]), np.setdiff1d([3, 1, 2], [2]))


@pytest.mark.parametrize("dev", DEVICES)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_unique_hypothesis(dev, data):
    values = st.sampled_from([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -2.0, 3.5, 1.0, 7.0])
    n = np.array(data.draw(st.lists(values, max_size=30)), dtype=data.draw(st.sampled_from([np.float32, np.float64])))
    equal_nan = data.draw(st.booleans())
    kw = dict(return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    assert_tuple_same(cp.unique(cp.asarray(n, device=dev), **kw), np.unique(n, **kw))
    m = np.array(data.draw(st.lists(values, max_size=30)), dtype=n.dtype)
    got = cp.isin(cp.asarray(n, device=dev), cp.asarray(m, device=dev))
    assert_same(got, np.isin(n, m))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64])
@pytest.mark.parametrize("span", [1, 3, 1000, 70000, 10**6])
def test_unique_of_integers_over_a_small_range(device, rng, dtype, span):
    """Large integer inputs whose range is small next to their size count instead of
    sorting: values, counts and the inverse as NumPy's, negative and offset ranges, the
    dtype's extremes, and ranges too wide for counting (the sort)."""
    info = np.iinfo(dtype) if dtype is not np.bool_ else None
    n = 50000
    if info is None:
        a = rng.integers(0, 2, n).astype(bool) if span > 1 else np.ones(n, bool)
    else:
        lo = max(int(info.min), -span // 2) if info.min < 0 else 0
        hi = min(int(info.max), lo + span - 1)
        a = rng.integers(lo, hi + 1, n, dtype=np.int64).astype(dtype)
        a[0], a[1] = lo, hi
        if dtype == np.int64 and span == 1000:
            a = a + np.int64(2**62)  # far from zero
    a = a.reshape(250, 200)
    c = cp.asarray(a)
    assert_same(cp.unique(c), np.unique(a))
    for kw in [dict(return_counts=True), dict(return_inverse=True), dict(return_inverse=True, return_counts=True),
               dict(return_index=True, return_counts=True)]:
        assert_tuple_same(cp.unique(c, **kw), np.unique(a, **kw))
    assert_same(cp.unique_counts(c).counts, np.unique_counts(a).counts)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_unique_of_integers_over_a_wide_range(device, rng, dtype):
    """A range past 2^20 but under 4x the size still counts (up to 2^24 bins), with and
    without counts (a bool histogram), as NumPy."""
    a = (rng.integers(0, 1000, 400_000) * 1531 - 700_000).astype(dtype)
    c = cp.asarray(a)
    assert_same(cp.unique(c), np.unique(a))
    kw = dict(return_inverse=True, return_counts=True)
    assert_tuple_same(cp.unique(c, **kw), np.unique(a, **kw))
