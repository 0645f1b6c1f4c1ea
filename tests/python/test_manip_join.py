"""Joining and splitting against NumPy: concatenate/stack/hstack/vstack (result dtype
is numpy.result_type of the inputs; dtype=, casting=, out=), split/array_split (views)."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, assert_matches as check, random_pair as pair


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate_same_dtype(device, rng, dtype, axis):
    def shape(i):  # inputs differ in length along the joined axis only
        return {0: (i + 1, 2), 1: (3, 2 + i), -1: (3, 2 + i), None: (i + 1, 3)}[axis]
    parts = [pair(rng, shape(i), dtype, strided=i == 1) for i in range(3)]
    n_out = np.concatenate([p[0] for p in parts], axis=axis)
    c_out = cp.concatenate([p[1] for p in parts], axis=axis)
    check(c_out, n_out)
    assert c_out.base is None


@pytest.mark.parametrize("dtypes", [(np.int8, np.uint8), (np.int32, np.float32), (np.bool_, np.int16),
                                    (np.float16, np.complex64), (np.uint64, np.int64), (np.uint16, np.float16),
                                    (np.bool_, np.float64, np.int8)])
def test_concatenate_promotes(device, rng, dtypes):
    parts = [pair(rng, (2, 3), t) for t in dtypes]
    check(cp.concatenate([p[1] for p in parts], axis=1), np.concatenate([p[0] for p in parts], axis=1))
    check(cp.vstack([p[1] for p in parts]), np.vstack([p[0] for p in parts]))


def test_concatenate_dtype_casting_out(device, rng):
    a, ca = pair(rng, (2, 3), np.float64)
    b, cb = pair(rng, (1, 3), np.int32)
    check(cp.concatenate([ca, cb], dtype=np.float32), np.concatenate([a, b], dtype=np.float32))
    check(cp.concatenate([ca, cb], dtype=np.int16, casting="unsafe"),
          np.concatenate([a, b], dtype=np.int16, casting="unsafe"))
    out_n, out_c = np.zeros((3, 3), np.complex64), cp.zeros((3, 3), dtype=np.complex64)
    r = cp.concatenate([ca, cb], out=out_c)
    np.concatenate([a, b], out=out_n)
    check(out_c, out_n)
    check(r, out_n)
    with pytest.raises(TypeError, match=r"^Cannot cast array data from dtype\('float64'\) to dtype\('int32'\) "
                                        r"according to the rule 'same_kind'$"):
        cp.concatenate([ca, cb], dtype=np.int32)
    with pytest.raises(ValueError, match="^Output array is the wrong shape$"):
        cp.concatenate([ca, cb], out=cp.zeros((3, 2)))
    with pytest.raises(TypeError, match=r"^concatenate\(\) only takes `out` or `dtype` as an argument, but both were "
                                        r"provided\.$"):
        cp.concatenate([ca, cb], out=out_c, dtype=np.float64)
    check(out_c, out_n)  # untouched by the failed calls


@pytest.mark.parametrize("shapes,axis", [([(0, 3), (2, 3)], 0), ([(2, 0), (2, 0)], 1), ([(3,), (0,)], 0),
                                         ([(1, 2, 3), (1, 2, 1)], 2), ([(2, 2)], None), ([(), ()], None)])
def test_concatenate_edge_shapes(device, rng, shapes, axis):
    parts = [pair(rng, s, np.int64) for s in shapes]
    check(cp.concatenate([p[1] for p in parts], axis=axis), np.concatenate([p[0] for p in parts], axis=axis))


def test_concatenate_accepts_array_likes(device, rng):
    a, ca = pair(rng, (2,), np.float32)
    check(cp.concatenate((ca, np.arange(3), [7.5])), np.concatenate((a, np.arange(3), [7.5])))
    check(cp.concatenate(cp.asarray(np.arange(6).reshape(2, 3))), np.concatenate(np.arange(6).reshape(2, 3)))


def test_concatenate_errors(device):
    a = cp.zeros((2, 3))
    with pytest.raises(ValueError, match="^need at least one array to concatenate$"):
        cp.concatenate([])
    with pytest.raises(ValueError, match="^zero-dimensional arrays cannot be concatenated$"):
        cp.concatenate([cp.zeros(()), cp.zeros(())])
    with pytest.raises(ValueError, match=r"^all the input arrays must have same number of dimensions, but the array "
                                         r"at index 0 has 2 dimension\(s\) and the array at index 1 has 1 "
                                         r"dimension\(s\)$"):
        cp.concatenate([a, cp.zeros(3)])
    with pytest.raises(ValueError, match="^all the input array dimensions except for the concatenation axis must "
                                         "match exactly, but along dimension 1, the array at index 0 has size 3 and "
                                         "the array at index 1 has size 2$"):
        cp.concatenate([a, cp.zeros((2, 2))])
    with pytest.raises(ValueError, match="along dimension 0, the array at index 0 has size 2 and the array at index 2 "
                                         "has size 3$"):
        cp.concatenate([a, a, cp.zeros((3, 2))], axis=1)
    with pytest.raises(np.exceptions.AxisError, match="^axis 2 is out of bounds for array of dimension 2$"):
        cp.concatenate([a, a], axis=2)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(device, rng, dtype, axis):
    parts = [pair(rng, (2, 3), dtype, strided=i == 0) for i in range(3)]
    check(cp.stack([p[1] for p in parts], axis=axis), np.stack([p[0] for p in parts], axis=axis))
    out_n, out_c = np.empty(np.stack([p[0] for p in parts], axis).shape, np.complex128), None
    out_c = cp.empty(out_n.shape, dtype=np.complex128)
    np.stack([p[0] for p in parts], axis, out=out_n)
    cp.stack([p[1] for p in parts], axis, out=out_c)
    check(out_c, out_n)


def test_stack_errors(device):
    with pytest.raises(ValueError, match="^need at least one array to stack$"):
        cp.stack([])
    with pytest.raises(ValueError, match="^all input arrays must have the same shape$"):
        cp.stack([cp.zeros((2, 3)), cp.zeros(3)])
    with pytest.raises(np.exceptions.AxisError, match="^axis 3 is out of bounds for array of dimension 3$"):
        cp.stack([cp.zeros((2, 3))], 3)


@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (2,)], [(2, 3), (2, 1)], [(1, 2, 3), (1, 4, 3)]])
def test_hstack(device, rng, shapes):
    parts = [pair(rng, s, np.int32) for s in shapes]
    check(cp.hstack([p[1] for p in parts]), np.hstack([p[0] for p in parts]))


@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (1, 3)], [(1, 2, 3), (4, 2, 3)]])
def test_vstack(device, rng, shapes):
    parts = [pair(rng, s, np.float64) for s in shapes]
    check(cp.vstack([p[1] for p in parts]), np.vstack([p[0] for p in parts]))
    check(cp.vstack([p[1] for p in parts], dtype=np.float32), np.vstack([p[0] for p in parts], dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.uint8, np.float64, np.complex64])
@pytest.mark.parametrize("spec,axis", [(3, 0), (2, 1), (1, -1), ([1, 3], 0), ([-2, 10], 1), ([4, 1], 0), ([], 0),
                                       ([0, 0, 2], 1)])
def test_split_views(device, rng, dtype, spec, axis):
    n, c = pair(rng, (6, 4), dtype, strided=True)
    n_parts, c_parts = np.split(n, spec, axis), cp.split(c, spec, axis)
    assert isinstance(c_parts, list) and len(c_parts) == len(n_parts)
    for cpart, npart in zip(c_parts, n_parts):
        check(cpart, npart)
        assert cpart.base is not None
        assert cpart.strides == npart.strides or npart.size == 0
    # Views: writing a piece reaches the original.
    if c_parts[0].size:
        c_parts[0][...] = 1
        n_parts[0][...] = 1
        check(c, n)


@pytest.mark.parametrize("sections", [1, 3, 4, 5, 7])
def test_array_split(device, rng, sections):
    n, c = pair(rng, (5, 3), np.int64)
    for cpart, npart in zip(cp.array_split(c, sections), np.array_split(n, sections), strict=True):
        check(cpart, npart)
    for cpart, npart in zip(cp.array_split(c, sections, axis=1), np.array_split(n, sections, axis=1), strict=True):
        check(cpart, npart)


def test_split_errors(device):
    c = cp.zeros((2, 3))
    with pytest.raises(ValueError, match="^array split does not result in an equal division$"):
        cp.split(c, 4, 1)
    with pytest.raises(ValueError, match=r"^number sections must be larger than 0\.$"):
        cp.array_split(c, 0, 1)
    with pytest.raises(ValueError, match=r"^number sections must be larger than 0\.$"):
        cp.array_split(c, -1)
    with pytest.raises(ZeroDivisionError):
        cp.split(c, 0)
    with pytest.raises(IndexError):  # NumPy: IndexError; copper's AxisError is one
        cp.split(c, 2, 3)


@pytest.mark.parametrize("name", ["concatenate", "stack", "hstack", "vstack"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_join_complex_warning(device, rng, name, dtype):
    """dtype= with casting='unsafe' from complex: NumPy's ComplexWarning, once per input."""
    import warnings
    z = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    counts = []
    for xp in (np, cp):
        a = xp.asarray(z)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = getattr(xp, name)((a, a, a), dtype=dtype, casting="unsafe")
        assert all(w.category is np.exceptions.ComplexWarning for w in caught)
        counts.append(len(caught))
        assert r.dtype == dtype
    assert counts[0] == counts[1]
