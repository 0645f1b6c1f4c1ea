"""sort, argsort, ndarray.sort, lexsort, partition, argpartition and sort_complex against
NumPy: every dtype, every axis and axis=None, non-contiguous and negative-stride inputs,
NaNs, infinities, -0.0 and duplicates, stability, and NumPy's errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import copper as cp
from conftest import ALL_DTYPES, DEVICES, random_array

SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, 1.0, np.nan]


def special_array(rng, shape, dtype):
    """Random values with duplicates, plus NaNs, infinities and signed zeros for inexact dtypes."""
    dtype = np.dtype(dtype)
    a = random_array(rng, shape, dtype, low=-5, high=5)
    if dtype.kind in "fc" and a.size:
        flat = a.reshape(-1)
        picks = rng.integers(0, a.size, size=max(1, a.size // 3))
        vals = np.array(SPECIAL)[rng.integers(0, len(SPECIAL), size=picks.size)]
        if dtype.kind == "c":
            ims = np.array(SPECIAL)[rng.integers(0, len(SPECIAL), size=picks.size)]
            flat.real[picks] = vals
            flat.imag[picks] = ims
        else:
            flat[picks] = vals
    return a


def assert_same(c, n):
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape, (c.shape, n.shape)
    assert c.dtype == n.dtype, (c.dtype, n.dtype)
    np.testing.assert_array_equal(c.get(), n)


SHAPES_AXES = [((0,), -1), ((1,), 0), ((37,), -1), ((6, 9), 0), ((6, 9), 1), ((6, 9), -1), ((3, 4, 5), 0),
               ((3, 4, 5), 1), ((3, 4, 5), 2), ((3, 4, 5), None), ((2, 0, 3), 1), ((7, 5), None)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
def test_sort_and_argsort(device, rng, dtype, shape, axis):
    n = special_array(rng, shape, dtype)
    c = cp.asarray(n)
    assert_same(cp.sort(c, axis=axis), np.sort(n, axis=axis))
    # argsort is stable: it equals NumPy's stable argsort exactly.
    assert_same(cp.argsort(c, axis=axis), np.argsort(n, axis=axis, kind="stable"))
    assert_same(c.argsort(axis=axis), np.argsort(n, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_strided_input(device, rng, dtype):
    base = special_array(rng, (10, 14), dtype)
    n = base[::-2, 1::3]
    c = cp.asarray(base)[::-2, 1::3]
    for axis in (0, 1, None):
        assert_same(cp.sort(c, axis=axis), np.sort(n, axis=axis))
        assert_same(cp.argsort(c, axis=axis), np.argsort(n, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kind", ["stable", "mergesort"])
def test_stable_sort_keeps_signed_zeros_and_nans_in_order(device, dtype, kind):
    n = np.array([0.0, -0.0, np.nan, 1.0, -0.0, 0.0, -np.nan, -1.0, 0.0], dtype=dtype)
    c = cp.asarray(n)
    got = cp.sort(c, kind=kind).get()
    want = np.sort(n, kind="stable")
    np.testing.assert_array_equal(got, want)
    parts = (lambda x: (x.real, x.imag)) if n.dtype.kind == "c" else (lambda x: (x,))
    for g, w in zip(parts(got), parts(want)):
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    assert_same(cp.sort(c, stable=True), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sort_keeps_nan_payloads(device, dtype):
    itype = np.uint32 if dtype == np.float32 else np.uint64
    bits = np.array([0x7FC00001, 0xFFC00002, 0x7FC00003], dtype=itype) if dtype == np.float32 else \
        np.array([0x7FF8000000000001, 0xFFF8000000000002, 0x7FF8000000000003], dtype=itype)
    n = np.concatenate([bits.view(dtype), np.array([1.0, -np.inf], dtype=dtype)])
    got = cp.sort(cp.asarray(n)).get()
    np.testing.assert_array_equal(got[:2], np.array([-np.inf, 1.0], dtype=dtype))
    assert sorted(got[2:].view(itype).tolist()) == sorted(bits.tolist())


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.int64, np.float64, np.complex64])
@pytest.mark.parametrize("shape,axis", [((200_001,), -1), ((3, 70_000), 1), ((70_000, 3), 0), ((300, 400), 1)])
def test_sort_large(device, rng, dtype, shape, axis):
    n = special_array(rng, shape, dtype)
    c = cp.asarray(n)
    assert_same(cp.sort(c, axis=axis), np.sort(n, axis=axis))
    assert_same(cp.argsort(c, axis=axis), np.argsort(n, axis=axis, kind="stable"))


def nan_bits(a):
    """The sorted bit patterns of a float array's NaNs (payloads and signs)."""
    itype = np.uint32 if a.dtype == np.float32 else np.uint64
    return np.sort(a[np.isnan(a)].view(itype))


@pytest.mark.parametrize("dtype,shape", [(t, (300_007,)) for t in (np.int32, np.uint32, np.float32, np.int64,
                                                                   np.uint64, np.float64)]
                         + [(np.float32, (2, 1 << 22)), (np.int64, (2, 1 << 22))])
def test_sort_native_types_long(device, rng, dtype, shape):
    """One long row, and rows of 2^22 elements: the GPU sorts these dtypes as they are
    (CUB's own order) and then moves NaNs with the sign bit set from the front to the
    end. Values, signed zeros and NaN payloads as NumPy's, out of place and in place."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        n = rng.standard_normal(shape).astype(dtype)
        flat = n.reshape(-1)
        itype = np.uint32 if dtype == np.float32 else np.uint64
        sign = itype(1) << itype(8 * dtype.itemsize - 1)
        quiet = np.array(np.nan, dtype).view(itype)
        picks = rng.integers(0, flat.size, size=flat.size // 50)
        payload = rng.integers(1, 1000, size=picks.size).astype(itype)
        flat.view(itype)[picks] = (quiet | payload) | np.where(rng.integers(0, 2, picks.size) == 1, sign, itype(0))
        flat[rng.integers(0, flat.size, size=100)] = -0.0
        flat[rng.integers(0, flat.size, size=10)] = np.inf
        flat[rng.integers(0, flat.size, size=10)] = -np.inf
    else:
        info = np.iinfo(dtype)
        n = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    c = cp.asarray(n)
    want = np.sort(n, axis=-1)
    got = cp.sort(c, axis=-1)
    assert_same(got, want)
    np.testing.assert_array_equal(c.get(), n)  # the input is left as it was
    if dtype.kind == "f":
        g = got.get()
        for r in range(g.shape[0] if g.ndim == 2 else 1):
            gr, nr = (g[r], n[r]) if g.ndim == 2 else (g, n)
            np.testing.assert_array_equal(nan_bits(gr), nan_bits(nr))
            assert np.all(np.isnan(gr[gr.size - np.isnan(nr).sum():]))
        np.testing.assert_array_equal(np.signbit(g[~np.isnan(g)]).sum(), np.signbit(want[~np.isnan(want)]).sum())
    c.sort()
    assert_same(c, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_ndarray_sort_in_place(device, rng, dtype, axis):
    n = special_array(rng, (5, 8), dtype)
    c = cp.asarray(n)
    c.sort(axis=axis)
    n.sort(axis=axis)
    assert_same(c, n)
    # A non-contiguous view sorts in place too, leaving the rest alone.
    nb = special_array(rng, (6, 10), dtype)
    cb = cp.asarray(nb)
    cb[::2, 1::2].sort(axis=axis, kind="stable")
    nb[::2, 1::2].sort(axis=axis, kind="stable")
    assert_same(cb, nb)


def test_sort_kind_and_stable_arguments(device):
    n = np.array([3.0, 1.0, 2.0])
    c = cp.asarray(n)
    for kind in ["quicksort", "mergesort", "heapsort", "stable", "q", "Merge", None]:
        assert_same(cp.sort(c, kind=kind), np.sort(n, kind=kind))
    for stable in [True, False, None]:
        assert_same(cp.sort(c, stable=stable), np.sort(n, stable=stable))
    with pytest.raises(ValueError, match=r"sort kind must be one of 'quick', 'heap', or 'stable' \(got 'foo'\)"):
        cp.sort(c, kind="foo")
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        cp.argsort(c, kind="stable", stable=True)
    with pytest.raises(TypeError, match="sort kind must be str, not int"):
        cp.sort(c, kind=3)
    with pytest.raises(ValueError, match="Cannot specify order when the array has no fields."):
        cp.sort(c, order="x")
    with pytest.raises(ValueError, match="sort kind must be one of"):
        c.sort(kind="x")


def test_sort_axis_errors(device):
    with pytest.raises(np.exceptions.AxisError, match="axis 1 is out of bounds for array of dimension 1"):
        cp.sort(cp.asarray([1, 2]), axis=1)
    with pytest.raises(np.exceptions.AxisError, match="axis -1 is out of bounds for array of dimension 0"):
        cp.sort(cp.asarray(np.float64(1)))
    # argsort and argpartition count a 0-d array as 1-d.
    assert_same(cp.argsort(cp.asarray(np.float64(1))), np.argsort(np.float64(1)))
    assert_same(cp.argpartition(cp.asarray(np.float64(1)), 0), np.argpartition(np.float64(1), 0))
    for kth in (0, 2):  # partition itself does not: the axis is checked before kth
        with pytest.raises(np.exceptions.AxisError, match="axis -1 is out of bounds for array of dimension 0"):
            cp.partition(cp.asarray(np.float64(1)), kth)
        with pytest.raises(np.exceptions.AxisError, match="axis -1 is out of bounds for array of dimension 0"):
            cp.asarray(np.float64(1)).partition(kth)
    with pytest.raises(np.exceptions.AxisError, match="axis 1 is out of bounds for array of dimension 1"):
        cp.argsort(cp.asarray(np.float64(1)), axis=1)
    assert_same(cp.sort(cp.asarray(np.float64(2)), axis=None), np.sort(np.float64(2), axis=None))
    assert_same(cp.argsort(cp.asarray(np.float64(2)), axis=None), np.argsort(np.float64(2), axis=None))


@pytest.mark.parametrize("dtypes", [(np.int32, np.float64), (np.bool_, np.int8, np.complex64), (np.float16,),
                                    (np.uint64, np.int64)])
@pytest.mark.parametrize("shape,axis", [((30,), -1), ((4, 25), -1), ((4, 25), 0), ((0,), -1)])
def test_lexsort(device, rng, dtypes, shape, axis):
    keys = [special_array(rng, shape, t) for t in dtypes]
    got = cp.lexsort([cp.asarray(k) for k in keys], axis=axis)
    assert_same(got, np.lexsort(keys, axis=axis))
    # A 2-d array is a sequence of keys along its first axis.
    if len(set(dtypes)) == 1:
        stacked = np.stack(keys)
        assert_same(cp.lexsort(cp.asarray(stacked), axis=axis), np.lexsort(stacked, axis=axis))


def test_lexsort_errors(device):
    with pytest.raises(TypeError, match="need sequence of keys with len > 0 in lexsort"):
        cp.lexsort([])
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        cp.lexsort((cp.asarray([1, 2, 3]), cp.asarray([1, 2])))


def check_partition(c_part, n, kth, axis):
    """Each kth element is in its sorted place, smaller ones before it, larger ones after."""
    got = c_part.get()
    ref = np.sort(n, axis=axis)
    if axis is None:
        got, ref, axis = got.reshape(-1), ref.reshape(-1), 0
    for k in np.atleast_1d(kth):
        kk = k % n.shape[axis] if n.ndim else k
        np.testing.assert_array_equal(np.take(got, kk, axis=axis), np.take(ref, kk, axis=axis))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex128, np.bool_])
@pytest.mark.parametrize("kth,axis", [(0, -1), (3, 0), (-1, 1), ([1, 4], -1), ((2, -2, 0), 0), (5, None)])
def test_partition_and_argpartition(device, rng, dtype, kth, axis):
    n = special_array(rng, (7, 9), dtype)
    c = cp.asarray(n)
    p = cp.partition(c, kth, axis=axis)
    assert p.shape == np.partition(n, kth, axis=axis).shape
    check_partition(p, n, kth, axis)
    idx = cp.argpartition(c, kth, axis=axis)
    assert idx.dtype == np.int64
    taken = np.take_along_axis(n.reshape(-1) if axis is None else n, idx.get(), axis=-1 if axis is None else axis)
    check_partition(cp.asarray(taken), n, kth, axis)
    m = c.copy()
    m.partition(kth, axis=-1 if axis is None else axis)
    check_partition(m, n, kth, -1 if axis is None else axis)
    check_partition(cp.asarray(np.take_along_axis(n, c.argpartition(kth, axis=axis if axis is not None else -1).get(),
                                                  axis=axis if axis is not None else -1)),
                    n, kth, axis if axis is not None else -1)


def test_partition_errors(device):
    c = cp.asarray([3.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(3\)"):
        cp.partition(c, 5)
    with pytest.raises(ValueError, match=r"kth\(=-1\) out of bounds \(3\)"):
        cp.partition(c, -4)
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(3\)"):
        cp.argpartition(c, [0, 5])
    with pytest.raises(TypeError, match="Partition index must be integer"):
        cp.partition(c, 1.5)
    with pytest.raises(ValueError, match="Booleans unacceptable as partition index"):
        cp.partition(c, True)
    with pytest.raises(ValueError, match=r"select kind must be 'introselect' \(got 'foo'\)"):
        cp.partition(c, 1, kind="foo")
    with pytest.raises(np.exceptions.AxisError):
        cp.partition(cp.asarray(np.float64(1)), 0)
    assert cp.partition(cp.asarray(np.array([], dtype=float)), 0).shape == (0,)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_complex(device, rng, dtype):
    n = special_array(rng, (4, 6), dtype)
    assert_same(cp.sort_complex(cp.asarray(n)), np.sort_complex(n))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64, np.uint8, np.complex64])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_sort_hypothesis(dev, dtype, data):
    kind = np.dtype(dtype).kind
    elements = None
    if kind in "fc":
        values = st.sampled_from(SPECIAL + [3.0, -7.5, 1e4])
        elements = st.builds(complex, values, values) if kind == "c" else values
    n = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=9),
                             elements=elements))
    axis = data.draw(st.sampled_from([None] + list(range(-n.ndim, n.ndim))))
    c = cp.asarray(n, device=dev)
    assert_same(cp.sort(c, axis=axis), np.sort(n, axis=axis))
    assert_same(cp.argsort(c, axis=axis), np.argsort(n, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.uint64, np.bool_])
def test_array_api_descending(device, rng, dtype):
    n = special_array(rng, (6, 11), dtype)
    c = cp.asarray(n)
    for axis in (0, 1, -1):
        assert_same(cp.sort(c, axis=axis, descending=True), np.flip(np.sort(n, axis=axis), axis=axis))
        # Stable descending: equal elements keep their order.
        m = n.shape[axis]
        want = m - 1 - np.flip(np.argsort(np.flip(n, axis=axis), axis=axis, kind="stable"), axis=axis)
        assert_same(cp.argsort(c, axis=axis, descending=True), want)
