"""flip (views with negative strides), roll, repeat, tile and copyto against NumPy."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, assert_matches as check, random_array, random_pair as pair


@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), ()])
def test_flip_is_a_view(device, rng, strided, axis):
    n, c = pair(rng, (3, 4, 2), np.int32, strided)
    n_out, c_out = np.flip(n, axis), cp.flip(c, axis)
    check(c_out, n_out)
    assert c_out.strides == n_out.strides and c_out.base is not None
    values = random_array(rng, n_out.shape, np.int32)
    n_out[...] = values
    c_out[...] = cp.asarray(values)
    check(c, n)
    check(cp.fliplr(c), np.fliplr(n))
    check(cp.flipud(c), np.flipud(n))


def test_flip_edge_and_errors(device, rng):
    check(cp.flip(cp.zeros((0, 2))), np.flip(np.zeros((0, 2))))
    check(cp.flip(cp.asarray(np.float32(2.5))), np.flip(np.float32(2.5)))
    with pytest.raises(ValueError, match=r"^Input must be >= 2-d\.$"):
        cp.fliplr(cp.zeros(3))
    with pytest.raises(ValueError, match=r"^Input must be >= 1-d\.$"):
        cp.flipud(cp.zeros(()))
    with pytest.raises(np.exceptions.AxisError, match="^axis 2 is out of bounds for array of dimension 2$"):
        cp.flip(cp.zeros((2, 3)), 2)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (2, 0), (-1, 1), (5, -1), ((1, 2), (0, 1)),
                                        ((1, -3), 1), (3, (0, 2)), ((1, 2, -1), (0, 1, 0)), (0, 0), (12, 1)])
def test_roll(device, rng, dtype, shift, axis):
    n, c = pair(rng, (3, 4, 2), dtype, strided=True)
    check(cp.roll(c, shift, axis), np.roll(n, shift, axis))


def test_roll_edge_and_errors(device, rng):
    check(cp.roll(cp.zeros((0, 3)), 2, 1), np.roll(np.zeros((0, 3)), 2, 1))
    check(cp.roll(cp.asarray(np.arange(4)), 1), np.roll(np.arange(4), 1))
    with pytest.raises(ValueError, match=r"^shape mismatch: objects cannot be broadcast to a single shape\.  Mismatch "
                                         r"is between arg 0 with shape \(2,\) and arg 1 with shape \(3,\)\.$"):
        cp.roll(cp.zeros((2, 3)), [1, 2], axis=(0, 1, 0))
    with pytest.raises(np.exceptions.AxisError, match="^axis 3 is out of bounds for array of dimension 2$"):
        cp.roll(cp.zeros((2, 3)), 1, axis=3)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (1, 1), (0, 1), ([1, 0, 2], 0), ([2, 2, 1, 1], 1),
                                          ([0, 0, 0, 0], -1), (4, -1)])
def test_repeat(device, rng, dtype, repeats, axis):
    n, c = pair(rng, (3, 4), dtype, strided=True)
    check(cp.repeat(c, repeats, axis), np.repeat(n, repeats, axis))
    check(c.repeat(repeats, axis=axis), n.repeat(repeats, axis=axis))


def test_repeat_edge_and_errors(device):
    check(cp.repeat(cp.asarray(np.float64(1.5)), 3), np.repeat(np.float64(1.5), 3))
    check(cp.repeat(cp.zeros((0, 2)), 3, 0), np.repeat(np.zeros((0, 2)), 3, 0))
    check(cp.repeat([1, 2], cp.asarray(np.array([2, 1]))), np.repeat([1, 2], [2, 1]))
    with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
        cp.repeat(cp.zeros(2), -1)
    with pytest.raises(ValueError, match=r"^repeats may not contain negative values\.$"):
        cp.repeat(cp.zeros(2), [1, -2])
    with pytest.raises(ValueError, match=r"^operands could not be broadcast together with shape \(2,\) \(3,\)$"):
        cp.repeat(cp.zeros(2), [1, 2, 3])
    with pytest.raises(np.exceptions.AxisError, match="^axis 2 is out of bounds for array of dimension 2$"):
        cp.repeat(cp.zeros((2, 2)), 2, axis=2)
    for xp in (np, cp):
        with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to dtype\('int64'\)"):
            xp.repeat(xp.arange(3), xp.array([1.0, 1.0, 1.0]))
        with pytest.raises(ValueError, match="object too deep for desired array"):
            xp.repeat(xp.arange(6), xp.array([[1, 2, 3, 4, 5, 6]]))
        with pytest.raises(ValueError):
            xp.repeat(xp.arange(6), [[1, 2, 3, 4, 5, 6]])
    check(cp.repeat(cp.arange(3), cp.asarray(np.array([True, False, True]))), np.repeat(np.arange(3), [True, False, True]))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float64, np.complex64])
@pytest.mark.parametrize("shape,reps", [((3,), 2), ((3,), (2, 2)), ((2, 3), (2,)), ((2, 3), (1, 1)),
                                        ((2, 1, 3), (2, 3, 1, 2)), ((), 3), ((), (2, 2)), ((2, 3), (0, 2)),
                                        ((0, 2), 3), ((2, 3), ())])
def test_tile(device, rng, dtype, shape, reps):
    n, c = pair(rng, shape, dtype, strided=bool(shape))
    c_out = cp.tile(c, reps)
    check(c_out, np.tile(n, reps))
    if c_out.size:  # always a new array: writes do not reach the input
        c_out[(0,) * c_out.ndim] = 0
        check(c, n)


def test_tile_errors(device):
    with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
        cp.tile(cp.zeros((2, 3)), -1)


@pytest.mark.parametrize("src_dtype", [np.int8, np.int64, np.float32, np.complex128, np.bool_])
@pytest.mark.parametrize("dst_dtype", [np.int16, np.float64, np.complex64])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe"])
def test_copyto(device, rng, src_dtype, dst_dtype, casting):
    src, csrc = pair(rng, (4,), src_dtype, strided=True)
    dst = np.asarray(random_array(rng, (3, 4), dst_dtype))
    cdst = cp.asarray(dst)
    try:
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                np.copyto(dst, src, casting=casting)
    except TypeError:
        with pytest.raises(TypeError, match=r"^Cannot cast array data from dtype\("):
            cp.copyto(cdst, csrc, casting=casting)
        check(cdst, dst)
        return
    cp.copyto(cdst, csrc, casting=casting)
    check(cdst, dst)


def test_copyto_scalars_and_errors(device):
    d = cp.zeros((2, 2), dtype=np.int32)
    cp.copyto(d, 7)
    check(d, np.full((2, 2), 7, np.int32))
    cp.copyto(d[0], [1, 2])
    check(d, np.array([[1, 2], [7, 7]], np.int32))
    with pytest.raises(ValueError, match=r"^could not broadcast input array from shape \(3,\) into shape \(2,2\)$"):
        cp.copyto(d, cp.zeros(3, dtype=np.int32))
    with pytest.raises(TypeError, match="according to the rule 'same_kind'"):
        cp.copyto(d, cp.zeros(2))


def test_roll_axis_must_be_an_integer(device, rng):
    x = random_array(rng, (5, 2), np.int64)
    for xp in (np, cp):
        for axis in ("0", ["0"], (1, "x")):
            with pytest.raises(TypeError, match="object cannot be interpreted as an integer"):
                xp.roll(xp.asarray(x), 2, axis=axis)
