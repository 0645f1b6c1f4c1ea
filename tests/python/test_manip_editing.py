"""append, insert, delete, resize, trim_zeros, rot90, rollaxis, the stacking and splitting
helpers, block, tri, diagflat, vander, geomspace, packbits and unpackbits against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, assert_matches as check, random_array, random_pair as pair


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_append_dtypes(device, rng, dtype):
    n, c = pair(rng, (3, 4), dtype)
    v = random_array(rng, (2, 4), np.float32)
    check(cp.append(c, cp.asarray(v)), np.append(n, v))
    check(cp.append(c, cp.asarray(v), axis=0), np.append(n, v, axis=0))
    check(cp.append(c, 5), np.append(n, 5))


@pytest.mark.parametrize("strided", [False, True])
def test_append_shapes(device, rng, strided):
    n, c = pair(rng, (2, 3), np.int64, strided)
    check(cp.append(c, c, axis=1), np.append(n, n, axis=1))
    check(cp.append(cp.asarray(3.5), [1, 2]), np.append(3.5, [1, 2]))
    check(cp.append(cp.zeros((0,)), []), np.append(np.zeros((0,)), []))
    with pytest.raises(ValueError):
        cp.append(c, cp.zeros((2, 2)), axis=0)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("obj", [1, -1, 0, 3, [1], [0, 2, 2], [-1, 1], slice(1, None), slice(None, None, -2), []])
def test_insert(device, rng, axis, obj):
    n, c = pair(rng, (3, 3), np.float64)
    values = random_array(rng, (3,), np.float64)
    vals = values if isinstance(obj, int) else values[:1]
    want = np.insert(n, obj, vals, axis=axis)
    got = cp.insert(c, obj, cp.asarray(vals), axis=axis)
    check(got, want)


def test_insert_scalar_values_and_casts(device, rng):
    n, c = pair(rng, (2, 4), np.int32, True)
    check(cp.insert(c, 1, 7.9, axis=1), np.insert(n, 1, 7.9, axis=1))
    check(cp.insert(c, [0, 4], [[1], [2]], axis=1), np.insert(n, [0, 4], [[1], [2]], axis=1))
    check(cp.insert(c, 2, [[5, 6, 7, 8]], axis=0), np.insert(n, 2, [[5, 6, 7, 8]], axis=0))
    check(cp.insert(cp.asarray(2.0), 0, 1.0), np.insert(np.asarray(2.0), 0, 1.0))


def test_insert_errors(device):
    c = cp.arange(4)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 4"):
        cp.insert(c, 5, 1)
    with pytest.raises(ValueError, match="must be one dimensional or scalar"):
        cp.insert(c, [[1]], 1)
    with pytest.raises(np.exceptions.AxisError):
        cp.insert(c, 1, 1, axis=2)
    with pytest.raises(TypeError, match="slice indices must be integers"):
        cp.insert(c, 1.5, 1)
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        cp.insert(c, [1.5, 2.5], 1)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1, -2])
@pytest.mark.parametrize("obj", [0, -1, 2, [0, 2], [2, 2, 0], [], slice(1, 3), slice(None, None, 2),
                                 slice(5, 6)])
def test_delete(device, rng, dtype, axis, obj):
    n, c = pair(rng, (3, 4), dtype, True)
    check(cp.delete(c, obj, axis=axis), np.delete(n, obj, axis=axis))


def test_delete_masks_and_errors(device, rng):
    n, c = pair(rng, (4, 3), np.int64)
    mask = np.array([True, False, True, False])
    check(cp.delete(c, mask, axis=0), np.delete(n, mask, axis=0))
    check(cp.delete(c, cp.asarray(mask), axis=0), np.delete(n, mask, axis=0))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        cp.delete(c, 4, axis=0)
    with pytest.raises(ValueError, match="boolean array argument obj to delete must be one dimensional"):
        cp.delete(c, [True, False], axis=0)
    with pytest.raises(IndexError):
        cp.delete(c, [0, 7], axis=0)


@pytest.mark.parametrize("shape", [(2, 3), (7,), (3, 5, 2), 0, 4, (0, 3)])
def test_resize(device, rng, shape):
    n, c = pair(rng, (2, 2), np.float32, True)
    check(cp.resize(c, shape), np.resize(n, shape))
    check(cp.resize(cp.zeros((0,), dtype=np.int8), shape), np.resize(np.zeros((0,), np.int8), shape))
    with pytest.raises(ValueError, match="all elements of `new_shape` must be non-negative"):
        cp.resize(c, (-1, 2))


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
def test_trim_zeros(device, trim):
    n = np.array([0, 0, 3, 0, 4, 0, 0], dtype=np.int32)
    check(cp.trim_zeros(cp.asarray(n), trim), np.trim_zeros(n, trim))
    z = np.zeros(4)
    check(cp.trim_zeros(cp.asarray(z), trim), np.trim_zeros(z, trim))
    m = np.zeros((4, 5))
    m[1, 2] = m[2, 3] = 1
    check(cp.trim_zeros(cp.asarray(m), trim), np.trim_zeros(m, trim))
    check(cp.trim_zeros(cp.asarray(m), trim, axis=1), np.trim_zeros(m, trim, axis=1))
    with pytest.raises(ValueError, match="unexpected character"):
        cp.trim_zeros(cp.asarray(n), "x")


@pytest.mark.parametrize("k", [-5, -1, 0, 1, 2, 3, 4])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (0, 2), (-1, -3), (2, 1)])
def test_rot90(device, rng, k, axes):
    n, c = pair(rng, (2, 3, 4), np.int16, True)
    check(cp.rot90(c, k, axes), np.rot90(n, k, axes))


def test_rot90_errors(device):
    c = cp.zeros((2, 3))
    with pytest.raises(ValueError, match=r"len\(axes\) must be 2\."):
        cp.rot90(c, axes=(0,))
    with pytest.raises(ValueError, match="Axes must be different."):
        cp.rot90(c, axes=(1, 1))
    with pytest.raises(ValueError, match="Axes must be different."):
        cp.rot90(c, axes=(0, 2))
    with pytest.raises(ValueError, match=r"Axes=\(0, 3\) out of range for array of ndim=2\."):
        cp.rot90(c, axes=(0, 3))


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("start", [0, 1, 2, 3, -1, -3])
def test_rollaxis(device, rng, axis, start):
    n, c = pair(rng, (2, 3, 4), np.float64)
    check(cp.rollaxis(c, axis, start), np.rollaxis(n, axis, start))


def test_rollaxis_errors(device):
    with pytest.raises(np.exceptions.AxisError, match="'start' arg requires -3 <= start < 4, but 5 was passed in"):
        cp.rollaxis(cp.zeros((1, 2, 3)), 0, 5)


def test_stacking(device, rng):
    a, ca = pair(rng, (3,), np.int32)
    b, cb = pair(rng, (3, 2), np.float32)
    check(cp.column_stack([ca, cb]), np.column_stack([a, b]))
    check(cp.column_stack((ca, ca)), np.column_stack((a, a)))
    check(cp.dstack([ca, ca]), np.dstack([a, a]))
    check(cp.dstack([cb, cb]), np.dstack([b, b]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(cp.row_stack([ca, ca]), np.vstack([a, a]))  # NumPy 2.5 removed row_stack
    with pytest.warns(DeprecationWarning):
        cp.row_stack([ca, ca])


@pytest.mark.parametrize("sections", [2, [1, 3], [0, 5, 2]])
def test_hvd_split(device, rng, sections):
    n, c = pair(rng, (4, 4, 4), np.int8)
    for name in ["hsplit", "vsplit", "dsplit"]:
        want = getattr(np, name)(n, sections)
        got = getattr(cp, name)(c, sections)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
    n1, c1 = pair(rng, (6,), np.int8)
    for g, w in zip(cp.hsplit(c1, 3), np.hsplit(n1, 3)):
        check(g, w)
    with pytest.raises(ValueError, match="hsplit only works on arrays of 1 or more dimensions"):
        cp.hsplit(cp.asarray(1), 1)
    with pytest.raises(ValueError, match="vsplit only works on arrays of 2 or more dimensions"):
        cp.vsplit(c1, 2)
    with pytest.raises(ValueError, match="dsplit only works on arrays of 3 or more dimensions"):
        cp.dsplit(cp.zeros((2, 2)), 2)
    with pytest.raises(ValueError, match="array split does not result in an equal division"):
        cp.hsplit(c1, 4)


def test_block(device, rng):
    a, ca = pair(rng, (2, 2), np.float64)
    b, cb = pair(rng, (2, 3), np.int32)
    c, cc = pair(rng, (3,), np.float32)
    check(cp.block([[ca, cb]]), np.block([[a, b]]))
    check(cp.block([ca, ca]), np.block([a, a]))
    check(cp.block([cc, 1.5, cc]), np.block([c, 1.5, c]))
    check(cp.block([[[cc]], [[cc]]]), np.block([[[c]], [[c]]]))
    check(cp.block(ca), np.block(a))
    check(cp.block([[ca, ca], [cp.zeros((1, 4))]]), np.block([[a, a], [np.zeros((1, 4))]]))
    with pytest.raises(ValueError, match=r"List depths are mismatched\. First element was at depth 2, but there "
                                         r"is an element at depth 1 \(arrays\[1\]\)"):
        cp.block([[ca], ca])
    with pytest.raises(ValueError, match=r"List at arrays\[1\] cannot be empty"):
        cp.block([[ca], []])
    with pytest.raises(ValueError, match="List at arrays cannot be empty"):
        cp.block([])
    with pytest.raises(TypeError, match="arrays is a tuple"):
        cp.block((ca,))


@pytest.mark.parametrize("args", [(3,), (3, 5), (4, 2, 1), (4, 4, -2), (0,), (3, None, 5)])
@pytest.mark.parametrize("dtype", [float, np.int32, bool])
def test_tri(device, args, dtype):
    check(cp.tri(*args, dtype=dtype), np.tri(*args, dtype=dtype))
    assert cp.tri(2, device=device).device == cp.Device(device)


@pytest.mark.parametrize("k", [-2, 0, 1])
def test_diagflat(device, rng, k):
    n, c = pair(rng, (2, 2), np.complex64, True)
    check(cp.diagflat(c, k), np.diagflat(n, k))
    check(cp.diagflat([1, 2], k), np.diagflat([1, 2], k))


@pytest.mark.parametrize("dtype", [np.int8, np.uint64, np.float32, np.complex128, np.bool_])
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(device, rng, dtype, N, increasing):
    n = random_array(rng, (5,), dtype, -4, 4)
    got, want = cp.vander(cp.asarray(n), N, increasing), np.vander(n, N, increasing)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="x must be a one-dimensional array or sequence."):
        cp.vander(cp.zeros((2, 2)))


@pytest.mark.parametrize("bounds", [(1, 1000), (-1, -1000), (2.0, 3.0), (1j, 1000j), (1 + 1j, 2 - 3j), (5, 1)])
@pytest.mark.parametrize("num", [0, 1, 4, 9])
@pytest.mark.parametrize("endpoint", [True, False])
def test_geomspace(device, bounds, num, endpoint):
    got, want = cp.geomspace(*bounds, num, endpoint), np.geomspace(*bounds, num, endpoint)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)


def test_geomspace_arrays_dtypes_errors(device):
    start, stop = np.array([1.0, 2.0]), np.array([[10.0, 20.0], [5.0, 7.0]])
    for axis in [0, 1, -1]:
        got = cp.geomspace(cp.asarray(start), cp.asarray(stop), 5, axis=axis)
        np.testing.assert_allclose(got.get(), np.geomspace(start, stop, 5, axis=axis), rtol=1e-12)
    for dtype in [np.float32, np.int64, np.complex64]:
        got, want = cp.geomspace(1, 256, 9, dtype=dtype), np.geomspace(1, 256, 9, dtype=dtype)
        assert got.dtype == want.dtype
        # Integer results truncate a float power: 2**7 may come out as 127.99999 on one device
        # and 128 on another, so integers may differ by one.
        np.testing.assert_allclose(got.get(), want, rtol=1e-6, atol=1 if dtype == np.int64 else 0)
    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        cp.geomspace(0, 5)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.int64])
@pytest.mark.parametrize("shape,axis", [((13,), None), ((3, 10), None), ((3, 10), 1), ((9, 2), 0), ((2, 3, 5), -1),
                                        ((0, 4), 1), ((), None), ((), 0)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(device, rng, dtype, shape, axis, bitorder):
    n = random_array(rng, shape, dtype, 0, 2)
    check(cp.packbits(cp.asarray(n), axis=axis, bitorder=bitorder), np.packbits(n, axis=axis, bitorder=bitorder))


@pytest.mark.parametrize("shape,axis", [((3,), None), ((3, 2), None), ((3, 2), 1), ((2, 3), 0), ((), None)])
@pytest.mark.parametrize("count", [None, 0, 3, -3, 30, -8])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits(device, rng, shape, axis, count, bitorder):
    n = random_array(rng, shape, np.uint8, 0, 255)
    total = 8 * (n.size if axis is None else n.shape[axis])
    if count is not None and count < -total:
        return
    check(cp.unpackbits(cp.asarray(n), axis=axis, count=count, bitorder=bitorder),
          np.unpackbits(n, axis=axis, count=count, bitorder=bitorder))


def test_packbits_errors(device):
    with pytest.raises(TypeError, match="Expected an input array of integer or boolean data type"):
        cp.packbits(cp.zeros(3))
    with pytest.raises(TypeError, match="Expected an input array of unsigned byte data type"):
        cp.unpackbits(cp.zeros(3, dtype=np.int8))
    with pytest.raises(ValueError, match="'order' must be either 'little' or 'big'"):
        cp.packbits(cp.zeros(3, dtype=bool), bitorder="x")
    with pytest.raises(TypeError):  # NumPy's type (CuPy raises ValueError)
        cp.unpackbits(cp.zeros(3, dtype=np.uint8), bitorder=10)
    with pytest.raises(TypeError):
        np.unpackbits(np.zeros(3, dtype=np.uint8), bitorder=10)
    with pytest.raises(ValueError, match="-count larger than number of elements"):
        cp.unpackbits(cp.zeros(1, dtype=np.uint8), count=-9)
