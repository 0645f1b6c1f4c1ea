"""matmul and the @ operator against NumPy: dtypes, 1-d promotion, stacked broadcasting,
empty and k = 0 shapes, strided inputs, out=, and every error."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, assert_matches, random_array, random_pair

SIG = r"\(n\?,k\),\(k,m\?\)->\(n\?,m\?\)"


def check_product(c, n, a, b, k, bound=None):
    """Exact for bool and integers (wrapping arithmetic is exact); for inexact types the
    classic GEMM bound |c - n| <= k * eps * (|a| @ |b|), doubled because both sides round
    (float16 rounds its float32 sum once at the end, so its eps counts once per side)."""
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape and c.dtype == n.dtype, (c.shape, n.shape, c.dtype, n.dtype)
    got = c.get()
    if n.dtype.kind in "biu":
        np.testing.assert_array_equal(got, n)
        return
    eps = float(np.finfo(n.dtype).eps)  # a Python float: 2 * k * eps in float16 overflows
    if bound is None:
        bound = np.abs(np.asarray(a)).astype(np.float64) @ np.abs(np.asarray(b)).astype(np.float64)
    tol = 2 * max(k, 1) * eps * np.broadcast_to(bound, n.shape) + np.finfo(n.dtype).tiny
    err = np.abs(got.astype(np.complex128) - n.astype(np.complex128))
    assert np.all(err <= tol), float(np.max(err - tol))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_matmul_dtypes(device, rng, dtype):
    na, ca = random_pair(rng, (3, 4), dtype)
    nb, cb = random_pair(rng, (4, 5), dtype)
    check_product(cp.matmul(ca, cb), np.matmul(na, nb), na, nb, 4)
    check_product(ca @ cb, na @ nb, na, nb, 4)


@pytest.mark.parametrize("ta,tb", [(np.int8, np.uint8), (np.bool_, np.int32), (np.float16, np.int8),
                                   (np.float32, np.complex64), (np.int64, np.float32), (np.uint64, np.int64),
                                   (np.bool_, np.float16)])
def test_matmul_promotion(device, rng, ta, tb):
    na, ca = random_pair(rng, (2, 3), ta)
    nb, cb = random_pair(rng, (3, 4), tb)
    check_product(ca @ cb, na @ nb, np.abs(na).astype(np.float64), np.abs(nb).astype(np.float64), 3)


SHAPES = [((4,), (4,)), ((4,), (4, 3)), ((2, 4), (4,)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,)),
          ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 4, 5)), ((3, 4), (2, 2, 4, 5)), ((2, 1, 3), (1, 3, 2)),
          ((0, 3), (3, 2)), ((2, 3), (3, 0)), ((0, 2, 3), (3, 4)), ((2, 0), (0, 3)), ((0,), (0,)),
          ((3, 2, 0), (3, 0, 4)), ((1, 1), (1, 1))]


@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64])
def test_matmul_shapes(device, rng, sa, sb, dtype):
    na, ca = random_pair(rng, sa, dtype)
    nb, cb = random_pair(rng, sb, dtype)
    check_product(ca @ cb, na @ nb, na, nb, sa[-1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int16, np.bool_, np.float16])
def test_matmul_strided_inputs(device, rng, dtype):
    # Negative-stride, non-contiguous views (random_pair strided=True), transposes, and
    # a broadcast batch of a transposed stack.
    na, ca = random_pair(rng, (2, 3, 4), dtype, strided=True)
    nb, cb = random_pair(rng, (2, 4, 5), dtype, strided=True)
    check_product(ca @ cb, na @ nb, na, nb, 4)
    check_product(ca @ cb[:, ::-1, :], na @ nb[:, ::-1, :], na, nb[:, ::-1, :], 4)
    nt, ct = random_pair(rng, (5, 4), dtype)
    check_product(ca @ ct.T, na @ nt.T, na, nt.T, 4)
    check_product(ct @ ca.transpose(0, 2, 1), nt @ na.transpose(0, 2, 1), nt, na.transpose(0, 2, 1), 3)
    ns, cs = random_pair(rng, (6, 8), dtype)
    check_product(cs[::2, 1::2] @ cs[1::2, ::2].T, ns[::2, 1::2] @ ns[1::2, ::2].T, ns[::2, 1::2],
                  ns[1::2, ::2].T, 4)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_matmul_large_threaded(device, rng, dtype):
    na, ca = random_pair(rng, (130, 70), dtype)
    nb, cb = random_pair(rng, (70, 90), dtype)
    check_product(ca @ cb, na @ nb, na, nb, 70)
    na, ca = random_pair(rng, (300, 4, 3), dtype)
    nb, cb = random_pair(rng, (3, 2), dtype)
    check_product(ca @ cb, na @ nb, na, nb, 3)


# Around the dot kernel's lane counts (4-16) and its fixed 32768-element chunks (threads
# split a single product longer than 65536).
VECTOR_LENGTHS = [1, 3, 15, 16, 17, 33, 1000, 65537, 200003]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("k", VECTOR_LENGTHS)
def test_vector_products(device, rng, dtype, k):
    # One vector times another (dot, matmul, vecdot), a stack of rows times a vector, and
    # vecdot along a strided axis (multiply and sum, not the dot kernel). float16 draws small
    # values so that long sums stay finite.
    low, high = (-1, 1) if dtype == np.float16 else (-100, 100)
    na, nb = (random_array(rng, (k,), dtype, low, high) for _ in range(2))
    ca, cb = cp.asarray(na), cp.asarray(nb)
    conj_a = np.conj(na) if na.dtype.kind == "c" else na
    check_product(cp.matmul(ca, cb), np.matmul(na, nb), na, nb, k)
    check_product(cp.dot(ca, cb), np.dot(na, nb), na, nb, k)
    check_product(cp.vecdot(ca, cb), np.vecdot(na, nb), conj_a, nb, k)
    rows = 3 if k > 1000 else 7
    nm = random_array(rng, (2, rows, k), dtype, low, high)
    cm = cp.asarray(nm)
    check_product(cm @ cb, nm @ nb, nm, nb, k)
    check_product(cp.vecdot(cm, cb), np.vecdot(nm, nb), np.conj(nm) if nm.dtype.kind == "c" else nm, nb, k)
    if k <= 1000:
        nt = np.asarray(random_array(rng, (k, 5), dtype, low, high))
        ct = cp.asarray(nt)
        check_product(cp.vecdot(ct, ct, axis=0), np.vecdot(nt, nt, axis=0), None, None, k,
                      bound=(np.abs(nt).astype(np.float64) ** 2).sum(axis=0))
        check_product(ca[::-1] @ cb[::-1], na[::-1] @ nb[::-1], na, nb, k)
        # Rows padded (a row stride past k) times a vector of stride 2: the CPU's ?gemv_ path
        # for floats when rows * k >= 4096, the loops otherwise.
        nw = random_array(rng, (7, 2 * k), dtype, low, high)
        nx = random_array(rng, (2 * k,), dtype, low, high)
        cw, cx = cp.asarray(nw), cp.asarray(nx)
        check_product(cw[:, :k] @ cx[::2], nw[:, :k] @ nx[::2], nw[:, :k], nx[::2], k)
        check_product(cw[:1, :k] @ cx[1::2], nw[:1, :k] @ nx[1::2], nw[:1, :k], nx[1::2], k)


def test_bool_vector_products_read_bytes_as_true(device, rng):
    # A bool view of other bytes: every nonzero byte is True, as NumPy reads it.
    raw = rng.integers(0, 4, size=(2, 40), dtype=np.int8)
    raw[:, ::3] = 0
    nv = raw.view(np.bool_)
    cv = cp.asarray(raw).view(cp.bool_)
    for i, j in [(0, 1), (1, 1)]:
        assert bool(cp.matmul(cv[i], cv[j])) == bool(np.matmul(nv[i], nv[j]))
        assert bool(cp.vecdot(cv[i], cv[j])) == bool(np.vecdot(nv[i], nv[j]))
    sparse = np.zeros(40, np.int8)
    sparse[7] = 2
    other = np.zeros(40, np.int8)
    other[7] = 4
    assert bool(cp.asarray(sparse).view(cp.bool_) @ cp.asarray(other).view(cp.bool_))
    assert not bool(cp.asarray(sparse).view(cp.bool_) @ cp.asarray(np.roll(other, 1)).view(cp.bool_))


def test_matmul_out(device, rng):
    na, ca = random_pair(rng, (2, 3, 4), np.float64)
    nb, cb = random_pair(rng, (4, 5), np.float64)
    out = cp.zeros((2, 3, 5))
    r = cp.matmul(ca, cb, out=out)
    assert r is out
    check_product(out, na @ nb, na, nb, 4)
    # Another dtype under same_kind casting, and a non-contiguous out.
    out32 = cp.zeros((2, 3, 5), dtype=np.float32)
    cp.matmul(ca, cb, out=out32)
    np.testing.assert_allclose(out32.get(), (na @ nb).astype(np.float32), rtol=1e-6)
    big = cp.zeros((2, 3, 10))
    cp.matmul(ca, cb, out=big[:, :, ::2])
    check_product(big[:, :, ::2], na @ nb, na, nb, 4)
    np.testing.assert_array_equal(big[:, :, 1::2].get(), 0)
    # out= with extra batch dimensions broadcasts the inputs over them (as NumPy).
    wide = cp.zeros((3, 3, 4))
    nwide = np.zeros((3, 3, 4))
    nsq, csq = random_pair(rng, (4, 4), np.float64)
    np.matmul(na[0], nsq, out=nwide)
    cp.matmul(ca[0], csq, out=wide)
    np.testing.assert_allclose(wide.get(), nwide, rtol=1e-14)


def test_matmul_out_aliases_input(device, rng):
    na, ca = random_pair(rng, (4, 4), np.float64)
    nb, cb = random_pair(rng, (4, 4), np.float64)
    expected = na @ nb
    cp.matmul(ca, cb, out=ca)
    check_product(ca, expected, na, nb, 4)


def test_imatmul_and_rmatmul(device, rng):
    na, ca = random_pair(rng, (3, 4), np.float64)
    nb, cb = random_pair(rng, (4, 4), np.float64)
    keep = ca
    ca @= cb
    assert ca is keep
    check_product(ca, na @ nb, na, nb, 4)
    lst = [[1.0, 2.0, 3.0]]
    check_product(lst @ ca, np.array(lst) @ (na @ nb), np.abs(lst), np.abs(na) @ np.abs(nb), 12)
    ci = cp.asarray(np.arange(6, dtype=np.int64).reshape(2, 3))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' output from dtype\\('float64'\\) to dtype\\('int64'\\)"):
        ci @= cp.ones((3, 3))


def test_matmul_errors(device):
    a, b = cp.ones((2, 3)), cp.ones((4, 2))
    with pytest.raises(ValueError, match=f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                                         f"with gufunc signature {SIG} \\(size 4 is different from 3\\)"):
        a @ b
    with pytest.raises(ValueError, match="size 4 is different from 3"):
        cp.matmul(cp.ones(3), cp.ones(4))
    with pytest.raises(ValueError, match=f"matmul: Input operand 0 does not have enough dimensions \\(has 0, gufunc "
                                         f"core with signature {SIG} requires 1\\)"):
        cp.matmul(cp.ones(()), a)
    with pytest.raises(ValueError, match="Input operand 1 does not have enough dimensions"):
        a @ 3
    msg = (r"operands could not be broadcast together with remapped shapes \[original->remapped\]: "
           r"\(2,4,3\)->\(2,newaxis,newaxis\) \(5,3,3\)->\(5,newaxis,newaxis\)  and requested shape \(4,3\)")
    with pytest.raises(ValueError, match=msg):
        cp.ones((2, 4, 3)) @ cp.ones((5, 3, 3))
    with pytest.raises(ValueError, match=f"matmul: Output operand 0 has a mismatch in its core dimension 1, with "
                                         f"gufunc signature {SIG} \\(size 3 is different from 2\\)"):
        cp.matmul(cp.ones((2, 3)), cp.ones((3, 2)), out=cp.ones((2, 3)))
    with pytest.raises(ValueError, match="could not be broadcast together"):
        cp.matmul(cp.ones((2, 3)), cp.ones((3, 3, 2)), out=cp.ones((2, 2, 2)))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' output from dtype\\('float64'\\) to "
                                        "dtype\\('int64'\\) with casting rule 'same_kind'"):
        cp.matmul(cp.ones((2, 3)), cp.ones((3, 2)), out=cp.ones((2, 2), dtype=np.int64))
    out = cp.zeros((2, 2))
    with pytest.raises(ValueError):
        cp.matmul(cp.ones((2, 3)), cp.ones((4, 2)), out=out)
    np.testing.assert_array_equal(out.get(), 0)  # untouched on error


def test_matmul_precision_setting():
    assert cp.get_matmul_precision() == "highest"
    cp.set_matmul_precision("tf32")
    try:
        assert cp.get_matmul_precision() == "tf32"
    finally:
        cp.set_matmul_precision("highest")
    with pytest.raises(ValueError, match="matmul precision must be 'highest' or 'tf32'"):
        cp.set_matmul_precision("fast")


@pytest.mark.parametrize("out_dtype", [np.bool_, np.int8, np.float32, np.complex128])
def test_matmul_casting_and_dtype(device, rng, out_dtype):
    """casting= governs out= (and dtype='s input casts); dtype= is the loop's type."""
    a, b = random_array(rng, (2, 3, 4), np.float64, -5, 5), random_array(rng, (4, 5), np.float64, -5, 5)
    ca, cb = cp.asarray(a), cp.asarray(b)
    want = np.zeros((2, 3, 5), out_dtype)
    np.matmul(a, b, out=want, casting="unsafe")
    out = cp.zeros((2, 3, 5), out_dtype)
    assert cp.matmul(ca, cb, out=out, casting="unsafe") is out
    check_product(out.astype(want.dtype), want, a, b, 4) if want.dtype.kind in "fc" else \
        np.testing.assert_array_equal(out.get(), want)
    i, j = random_array(rng, (3, 4), np.int16), random_array(rng, (4, 2), np.int16)
    check_product(cp.matmul(cp.asarray(i), cp.asarray(j), dtype=np.float32),
                  np.matmul(i, j, dtype=np.float32), i, j, 4)
    for xp in (np, cp):
        x, y = xp.asarray(a), xp.asarray(b)
        with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' input 0 from dtype\\('float64'\\) to "
                                            "dtype\\('int32'\\) with casting rule 'same_kind'"):
            xp.matmul(x, y, dtype=np.int32)
        with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' output .* with casting rule 'safe'"):
            xp.matmul(x, y, out=xp.zeros((2, 3, 5), np.float32), casting="safe")
        with pytest.raises(TypeError, match="axis can only be used with a single shared core dimension"):
            xp.matmul(x, y, axis=0)


@pytest.mark.parametrize("sa, sb, axes", [
    ((2, 5, 3, 2, 3, 4), (3, 5, 1, 1, 1, 4), [(1, 2), (0, 1), (0, 1)]),
    ((3, 2, 4, 4), (4, 4, 3, 2), [(0, 1), (-1, -2), (-2, -1)]),
    ((4, 3), (2, 4, 5), [(1, 0), (1, 2), (2, 0)]),
    ((3,), (2, 3, 4), [(0,), (1, 2), 1]),
    ((3,), (3,), [0, 0, ()]),
])
def test_matmul_axes(device, rng, sa, sb, axes):
    """axes= says where each operand's core dimensions lie (NumPy's gufunc axes)."""
    a, b = random_array(rng, sa, np.float64), random_array(rng, sb, np.float64)
    want = np.matmul(a, b, axes=axes)
    got = cp.matmul(cp.asarray(a), cp.asarray(b), axes=axes)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-9)
    out = cp.zeros(want.shape)
    assert cp.matmul(cp.asarray(a), cp.asarray(b), axes=axes, out=out) is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-12, atol=1e-9)
    # numpy.matmul on copper arrays dispatches here (NEP 13), axes and all.
    np.testing.assert_allclose(np.matmul(cp.asarray(a), cp.asarray(b), axes=axes).get(), want, rtol=1e-12, atol=1e-9)


def test_matmul_axes_errors(device):
    for xp in (np, cp):
        a, b, v = xp.ones((2, 3)), xp.ones((3, 4)), xp.ones(3)
        with pytest.raises(ValueError, match="axes should be a list with an entry for all 3 inputs and outputs"):
            xp.matmul(v, v, axes=[0, 0])
        with pytest.raises(np.exceptions.AxisError, match="matmul: operand 2 has 2 core dimensions"):
            xp.matmul(a, b, axes=[(0, 1), (0, 1), (0,)])
        with pytest.raises(np.exceptions.AxisError):
            xp.matmul(a, b, axes=[(0, 5), (0, 1), (0, 1)])


def test_numpys_openblas_is_the_fallback_blas():
    # The package points the CPU matmul at the OpenBLAS in NumPy's wheel (an ILP64 build,
    # scipy_?gemm_64_), tried after a system OpenBLAS and before reference BLAS.
    import glob
    import os
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas*.so*")))
    if not found:
        pytest.skip("this NumPy carries no OpenBLAS of its own")
    if os.environ.get("COPPER_BLAS_FALLBACK") != found[0]:
        pytest.skip("COPPER_BLAS_FALLBACK was set by the caller")
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 70, 50))
    b = rng.standard_normal((50, 40)) + 1j * rng.standard_normal((50, 40))
    x = cp.asarray(a, device="cpu")
    y = cp.asarray(b, device="cpu")
    np.testing.assert_allclose((x @ y).get(), a @ b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose((x.transpose(0, 2, 1)[:, ::2] @ x[0, :, ::-1]).get(),
                               a.transpose(0, 2, 1)[:, ::2] @ a[0, :, ::-1], rtol=1e-12, atol=1e-12)
