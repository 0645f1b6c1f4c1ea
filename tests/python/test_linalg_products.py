"""dot, vdot, inner, outer, tensordot, einsum, kron, cross, trace, diagonal, diag, tril
and triu against NumPy. Products over integers are exact; float64 products use the
GEMM bound of test_matmul.check_product."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import assert_matches, random_pair
from test_matmul import check_product


def close(c, n, rtol=1e-12):
    """float64/complex128 products of <= 100 terms of size <= 100: relative 1e-12 is
    ~50x the worst rounding of the reordered sums, far below any wrong-index error."""
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape and c.dtype == n.dtype, (c.shape, n.shape, c.dtype, n.dtype)
    np.testing.assert_allclose(c.get(), n, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(n), initial=0))))


DOT_SHAPES = [((), (3,)), ((2, 3), ()), ((4,), (4,)), ((2, 4), (4,)), ((4,), (4, 3)), ((2, 4), (4, 3)),
              ((2, 3, 4), (4, 5)), ((4,), (2, 4, 3)), ((2, 4), (3, 4, 5)), ((2, 3, 4), (2, 4, 5)), ((0, 2), (2, 3))]


@pytest.mark.parametrize("sa,sb", DOT_SHAPES)
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_dot(device, rng, sa, sb, dtype):
    na, ca = random_pair(rng, sa, dtype)
    nb, cb = random_pair(rng, sb, dtype)
    close(cp.dot(ca, cb), np.dot(na, nb))
    close(ca.dot(cb), na.dot(nb))


def test_dot_bool_and_mixed(device, rng):
    na, ca = random_pair(rng, (3, 4), np.bool_)
    nb, cb = random_pair(rng, (4, 2), np.bool_)
    assert_matches(cp.dot(ca, cb), np.dot(na, nb))
    ni, ci = random_pair(rng, (4, 2), np.int8)
    assert_matches(cp.dot(ca, ci), np.dot(na, ni))


def test_dot_out_and_errors(device, rng):
    na, ca = random_pair(rng, (2, 3), np.float64)
    nb, cb = random_pair(rng, (3, 2), np.float64)
    out = cp.zeros((2, 2))
    assert cp.dot(ca, cb, out=out) is out
    close(out, na @ nb)
    with pytest.raises(ValueError, match=r"shapes \(2,3\) and \(4,2\) not aligned: 3 \(dim 1\) != 4 \(dim 0\)"):
        cp.dot(ca, cp.ones((4, 2)))
    with pytest.raises(ValueError, match="output array is not acceptable"):
        cp.dot(ca, cb, out=cp.zeros((2, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="output array is not acceptable"):
        cp.dot(ca, cb, out=cp.zeros((2, 2)).T)
    with pytest.raises(ValueError, match="output array has wrong dimensions"):
        cp.dot(ca, cb, out=cp.zeros((3, 2)))


@pytest.mark.parametrize("dtype", [np.complex128, np.float64, np.int32, np.bool_])
def test_vdot(device, rng, dtype):
    na, ca = random_pair(rng, (2, 3), dtype)
    nb, cb = random_pair(rng, (3, 2), dtype)
    c, n = cp.vdot(ca, cb), np.asarray(np.vdot(na, nb))
    assert c.shape == () and c.dtype == n.dtype
    close(c, n) if dtype in (np.complex128, np.float64) else assert_matches(c, n)
    with pytest.raises(ValueError, match=r"cannot reshape array of size 9 into shape \(6,\)"):
        cp.vdot(ca, cp.ones((3, 3)))


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (4, 3)), ((2, 3, 4), (5, 4)), ((), (2, 2)), ((4,), (2, 3, 4))])
def test_inner(device, rng, sa, sb):
    na, ca = random_pair(rng, sa, np.float64)
    nb, cb = random_pair(rng, sb, np.float64)
    close(cp.inner(ca, cb), np.asarray(np.inner(na, nb)))


def test_inner_error(device):
    with pytest.raises(ValueError, match=r"shapes \(2,3\) and \(4,2,5\) not aligned: 3 \(dim 1\) != 2 \(dim 1\)"):
        cp.inner(cp.ones((2, 3)), cp.ones((4, 5, 2)))


@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
def test_outer(device, rng, dtype):
    na, ca = random_pair(rng, (2, 3), dtype)
    nb, cb = random_pair(rng, (4,), dtype)
    assert_matches(cp.outer(ca, cb), np.outer(na, nb))
    out = cp.zeros((6, 4), dtype=dtype)
    assert cp.outer(ca, cb, out=out) is out
    assert_matches(out, np.outer(na, nb))


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 5), 1), ((2, 3), (4,), 0),
                                         ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((2, 3), (3, 2), ([-1], [0])),
                                         ((3, 4), (3, 4), ([0, 1], [0, 1]))])
def test_tensordot(device, rng, sa, sb, axes):
    na, ca = random_pair(rng, sa, np.int64)
    nb, cb = random_pair(rng, sb, np.int64)
    assert_matches(cp.tensordot(ca, cb, axes=axes), np.tensordot(na, nb, axes=axes))


def test_tensordot_errors(device):
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        cp.tensordot(cp.ones((2, 3)), cp.ones((3, 2)), axes=([0], [0]))
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        cp.tensordot(cp.ones((2, 3)), cp.ones((3, 2)), axes=([0, 1], [0]))


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii", [(4, 4)]), ("ii->i", [(4, 4)]),
    ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->j", [(3, 4)]), ("i,i", [(5,), (5,)]), ("i,j->ij", [(3,), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("ij...->...", [(2, 3, 4)]),
    ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]), ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]), ("iij->j", [(3, 3, 4)]),
    ("i,i,i->", [(4,), (4,), (4,)]), ("ij,ij->ij", [(3, 4), (3, 4)]), ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ij,j->i", [(3, 4), (1,)]), ("Ab,bC->AC", [(2, 3), (3, 2)]), ("...,...", [(3,), (2, 3)])]


@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES)
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_einsum(device, rng, subscripts, shapes, dtype):
    pairs = [random_pair(rng, s, dtype) for s in shapes]
    n = np.asarray(np.einsum(subscripts, *[p[0] for p in pairs]))
    c = cp.einsum(subscripts, *[p[1] for p in pairs], optimize=True)
    close(c, n) if dtype == np.float64 else assert_matches(c, n)


def test_einsum_strided_and_mixed(device, rng):
    na, ca = random_pair(rng, (3, 4), np.float32, strided=True)
    nb, cb = random_pair(rng, (4, 2), np.int16)
    c, n = cp.einsum("ij,jk->ki", ca, cb), np.einsum("ij,jk->ki", na, nb)
    assert c.dtype == n.dtype
    np.testing.assert_allclose(c.get(), n, rtol=1e-5)


def test_einsum_errors(device):
    with pytest.raises(ValueError, match="more operands provided to einstein sum function than specified"):
        cp.einsum("ij", cp.ones((2, 3)), cp.ones((3, 2)))
    with pytest.raises(ValueError, match="fewer operands provided to einstein sum function"):
        cp.einsum("ij,jk", cp.ones((2, 3)))
    with pytest.raises(ValueError, match="included output subscript 'z' which never appeared in an input"):
        cp.einsum("ij,jk->iz", cp.ones((2, 3)), cp.ones((3, 2)))
    with pytest.raises(ValueError, match=r"dimensions in operand 0 for collapsing index 'i' don't match \(2 != 3\)"):
        cp.einsum("ii", cp.ones((2, 3)))
    with pytest.raises(ValueError, match="contains too many subscripts for operand 0"):
        cp.einsum("ijk", cp.ones((2, 3)))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        cp.einsum("ij,jk->ik", cp.ones((2, 3)), cp.ones((4, 2)))


@pytest.mark.parametrize("subscripts,shape", [("ji", (2, 3)), ("ii->i", (3, 3)), ("...", (2, 3)), ("ijk->kij", (2, 3, 4)),
                                              ("jii->ij", (3, 3, 3)), ("j...i->i...j", (2, 3, 4)), ("ij->ij...", (2, 3))])
@pytest.mark.parametrize("dtype", [np.int8, np.float32])
def test_einsum_lone_operand_view(device, rng, subscripts, shape, dtype):
    """NumPy returns a view of a lone operand when nothing is summed, ignoring dtype=."""
    na, ca = random_pair(rng, shape, dtype, strided=True)
    na, ca = na.copy(), ca.copy()
    n, c = np.einsum(subscripts, na, dtype=np.float64), cp.einsum(subscripts, ca, dtype=np.float64)
    assert_matches(c, n)
    assert c.base is ca and n.base is na
    c[...] = 7  # writes through to the operand, as NumPy's view does
    n[...] = 7
    assert_matches(ca, na)


@pytest.mark.parametrize("subscripts,shape", [("i->", (3,)), ("ii", (3, 3)), ("ij->j", (2, 3))])
def test_einsum_lone_operand_sum_uses_dtype(device, rng, subscripts, shape):
    na, ca = random_pair(rng, shape, np.int8)
    n, c = np.asarray(np.einsum(subscripts, na, dtype=np.float64)), cp.einsum(subscripts, ca, dtype=np.float64)
    close(c, n)


@pytest.mark.parametrize("args", [([0, 1], [1, 2], [0, 2]), ([0, 1], [1, 2], None), ([Ellipsis, 1], [1, 2], [Ellipsis, 2]),
                                  ([27, 0], [0, 51], None), (np.array([3, 4]), (4, 5), [5, 3])])
def test_einsum_sublist_form(device, rng, args):
    sa, sb, so = args
    na, ca = random_pair(rng, (3, 4), np.float64)
    nb, cb = random_pair(rng, (4, 5), np.float64)
    tail = [] if so is None else [so]
    close(cp.einsum(ca, sa, cb, sb, *tail), np.asarray(np.einsum(na, sa, nb, sb, *tail)))


def test_einsum_sublist_diagonal_and_errors(device, rng):
    na, ca = random_pair(rng, (3, 3), np.float64)
    close(cp.einsum(ca, [0, 0]), np.asarray(np.einsum(na, [0, 0])))
    for xp in (np, cp):
        with pytest.raises(ValueError, match="must specify the einstein sum subscripts string"):
            xp.einsum()
        with pytest.raises(TypeError, match="must be a list or a tuple"):
            xp.einsum(0, 0)
        with pytest.raises(TypeError):
            xp.einsum(xp.arange(2), [None])
        with pytest.raises(ValueError, match=r"not within the valid range \[0, 52\)"):
            xp.einsum(xp.arange(2), [52])
        with pytest.raises(ValueError):
            xp.einsum(xp.arange(2), [Ellipsis, 0, Ellipsis])
        with pytest.raises(ValueError, match="no '...' ellipsis provided to broadcast the extra dimensions"):
            xp.einsum("...->", xp.zeros((2, 2, 2)))


@pytest.mark.parametrize("sa,sb", [((2, 2), (3, 3)), ((2, 3), (3,)), ((2,), (3, 2)), ((2, 1, 3), (2, 2)), ((), (2,))])
@pytest.mark.parametrize("dtype", [np.int32, np.complex128])
def test_kron(device, rng, sa, sb, dtype):
    na, ca = random_pair(rng, sa, dtype)
    nb, cb = random_pair(rng, sb, dtype)
    assert_matches(cp.kron(ca, cb), np.kron(na, nb))


@pytest.mark.parametrize("sa,sb,kw", [((3,), (3,), {}), ((4, 3), (4, 3), {}), ((4, 3), (3,), {}),
                                      ((2, 4), (3, 4), {"axisa": 0, "axisb": 0}), ((3, 5), (5, 3), {"axisa": 0, "axisc": 0}),
                                      ((3, 4), (3, 4), {"axis": 0}), ((4, 2), (4, 3), {}), ((4, 3), (4, 2), {}),
                                      ((5, 2), (5, 2), {})])
def test_cross(device, rng, sa, sb, kw):
    na, ca = random_pair(rng, sa, np.int64)
    nb, cb = random_pair(rng, sb, np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2 deprecates 2-vectors; copper keeps them
        try:
            n = np.cross(na, nb, **kw)
        except ValueError:
            if 2 in (sa[kw.get("axisa", kw.get("axis", -1))], sb[kw.get("axisb", kw.get("axis", -1))]):
                pytest.skip("this NumPy (2.5+) no longer has 2-vector cross products to compare with")
            raise
    assert_matches(cp.cross(ca, cb, **kw), n)


def test_cross_errors(device):
    with pytest.raises(ValueError, match=r"incompatible dimensions for cross product\n\(dimension must be 2 or 3\)"):
        cp.cross(cp.ones((2, 4)), cp.ones((2, 3)))
    with pytest.raises(np.exceptions.AxisError, match="axisa: axis 2 is out of bounds for array of dimension 2"):
        cp.cross(cp.ones((2, 3)), cp.ones((2, 3)), axisa=2)


@pytest.mark.parametrize("shape,kw", [((4, 4), {}), ((3, 5), {"offset": 1}), ((3, 5), {"offset": -2}),
                                      ((3, 5), {"offset": 7}), ((2, 3, 4), {"axis1": 1, "axis2": 2}),
                                      ((2, 3, 4), {"axis1": 2, "axis2": 0, "offset": 1}), ((4, 3), {"axis1": -1, "axis2": 0})])
def test_diagonal_and_trace(device, rng, shape, kw):
    na, ca = random_pair(rng, shape, np.int32, strided=True)
    assert_matches(cp.diagonal(ca, **kw), np.diagonal(na, **kw))
    assert_matches(ca.diagonal(**kw), na.diagonal(**kw))
    assert_matches(cp.trace(ca, **kw), np.asarray(np.trace(na, **kw)))
    assert_matches(ca.trace(dtype=np.int16, **kw), np.asarray(na.trace(dtype=np.int16, **kw)))


def test_diagonal_is_a_view(device):
    a = cp.zeros((3, 3))
    d = cp.diagonal(a)
    d[...] = 7
    np.testing.assert_array_equal(a.get(), np.eye(3) * 7)


def test_trace_out(device, rng):
    na, ca = random_pair(rng, (2, 3, 3), np.float64)
    out = cp.zeros(2)
    assert cp.trace(ca, axis1=1, axis2=2, out=out) is out
    close(out, np.trace(na, axis1=1, axis2=2))


def test_diagonal_errors(device):
    with pytest.raises(ValueError, match="diag requires an array of at least two dimensions"):
        cp.diagonal(cp.ones(3))
    with pytest.raises(ValueError, match="axis1 and axis2 cannot be the same"):
        cp.diagonal(cp.ones((2, 3)), axis1=0, axis2=0)
    with pytest.raises(np.exceptions.AxisError, match="axis2: axis 2 is out of bounds for array of dimension 2"):
        cp.diagonal(cp.ones((2, 3)), axis1=0, axis2=2)
    with pytest.raises(ValueError, match="diag requires an array of at least two dimensions"):
        cp.trace(cp.ones(3))


@pytest.mark.parametrize("shape,k", [((4,), 0), ((3,), 2), ((3,), -1), ((3, 4), 0), ((3, 4), 1), ((4, 3), -2), ((0,), 0)])
def test_diag(device, rng, shape, k):
    na, ca = random_pair(rng, shape, np.float32)
    assert_matches(cp.diag(ca, k), np.diag(na, k))
    with pytest.raises(ValueError, match=r"Input must be 1- or 2-d\."):
        cp.diag(cp.ones((2, 2, 2)))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (2, 3, 4), (4,), (0, 3)])
@pytest.mark.parametrize("k", [0, 1, -1, 5, -5])
@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.bool_, np.complex64])
def test_tril_triu(device, rng, shape, k, dtype):
    na, ca = random_pair(rng, shape, dtype, strided=True)
    assert_matches(cp.tril(ca, k), np.tril(na, k))
    assert_matches(cp.triu(ca, k=k), np.triu(na, k=k))
