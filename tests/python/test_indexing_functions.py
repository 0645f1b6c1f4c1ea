"""NumPy's indexing routines (take, put, compress, nonzero, ix_, unravel_index, ...)
and ufunc.at (copper._core._ufunc_at), with NumPy as the oracle on both devices."""
import re
import warnings

import numpy as np
import pytest

import copper as cp
from copper import _core
from conftest import ALL_DTYPES, random_array


def check(c, n):
    n = np.asarray(n)
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape, (c.shape, n.shape)
    assert c.dtype == n.dtype, (c.dtype, n.dtype)
    np.testing.assert_array_equal(c.get(), n)


def check_tuple(c, n):
    assert isinstance(c, tuple) and len(c) == len(n)
    for a, b in zip(c, n):
        check(a, b)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take(device, rng, dtype):
    n = random_array(rng, (4, 5, 6), dtype)
    c = cp.asarray(n)
    idx = rng.integers(-4, 4, size=(2, 3))
    for axis in [None, 0, 1, -1]:
        check(cp.take(c, cp.asarray(idx), axis=axis), np.take(n, idx, axis=axis))
    check(c.take(idx, axis=1), n.take(idx, axis=1))
    check(cp.take(c, 7, axis=2, mode="wrap"), np.take(n, 7, axis=2, mode="wrap"))
    check(cp.take(c, [-9, 9], axis=1, mode="clip"), np.take(n, [-9, 9], axis=1, mode="clip"))
    check(cp.take(c, [], axis=0), np.take(n, [], axis=0))
    out = cp.empty((2, 3), dtype=dtype)
    cp.take(c, [[0, 1, 2], [3, 4, 5]], out=out)
    check(out, np.take(n, [[0, 1, 2], [3, 4, 5]]))


@pytest.mark.parametrize("indices", [0, -1, [0], [0, -1]])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_take_0d(device, rng, indices, axis):
    """With an axis, NumPy takes from a 0-d array as from its one-element 1-d ravel."""
    n = random_array(rng, (), np.float32)
    c = cp.asarray(n)
    check(c.take(indices, axis=axis), n.take(indices, axis=axis))
    out = cp.zeros(np.shape(n.take(indices, axis=axis)), dtype=np.float32)
    cp.take(c, indices, axis=axis, out=out)
    check(out, np.take(n, indices, axis=axis))


def test_take_0d_errors(device):
    for xp in (np, cp):
        with pytest.raises(np.exceptions.AxisError, match="^axis 1 is out of bounds for array of dimension 1$"):
            xp.take(xp.zeros(()), 0, axis=1)


def test_take_errors(device):
    c = cp.zeros((3, 4))
    with pytest.raises(IndexError, match="^index 4 is out of bounds for axis 1 with size 4$"):
        cp.take(c, [4], axis=1).get()
    with pytest.raises(IndexError, match="^index 100 is out of bounds for axis 0 with size 12$"):
        cp.take(c, [100]).get()
    with pytest.raises(IndexError, match=r"^cannot do a non-empty take from an empty axes\.$"):
        cp.take(cp.zeros(0), [0], mode="wrap")
    with pytest.raises(ValueError, match="^clipmode must be one of 'clip', 'raise', or 'wrap'$"):
        cp.take(c, [0], mode="bad")
    with pytest.raises(TypeError):
        cp.take(c, cp.asarray(np.array([0.5])))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128, np.bool_])
def test_put(device, rng, dtype):
    n = random_array(rng, (4, 5), dtype)
    c = cp.asarray(n)
    v = random_array(rng, (3,), dtype)
    for ind, mode in [([0, 7, 19], "raise"), ([1, 1, 1, 2, 3], "raise"), ([-1, 25, 40], "wrap"), ([-3, 99], "clip")]:
        np.put(n, ind, v, mode=mode)
        cp.put(c, ind, cp.asarray(v), mode=mode)
        check(c, n)
    n.put([2, 3], v[0])
    c.put([2, 3], v[0])
    check(c, n)
    # A non-contiguous target: flat indices in its own C order.
    nt, ct = n.T, c.T
    np.put(nt, [0, 1, 5], v)
    cp.put(ct, [0, 1, 5], cp.asarray(v))
    check(c, n)
    with pytest.raises(IndexError, match="^index 20 is out of bounds for axis 0 with size 20$"):
        cp.put(c, [0, 20], cp.asarray(v[:2]))
        c.get()
    check(c, n)


def test_take_put_along_axis(device, rng):
    n = random_array(rng, (4, 5, 3), np.float64)
    c = cp.asarray(n)
    for axis in [0, 1, 2, -1]:
        idx = np.argsort(n, axis=axis)
        check(cp.take_along_axis(c, cp.asarray(idx), axis=axis), np.take_along_axis(n, idx, axis=axis))
        small = rng.integers(0, n.shape[axis], size=[1 if d != axis % 3 else 2 for d in range(3)])
        check(cp.take_along_axis(c, cp.asarray(small), axis), np.take_along_axis(n, small, axis))
        vals = random_array(rng, small.shape, np.float64)
        np.put_along_axis(n, small, vals, axis)
        cp.put_along_axis(c, cp.asarray(small), cp.asarray(vals), axis)
        check(c, n)
    flat = rng.integers(0, 60, size=7)
    check(cp.take_along_axis(c, cp.asarray(flat), axis=None), np.take_along_axis(n, flat, axis=None))
    with pytest.raises(ValueError, match="same number of dimensions"):
        cp.take_along_axis(c, cp.asarray(np.zeros((3,), np.int64)), axis=1)
    with pytest.raises(IndexError, match="must be an integer array"):
        cp.take_along_axis(c, cp.zeros((1, 1, 1)), axis=1)


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64, np.bool_])
def test_masks(device, rng, dtype):
    n = random_array(rng, (5, 6), dtype)
    c = cp.asarray(n)
    cond = rng.random((5, 6)) < 0.4
    check(cp.extract(cp.asarray(cond), c), np.extract(cond, n))
    check(cp.extract(cp.asarray(cond[:2]), c), np.extract(cond[:2], n))
    check(cp.compress(cond[:, 0], c, axis=0), np.compress(cond[:, 0], n, axis=0))
    check(cp.compress([1, 0, 1], c, axis=1), np.compress([1, 0, 1], n, axis=1))
    check(c.compress(cond[0]), n.compress(cond[0]))
    check(cp.compress(cond[0], c), np.compress(cond[0], n))
    with pytest.raises(IndexError):
        cp.compress([True] * 7, c, axis=0).get()
    with pytest.raises(ValueError, match="^condition must be a 1-d array$"):
        cp.compress([[True]], c)
    vals = random_array(rng, (4,), dtype)
    np.place(n, cond, vals)
    cp.place(c, cp.asarray(cond), cp.asarray(vals))
    check(c, n)
    np.putmask(n, ~cond, vals)
    cp.putmask(c, cp.asarray(~cond), cp.asarray(vals))
    check(c, n)
    np.putmask(n, cond, vals[0])
    cp.putmask(c, cp.asarray(cond), vals[0])
    check(c, n)
    with pytest.raises(ValueError, match="^Cannot insert from an empty array!$"):
        cp.place(c, cp.asarray(cond | True), cp.asarray(vals[:0]))
    with pytest.raises(ValueError, match="^place: mask and data must be the same size$"):
        cp.place(c, cp.ones(3, dtype=bool), cp.asarray(vals))
    with pytest.raises(ValueError, match="^putmask: mask and data must be the same size$"):
        cp.putmask(c, cp.ones(3, dtype=bool), cp.asarray(vals))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nonzero_family(device, rng, dtype):
    n = random_array(rng, (4, 7, 3), dtype) * (rng.random((4, 7, 3)) < 0.5).astype(dtype)
    if np.dtype(dtype).kind == "f":
        n[0, 0, 0] = -0.0
        n[1, 1, 1] = np.nan
    c = cp.asarray(n)
    check_tuple(cp.nonzero(c), np.nonzero(n))
    check_tuple(c.nonzero(), n.nonzero())
    check_tuple(cp.where(c), np.where(n))
    check(cp.flatnonzero(c), np.flatnonzero(n))
    check(cp.argwhere(c), np.argwhere(n))
    check(cp.argwhere(c[:, ::-2, 1]), np.argwhere(n[:, ::-2, 1]))
    check_tuple(cp.nonzero(c.transpose(2, 0, 1)), np.nonzero(n.transpose(2, 0, 1)))


def test_nonzero_edges(device):
    check_tuple(cp.nonzero(cp.zeros((3, 0))), np.nonzero(np.zeros((3, 0))))
    check_tuple(cp.nonzero(cp.zeros(5)), np.nonzero(np.zeros(5)))
    check(cp.argwhere(cp.asarray(np.array(3))), np.argwhere(np.array(3)))
    check(cp.argwhere(cp.asarray(np.array(0))), np.argwhere(np.array(0)))
    with pytest.raises(ValueError, match="^Calling nonzero on 0d arrays is not allowed"):
        cp.nonzero(cp.asarray(np.array(1)))
    big = np.zeros(100003, bool)
    big[[0, 2047, 2048, 50000, 100002]] = True
    check_tuple(cp.nonzero(cp.asarray(big)), np.nonzero(big))
    check(cp.asarray(np.arange(100003.0))[cp.asarray(big)], np.arange(100003.0)[big])


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8])
@pytest.mark.parametrize("start", [0, 16, 3])
def test_nonzero_of_one_byte_flags_across_tiles(device, rng, dtype, start):
    """Byte flags over many 2048-element tiles and a partial last one, from aligned and
    unaligned starts: any nonzero byte is true (uint8 128 and 255, int8 -1), as NumPy."""
    size = 2048 * 9 + 1237
    if dtype == np.bool_:
        n = rng.random(size) < 0.4
    else:
        n = np.array([0, 0, 1, 2, 127, 128, 255], np.uint8)[rng.integers(0, 7, size)].view(dtype)
    c = cp.asarray(n)[start:]
    n = n[start:]
    check_tuple(cp.nonzero(c), np.nonzero(n))
    mask = n.astype(bool)
    for t in (np.int8, np.float32, np.float64, np.complex128):  # 1-, 4-, 8- and 16-byte values
        x = (rng.standard_normal(n.size) * 50).astype(t)
        check(cp.asarray(x)[cp.asarray(mask)], x[mask])
        check(cp.asarray(x)[1:][cp.asarray(mask)[:-1]], x[1:][mask[:-1]])  # values not 16-byte aligned
    check(cp.count_nonzero(c), np.asarray(np.count_nonzero(n)))


def test_choose_select(device, rng):
    a = rng.integers(0, 3, size=(4, 5))
    choices = [random_array(rng, (4, 5), np.float32), random_array(rng, (5,), np.float32),
               random_array(rng, (4, 1), np.float32)]
    cc = [cp.asarray(x) for x in choices]
    check(cp.choose(cp.asarray(a), cc), np.choose(a, choices))
    check(cp.asarray(a).choose(cc), a.choose(choices))
    check(cp.choose(cp.asarray(a + 2), cc, mode="wrap"), np.choose(a + 2, choices, mode="wrap"))
    check(cp.choose(cp.asarray(a - 1), cc, mode="clip"), np.choose(a - 1, choices, mode="clip"))
    with pytest.raises(ValueError, match="^invalid entry in choice array$"):
        cp.choose(cp.asarray(a + 1), cc)
    conds = [rng.random((4, 5)) < 0.3, rng.random((4, 5)) < 0.6]
    vals = [random_array(rng, (4, 5), np.int32), random_array(rng, (5,), np.int64)]
    check(cp.select([cp.asarray(x) for x in conds], [cp.asarray(x) for x in vals], 7),
          np.select(conds, vals, 7))
    with pytest.raises(ValueError, match="^list of cases must be same length as list of conditions$"):
        cp.select([cp.asarray(conds[0])], [])
    with pytest.raises(TypeError, match="^invalid entry 0 in condlist: should be boolean ndarray$"):
        cp.select([cp.zeros(3)], [cp.zeros(3)])


def test_generators(device):
    check_tuple(cp.ix_([0, 2], cp.asarray(np.array([True, False, True])), [1]), np.ix_([0, 2], [True, False, True], [1]))
    check_tuple(cp.ix_([]), np.ix_([]))
    with pytest.raises(ValueError, match="^Cross index must be 1 dimensional$"):
        cp.ix_([[0, 1]])
    check(cp.indices((2, 3, 4)), np.indices((2, 3, 4)))
    check_tuple(cp.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True))
    check(cp.indices((3, 2), dtype=np.int32), np.indices((3, 2), dtype=np.int32))
    for order in "CF":
        idx = np.array([[0, 5, 59], [7, 1, 30]])
        check_tuple(cp.unravel_index(cp.asarray(idx), (3, 4, 5), order=order), np.unravel_index(idx, (3, 4, 5), order=order))
        coords = ([2, 0, 1], [3, 1, 0], [4, 4, 0])
        check(cp.ravel_multi_index(coords, (3, 4, 5), order=order), np.ravel_multi_index(coords, (3, 4, 5), order=order))
    check(cp.ravel_multi_index(([3, -1], [5, 0]), (3, 4), mode="wrap"), np.ravel_multi_index(([3, -1], [5, 0]), (3, 4), mode="wrap"))
    check(cp.ravel_multi_index(([3, -1], [5, 0]), (3, 4), mode=("clip", "wrap")),
          np.ravel_multi_index(([3, -1], [5, 0]), (3, 4), mode=("clip", "wrap")))
    with pytest.raises(ValueError, match="^index 60 is out of bounds for array with size 60$"):
        cp.unravel_index(cp.asarray(np.array([60])), (3, 4, 5))
    with pytest.raises(ValueError, match="^invalid entry in coordinates array$"):
        cp.ravel_multi_index(([3], [0]), (3, 4))
    with pytest.raises(ValueError, match="^invalid dims: array size defined by dims is larger"):
        cp.ravel_multi_index((cp.arange(4), cp.arange(4)), (np.iinfo(np.int64).max, 4))
    check(cp.ravel_multi_index((), ()), np.ravel_multi_index((), ()))
    check_tuple(cp.diag_indices(4, 3), np.diag_indices(4, 3))
    check_tuple(cp.diag_indices_from(cp.zeros((3, 3))), np.diag_indices_from(np.zeros((3, 3))))
    for k in [-2, 0, 1, 3]:
        check_tuple(cp.tril_indices(4, k), np.tril_indices(4, k))
        check_tuple(cp.triu_indices(4, k, 6), np.triu_indices(4, k, 6))
        check_tuple(cp.tril_indices_from(cp.zeros((3, 5)), k), np.tril_indices_from(np.zeros((3, 5)), k))
        check_tuple(cp.triu_indices_from(cp.zeros((5, 3)), k), np.triu_indices_from(np.zeros((5, 3)), k))
        check_tuple(cp.mask_indices(4, cp.triu, k), np.mask_indices(4, np.triu, k))
    with pytest.raises(ValueError, match="^input array must be 2-d$"):
        cp.tril_indices_from(cp.zeros((2, 2, 2)))


@pytest.mark.parametrize("shape,wrap", [((4, 4), False), ((6, 3), True), ((6, 3), False), ((3, 5), False),
                                        ((3, 3, 3), False)])
def test_fill_diagonal(device, shape, wrap):
    n = np.zeros(shape)
    c = cp.zeros(shape)
    np.fill_diagonal(n, [1, 2], wrap=wrap)
    cp.fill_diagonal(c, cp.asarray(np.array([1.0, 2.0])), wrap=wrap)
    check(c, n)
    np.fill_diagonal(n, 7, wrap=wrap)
    cp.fill_diagonal(c, 7, wrap=wrap)
    check(c, n)


# ---- ufunc.at ----

AT_CASES = [
    ("add", np.float64), ("add", np.int32), ("add", np.uint8), ("add", np.int64), ("add", np.float16),
    ("add", np.complex64), ("add", np.complex128), ("subtract", np.float32), ("subtract", np.uint64),
    ("multiply", np.int16), ("maximum", np.float32), ("minimum", np.int8), ("fmax", np.float64),
    ("bitwise_or", np.uint32), ("bitwise_xor", np.int64), ("logical_and", np.bool_), ("divide", np.float64),
    ("power", np.int64), ("remainder", np.float32), ("floor_divide", np.int32), ("arctan2", np.float64),
    ("greater", np.float64), ("multiply", np.complex128),
]


@pytest.mark.parametrize("name,dtype", AT_CASES)
def test_ufunc_at(device, rng, name, dtype):
    n = random_array(rng, (10, 3), dtype, low=1, high=4)
    c = cp.asarray(n)
    idx = rng.integers(-10, 10, size=40)
    v = random_array(rng, (40, 3), dtype, low=1, high=3)
    getattr(np, name).at(n, idx, v)
    _core._ufunc_at(name, c, cp.asarray(idx), cp.asarray(v))
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(c.get(), n, rtol=1e-2 if dtype == np.float16 else 1e-5)
    else:
        check(c, n)


def test_ufunc_at_forms(device, rng):
    n = np.arange(12.0).reshape(3, 4)
    c = cp.asarray(n)
    np.add.at(n, (slice(None), [0, 0, 3]), 1)
    _core._ufunc_at("add", c, (slice(None), [0, 0, 3]), 1)
    check(c, n)
    np.negative.at(n, [0, 0, 2])
    _core._ufunc_at("negative", c, [0, 0, 2])
    check(c, n)
    np.multiply.at(n, (1, slice(1, 3)), 2.5)  # a basic index: no repeats, one elementwise call
    _core._ufunc_at("multiply", c, (1, slice(1, 3)), 2.5)
    check(c, n)
    m = np.zeros(5, np.int32)
    np.add.at(m, [0, 0], 1.9)  # ufunc.at casts the result back unsafely
    cm = cp.zeros(5, dtype=cp.int32)
    _core._ufunc_at("add", cm, [0, 0], 1.9)
    check(cm, m)
    mask = np.array([True, False, True])
    np.add.at(n, mask, 100)
    _core._ufunc_at("add", c, mask, 100)
    check(c, n)
    with pytest.raises(ValueError, match="^second operand needed for ufunc$"):
        _core._ufunc_at("add", c, [0])
    with pytest.raises(ValueError, match="^second operand provided when ufunc is unary$"):
        _core._ufunc_at("negative", c, [0], 1)
    with pytest.raises(ValueError, match="^array is not broadcastable to correct shape$"):
        _core._ufunc_at("add", c, [0, 1], cp.ones(3))
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 0 with size 3$"):
        _core._ufunc_at("add", c, [0, 5], 1)
        c.get()
    check(c, n)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_r_c_s(device, rng, dtype):
    a, b = random_array(rng, (3, 4), dtype), random_array(rng, (2, 4), dtype)
    v, w = random_array(rng, (3,), dtype), random_array(rng, (3, 2), dtype)
    ca, cb, cv, cw = (cp.asarray(x) for x in (a, b, v, w))
    check(cp.r_[ca, cb], np.r_[a, b])
    check(cp.r_[cv, 0, 1, cv], np.r_[v, 0, 1, v])
    check(cp.r_[cv, [1, 0]], np.r_[v, [1, 0]])
    check(cp.c_[cv, cw, cv], np.c_[v, w, v])
    check(cp.c_[cb.T, cb.T], np.c_[b.T, b.T])
    check(cp.r_[0, 0.5, -1, 0.3], np.r_[0, 0.5, -1, 0.3])
    assert cp.r_[ca, cb].device == ca.device
    with pytest.raises(ValueError):
        cp.r_[ca, cw]
    with pytest.raises(NotImplementedError):  # ranges and string directives, as CuPy
        cp.r_[0:3]
    with pytest.raises(NotImplementedError):
        cp.r_["0,2", [1, 2, 3], [4, 5, 6]]
    assert cp.s_[1:2, ::3] == np.s_[1:2, ::3] and cp.s_[2] == 2
    assert cp.index_exp[2] == (2,) and cp.index_exp[1, ...] == (1, Ellipsis)


@pytest.mark.parametrize("out_dtype", [np.int16, np.uint8, np.bool_, np.int64, np.float32, np.float64])
def test_take_out_dtype_and_check_order(device, rng, out_dtype):
    """take(out=) as the installed NumPy: from NumPy 2.5 the result goes into out unsafely,
    with a DeprecationWarning where the kind changes; before, out had to convert safely to
    a's dtype (TypeError, checked before any index)."""
    a = random_array(rng, (3, 4, 5), np.int32)
    i = rng.integers(0, 3, (2, 3))

    def deprecations(fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn()
        return [str(w.message) for w in caught if w.category is DeprecationWarning]

    want = np.zeros((2, 3), out_dtype)
    try:
        expected = deprecations(lambda: a.take(i, out=want))
    except TypeError as e:
        with pytest.raises(TypeError, match=re.escape(str(e))):
            cp.asarray(a).take(cp.asarray(i), out=cp.zeros((2, 3), out_dtype))
        with pytest.raises(TypeError):  # before the out-of-bounds index
            cp.asarray(a).take(cp.asarray(i + 100), out=cp.zeros((2, 3), out_dtype))
    else:
        out = cp.zeros((2, 3), out_dtype)
        got = deprecations(lambda: cp.asarray(a).take(cp.asarray(i), out=out))
        assert got == expected
        assert cp.take(cp.asarray(a), cp.asarray(i), out=out) is out
        np.testing.assert_array_equal(out.get(), want)
    for xp in (np, cp):
        with pytest.raises(ValueError, match="output array does not match result of ndarray.take"):
            xp.asarray(np.float32(1)).take(xp.asarray(5), out=xp.zeros(1, np.float32))
