"""Copies of transposed views (ascontiguousarray(a.T), .copy(), astype, assignment): on the
GPU these take the tiled transpose kernel (cuda_transpose.cpp) when the source is unit-stride
along an axis other than the last, and the elementwise path otherwise (negative strides,
narrow shapes, several batch axes). Every result must equal NumPy's exactly: a copy or a
cast is exact, so no tolerance."""
import numpy as np
import pytest

import copper as cp
from conftest import assert_matches, random_array

COPY_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.float16, np.int32, np.float32, np.int64,
               np.float64, np.complex64, np.complex128]
# (1, 1), (0, 5) and the narrow ones take the elementwise path; the rest the tiled kernel,
# with edge tiles (31, 33, 100, 1001 are not multiples of 32) and exact multiples (32, 64).
SHAPES_2D = [(1, 1), (0, 5), (5, 0), (31, 33), (32, 32), (100, 7), (7, 100), (8, 8), (9, 40), (40, 9),
             (64, 96), (1000, 1001)]
HOW = ["ascontiguousarray", "copy", "astype"]


def copy_by(how, x, xp):
    if how == "ascontiguousarray":
        return xp.ascontiguousarray(x)
    if how == "copy":
        return x.copy()
    return x.astype(x.dtype)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("shape", SHAPES_2D)
@pytest.mark.parametrize("dtype", COPY_DTYPES)
def test_transposed_2d(device, rng, dtype, shape, how):
    n = random_array(rng, shape, dtype)
    got = copy_by(how, cp.asarray(n).T, cp)
    assert_matches(got, copy_by(how, n.T, np))


@pytest.mark.parametrize("dtype", COPY_DTYPES)
def test_batched_swapaxes(device, rng, dtype):
    n = random_array(rng, (3, 40, 50), dtype)
    got = cp.asarray(n).swapaxes(-1, -2).copy()
    assert_matches(got, n.swapaxes(-1, -2).copy())
    assert_matches(cp.ascontiguousarray(cp.swapaxes(cp.asarray(n), 1, 2)), np.ascontiguousarray(n.swapaxes(1, 2)))


@pytest.mark.parametrize("shape", [(1, 33, 31), (2, 1, 65, 33), (5, 32, 64), (2, 3, 40, 50)])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex128])
def test_batched_shapes(device, rng, dtype, shape):
    # (2, 3, 40, 50) has two batch axes: the elementwise path, which must agree.
    n = random_array(rng, shape, dtype)
    assert_matches(cp.ascontiguousarray(cp.asarray(n).swapaxes(-1, -2)), np.ascontiguousarray(n.swapaxes(-1, -2)))


@pytest.mark.parametrize("axes", [(2, 1, 0), (1, 0, 2), (0, 2, 1), (2, 0, 1), (1, 2, 0)])
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64])
def test_3d_permutations(device, rng, dtype, axes):
    # (2, 1, 0): unit stride on the outer axis, the middle one a batch with any stride.
    n = random_array(rng, (34, 20, 45), dtype)
    got = cp.ascontiguousarray(cp.transpose(cp.asarray(n), axes))
    assert_matches(got, np.ascontiguousarray(np.transpose(n, axes)))


@pytest.mark.parametrize("dtype", COPY_DTYPES)
def test_padded_and_offset_slices(device, rng, dtype):
    n = random_array(rng, (60, 70), dtype)
    c = cp.asarray(n)
    for key in [np.s_[:, :50], np.s_[5:, 3:50], np.s_[::2, :], np.s_[1:59, 1:69], np.s_[:, 37:]]:
        assert_matches(cp.ascontiguousarray(c[key].T), np.ascontiguousarray(n[key].T))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex128])
def test_negative_strides_fall_back(device, rng, dtype):
    n = random_array(rng, (60, 70), dtype)
    c = cp.asarray(n)
    for key in [np.s_[::-1, :], np.s_[:, ::-1], np.s_[::-1, ::-2], np.s_[50:10:-1, 3:60]]:
        assert_matches(cp.ascontiguousarray(c[key].T), np.ascontiguousarray(n[key].T))
    b = random_array(rng, (3, 40, 50), dtype)
    assert_matches(cp.asarray(b)[::-1].swapaxes(-1, -2).copy(), b[::-1].swapaxes(-1, -2).copy())


CASTS = [(np.float32, np.float64), (np.float64, np.float32), (np.int8, np.int64), (np.int32, np.float64),
         (np.uint8, np.int16), (np.bool_, np.float32), (np.float16, np.float32), (np.float32, np.float16),
         (np.complex64, np.complex128), (np.float64, np.complex128), (np.int16, np.bool_), (np.float64, np.int32)]


@pytest.mark.parametrize("shape", [(31, 33), (100, 7), (1000, 1001), (3, 40, 50)])
@pytest.mark.parametrize("src_dtype,dst_dtype", CASTS)
def test_casting_copy_of_transposed_view(device, rng, src_dtype, dst_dtype, shape):
    n = random_array(rng, shape, src_dtype)
    c = cp.asarray(n)
    want = np.ascontiguousarray(n.swapaxes(-1, -2)).astype(dst_dtype)
    assert_matches(c.swapaxes(-1, -2).astype(dst_dtype), want)
    assert_matches(cp.ascontiguousarray(c.swapaxes(-1, -2), dtype=dst_dtype), want)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.complex128])
def test_assignment_into_contiguous(device, rng, dtype):
    n = random_array(rng, (70, 45), dtype)
    c = cp.asarray(n)
    dst = cp.zeros((45, 70), dtype=dtype)
    dst[...] = c.T
    assert_matches(dst, n.T.copy())
    out = cp.empty((45, 60), dtype=dtype)
    cp.copyto(out, c[5:65].T)
    assert_matches(out, n[5:65].T.copy())
    # In place from its own transpose: copper must not read what it already wrote.
    sq = random_array(rng, (50, 50), dtype)
    s = cp.asarray(sq)
    s[...] = s.T
    assert_matches(s, sq.T.copy())


def test_transposed_copy_is_contiguous(device, rng):
    n = random_array(rng, (40, 50), np.float64)
    got = cp.ascontiguousarray(cp.asarray(n).T)
    assert got.flags.c_contiguous
    assert got.strides == (40 * 8, 8)
