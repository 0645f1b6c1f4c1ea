"""copper.linalg against numpy.linalg: norms, determinants, inverses, solvers and
factorizations. Where factors are not unique (QR, SVD, eigh) the test checks the
invariants: the factors rebuild the input, Q/U/V are unitary, R is triangular, and the
singular values / eigenvalues equal NumPy's.

Tolerances: inputs are well conditioned (random matrices plus n*I, or random
factors), so results agree with NumPy's to a few hundred ulps of the precision the
factorization runs in. float64/complex128: rtol 1e-10. float32/complex64 run in double
precision on the CPU (as NumPy) but in single precision on a GPU (as CuPy), so their
tolerance is that of single precision: n * cond * eps32 ~ 6 * 10 * 1.2e-7 < 1e-5, and
rtol 1e-4 leaves room for the random (not shifted) matrices of the det tests."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
DOUBLE_AND_COMPLEX = [np.float64, np.complex128]


def tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def close(c, n, dtype=np.float64, scale=None):
    assert isinstance(c, cp.ndarray), type(c)
    n = np.asarray(n)
    assert c.shape == n.shape, (c.shape, n.shape)
    assert c.dtype == n.dtype, (c.dtype, n.dtype)
    t = tol(dtype)
    s = scale if scale is not None else max(1.0, float(np.max(np.abs(n), initial=0)))
    np.testing.assert_allclose(c.get(), n, rtol=t, atol=t * s)


def well_conditioned(rng, shape, dtype):
    """Random entries in [-1, 1] plus n on the diagonal: condition number below ~3."""
    a = random_array(rng, shape, dtype, -1, 1)
    n = shape[-1]
    return (a + n * np.eye(n)).astype(dtype)


def spd(rng, shape, dtype):
    """Hermitian positive definite: a a^H + n I."""
    a = random_array(rng, shape, dtype, -1, 1)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def mT(x):
    return np.conj(np.swapaxes(x, -1, -2))


# --- norm ---------------------------------------------------------------------------

VECTOR_ORDS = [None, 2, 1, 0, np.inf, -np.inf, 3, 0.5, -1, -2]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_norm_vector(device, rng, dtype, ord):
    a = random_array(rng, (3, 7), dtype, -5, 5)
    ca = cp.asarray(a)
    for axis in (0, 1, -1):
        for keepdims in (False, True):
            close(cp.linalg.norm(ca, ord, axis, keepdims), np.linalg.norm(a, ord, axis, keepdims), dtype)
    close(cp.linalg.norm(ca[1], ord), np.linalg.norm(a[1], ord), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32])
@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_norm_matrix(device, rng, dtype, ord):
    a = random_array(rng, (2, 4, 3), dtype, -5, 5)
    ca = cp.asarray(a)
    for axis in ((1, 2), (2, 1), (0, 2), (-1, 0)):
        for keepdims in (False, True):
            close(cp.linalg.norm(ca, ord, axis, keepdims), np.linalg.norm(a, ord, axis, keepdims), dtype)
    close(cp.linalg.norm(ca[0], ord), np.linalg.norm(a[0], ord), dtype)


def test_norm_defaults(device, rng):
    a = random_array(rng, (2, 3, 4), np.float64)
    ca = cp.asarray(a)
    close(cp.linalg.norm(ca), np.linalg.norm(a))
    close(cp.linalg.norm(ca, keepdims=True), np.linalg.norm(a, keepdims=True))
    close(cp.linalg.norm(cp.asarray(a[:, ::-2, 1])), np.linalg.norm(a[:, ::-2, 1]))  # a strided view
    close(cp.linalg.norm(cp.asarray(np.float64(3.0))), np.linalg.norm(np.float64(3.0)))
    close(cp.linalg.norm(cp.zeros(0)), np.linalg.norm(np.zeros(0)))


def test_norm_errors(device):
    v, m, t = cp.ones(3), cp.ones((3, 3)), cp.ones((2, 2, 2))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        cp.linalg.norm(v, "fro")
    with pytest.raises(ValueError, match="Invalid norm order 'nuc' for vectors"):
        cp.linalg.norm(v, "nuc")
    with pytest.raises(ValueError, match="Invalid norm order for matrices."):
        cp.linalg.norm(m, 3)
    with pytest.raises(ValueError, match="Invalid norm order for matrices."):
        cp.linalg.norm(m, "x")
    with pytest.raises(ValueError, match="Improper number of dimensions to norm."):
        cp.linalg.norm(t, 2)
    with pytest.raises(ValueError, match="Duplicate axes given."):
        cp.linalg.norm(m, axis=(0, 0))
    with pytest.raises(np.exceptions.AxisError, match="axis 5 is out of bounds for array of dimension 2"):
        cp.linalg.norm(m, axis=5)


# --- det, slogdet, inv, solve -------------------------------------------------------

def check_det_slogdet(ca, a, dtype):
    """det and slogdet of copper's `ca` against NumPy's of the same matrices `a`."""
    close(cp.linalg.det(ca), np.linalg.det(a), dtype)
    sign, logdet = cp.linalg.slogdet(ca)
    nsign, nlog = np.linalg.slogdet(a)
    close(sign, nsign, dtype)
    close(logdet, nlog, dtype, scale=10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 3, 5, 5)])
def test_det_slogdet_inv(device, rng, dtype, shape):
    a = random_array(rng, shape, dtype, -2, 2)
    ca = cp.asarray(a)
    check_det_slogdet(ca, a, dtype)
    w = well_conditioned(rng, shape, dtype)
    close(cp.linalg.inv(cp.asarray(w)), np.linalg.inv(w), dtype)


def test_det_integer_and_singular(device, rng):
    a = random_array(rng, (3, 3), np.int64, -9, 9)
    close(cp.linalg.det(cp.asarray(a)), np.linalg.det(a))
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert cp.linalg.det(cp.asarray(s)).get() == 0.0
    sign, logdet = cp.linalg.slogdet(cp.asarray(s))
    assert sign.get() == 0.0 and logdet.get() == -np.inf
    assert cp.linalg.det(cp.zeros((2, 0, 0))).get().tolist() == [1.0, 1.0]
    assert cp.linalg.inv(cp.zeros((0, 0))).shape == (0, 0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_solve(device, rng, dtype):
    a = well_conditioned(rng, (2, 4, 4), dtype)
    ca = cp.asarray(a)
    b = random_array(rng, (4,), dtype, -1, 1)
    close(cp.linalg.solve(ca, cp.asarray(b)), np.linalg.solve(a, b), dtype)
    b2 = random_array(rng, (3, 1, 4, 2), dtype, -1, 1)  # batch dims broadcast against a's
    close(cp.linalg.solve(ca, cp.asarray(b2)), np.linalg.solve(a, b2), dtype)
    close(cp.linalg.solve(ca[0], cp.asarray(b2[0, 0])), np.linalg.solve(a[0], b2[0, 0]), dtype)


def test_solve_large_stack_and_singular_member(device, rng):
    # More matrices than the GPU's info mailbox first holds (4096): it grows, and a small
    # stack read afterwards still sees its own values.
    a = well_conditioned(rng, (5000, 2, 2), np.float64)
    b = random_array(rng, (5000, 2, 1), np.float64, -1, 1)
    close(cp.linalg.solve(cp.asarray(a), cp.asarray(b)), np.linalg.solve(a, b), np.float64)
    a[4321] = [[1.0, 2.0], [2.0, 4.0]]
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.solve(cp.asarray(a), cp.asarray(b))
    close(cp.linalg.solve(cp.asarray(a[:3]), cp.asarray(b[:3])), np.linalg.solve(a[:3], b[:3]), np.float64)


def test_solve_mixed_types(device, rng):
    a = random_array(rng, (3, 3), np.int64, -9, 9) + 30 * np.eye(3, dtype=np.int64)
    b = random_array(rng, (3,), np.float32, -1, 1)
    close(cp.linalg.solve(cp.asarray(a), cp.asarray(b)), np.linalg.solve(a, b))


def test_singular_and_shape_errors(device):
    singular = cp.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.inv(singular)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.solve(singular, cp.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        cp.linalg.inv(cp.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        cp.linalg.det(cp.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given. Array must be at least two-dimensional"):
        cp.linalg.inv(cp.ones(3))
    with pytest.raises(ValueError, match=r"solve1: Input operand 1 has a mismatch in its core dimension 0"):
        cp.linalg.solve(cp.eye(2), cp.ones(3))
    with pytest.raises(ValueError, match=r"solve: Input operand 1 has a mismatch in its core dimension 0"):
        cp.linalg.solve(cp.eye(2), cp.ones((3, 1)))
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        cp.linalg.inv(cp.eye(2, dtype=cp.float16))


# --- cholesky, eigh -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_cholesky(device, rng, dtype):
    a = spd(rng, (3, 4, 4), dtype)
    ca = cp.asarray(a)
    close(cp.linalg.cholesky(ca), np.linalg.cholesky(a), dtype)
    close(cp.linalg.cholesky(ca, upper=True), np.linalg.cholesky(a, upper=True), dtype)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        cp.linalg.cholesky(cp.asarray(-np.eye(3, dtype=dtype)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(device, rng, dtype, uplo):
    a = random_array(rng, (2, 5, 5), dtype, -1, 1)  # not Hermitian: only the uplo triangle counts
    ca = cp.asarray(a)
    w, v = cp.linalg.eigh(ca, UPLO=uplo)
    nw = np.linalg.eigvalsh(a, UPLO=uplo)
    close(w, nw, dtype)
    close(cp.linalg.eigvalsh(ca, UPLO=uplo), nw, dtype)
    h = np.tril(a) if uplo == "L" else np.triu(a)
    h = h + mT(h) - np.real(h[..., np.arange(5), np.arange(5)])[..., None] * np.eye(5)  # the Hermitian matrix used
    vn, wn = v.get(), w.get()
    assert v.dtype == np.dtype(dtype)
    np.testing.assert_allclose(h @ vn, vn * wn[..., None, :], atol=20 * tol(dtype))
    np.testing.assert_allclose(mT(vn) @ vn, np.broadcast_to(np.eye(5), (2, 5, 5)), atol=20 * tol(dtype))


def test_eigh_empty(device):
    w, v = cp.linalg.eigh(cp.zeros((0, 0)))
    assert w.shape == (0,) and v.shape == (0, 0)


# --- svd, qr ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (2, 3, 6)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(device, rng, dtype, shape, full):
    a = random_array(rng, shape, dtype, -1, 1)
    u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    close(s, ns, dtype)
    assert u.shape == nu.shape and vh.shape == nvh.shape and u.dtype == nu.dtype
    k = ns.shape[-1]
    un, vhn = u.get(), vh.get()
    np.testing.assert_allclose((un[..., :k] * s.get()[..., None, :]) @ vhn[..., :k, :], a, atol=20 * tol(dtype))
    np.testing.assert_allclose(mT(un) @ un, np.broadcast_to(np.eye(un.shape[-1]), mT(un).shape[:-1] + (un.shape[-1],)),
                               atol=20 * tol(dtype))
    close(cp.linalg.svd(cp.asarray(a), compute_uv=False), ns, dtype)


def test_svd_empty(device):
    u, s, vh = cp.linalg.svd(cp.zeros((0, 3)))
    assert u.shape == (0, 0) and s.shape == (0,)
    np.testing.assert_array_equal(vh.get(), np.eye(3))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(device, rng, dtype, shape, mode):
    a = random_array(rng, shape, dtype, -1, 1)
    q, r = cp.linalg.qr(cp.asarray(a), mode=mode)
    nq, nr = np.linalg.qr(a, mode=mode)
    assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == nq.dtype and r.dtype == nr.dtype
    qn, rn = q.get(), r.get()
    np.testing.assert_allclose(qn @ rn, a, atol=20 * tol(dtype))
    np.testing.assert_array_equal(np.tril(rn, -1), 0)
    np.testing.assert_allclose(mT(qn) @ qn, np.broadcast_to(np.eye(qn.shape[-1]), mT(qn).shape[:-1] + (qn.shape[-1],)),
                               atol=20 * tol(dtype))
    # R is unique up to the signs (phases) of its rows
    np.testing.assert_allclose(np.abs(rn), np.abs(nr), atol=20 * tol(dtype))
    close(cp.abs(cp.linalg.qr(cp.asarray(a), mode="r")), np.abs(np.linalg.qr(a, mode="r")), dtype)


def test_qr_edge_cases(device):
    q, r = cp.linalg.qr(cp.zeros((3, 0)), mode="complete")
    np.testing.assert_array_equal(q.get(), np.eye(3))
    assert r.shape == (3, 0)
    h, tau = cp.linalg.qr(cp.asarray(np.arange(6.0).reshape(2, 3)), mode="raw")
    nh, ntau = np.linalg.qr(np.arange(6.0).reshape(2, 3), mode="raw")
    assert h.shape == nh.shape and tau.shape == ntau.shape
    with pytest.raises(ValueError, match="Unrecognized mode 'x'"):
        cp.linalg.qr(cp.ones((2, 2)), mode="x")


# --- lstsq, pinv, matrix_rank, matrix_power, cond -----------------------------------

@pytest.mark.parametrize("dtype", DOUBLE_AND_COMPLEX + [np.float32])
@pytest.mark.parametrize("shape,bshape", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 5), (3, 2)), ((4, 4), (4,))])
def test_lstsq(device, rng, dtype, shape, bshape):
    a = random_array(rng, shape, dtype, -1, 1)
    b = random_array(rng, bshape, dtype, -1, 1)
    x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    nx, nres, nrank, ns = np.linalg.lstsq(a, b)
    close(x, nx, dtype, scale=10)
    close(res, nres, dtype)
    assert rank == nrank and type(rank) is type(nrank)  # numpy.int32, as NumPy
    close(s, ns, dtype)


def test_lstsq_rank_deficient_and_errors(device):
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 2.0])
    x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    nx, nres, nrank, _ = np.linalg.lstsq(a, b)
    close(x, nx)
    assert rank == nrank == 1 and res.shape == nres.shape == (0,)
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        cp.linalg.lstsq(cp.ones((3, 3)), cp.ones(2))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 4, 4)])
def test_pinv(device, rng, dtype, shape):
    a = random_array(rng, shape, dtype, -1, 1)
    close(cp.linalg.pinv(cp.asarray(a)), np.linalg.pinv(a), dtype, scale=10)
    assert cp.linalg.pinv(cp.zeros((0, 3))).shape == (3, 0)


def test_pinv_rank_deficient(device):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    close(cp.linalg.pinv(cp.asarray(a)), np.linalg.pinv(a))
    close(cp.linalg.pinv(cp.asarray(a), rtol=None), np.linalg.pinv(a, rtol=None))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("hermitian", [False, True])
def test_pinv_one_cutoff_per_matrix(device, rng, dtype, hermitian):
    a = random_array(rng, (2, 3, 4, 4), dtype, -1, 1)
    if hermitian:
        a = a + np.conj(np.swapaxes(a, -1, -2))
    rtol = rng.uniform(0, 0.6, (3,))  # broadcast against the stack's (2, 3)
    for kw in ({"rtol": rtol}, {"rcond": rtol}):
        want = np.linalg.pinv(a, hermitian=hermitian, **kw)
        for arg in (kw, {k: cp.asarray(v) for k, v in kw.items()}):
            got = cp.linalg.pinv(cp.asarray(a), hermitian=hermitian, **arg)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-4 if dtype == np.float32 else 1e-10)
    assert cp.linalg.pinv(cp.zeros((3, 0, 2)), rtol=np.ones(3)).shape == (3, 2, 0)


def test_matrix_rank(device, rng):
    a = random_array(rng, (3, 5, 4), np.float64, -1, 1)
    a[1, :, 3] = a[1, :, 0] + a[1, :, 1]  # rank 3
    a[2] = 0
    ca = cp.asarray(a)
    np.testing.assert_array_equal(cp.linalg.matrix_rank(ca).get(), np.linalg.matrix_rank(a))
    np.testing.assert_array_equal(cp.linalg.matrix_rank(ca, tol=0.5).get(), np.linalg.matrix_rank(a, tol=0.5))
    np.testing.assert_array_equal(cp.linalg.matrix_rank(ca, rtol=0.3).get(), np.linalg.matrix_rank(a, rtol=0.3))
    assert int(cp.linalg.matrix_rank(cp.ones(3)).get()) == 1
    assert int(cp.linalg.matrix_rank(cp.zeros(3)).get()) == 0
    with pytest.raises(ValueError, match="can't be both set"):
        cp.linalg.matrix_rank(ca, tol=1, rtol=1)
    # Array tolerances: one per matrix of the stack (NumPy broadcasts them), empty stacks.
    for kw in (dict(tol=np.array([0.01, 0.5, 2.0])), dict(rtol=np.array([0.9, 0.1, 0.5])),
               dict(rtol=cp.asarray(np.array([0.9, 0.1, 0.5])))):
        want = np.linalg.matrix_rank(a, **{k: (v.get() if isinstance(v, cp.ndarray) else v) for k, v in kw.items()})
        np.testing.assert_array_equal(cp.linalg.matrix_rank(ca, **kw).get(), want)
    e = np.zeros((0, 1, 1), np.float32)
    got = cp.linalg.matrix_rank(cp.asarray(e), rtol=cp.zeros(0, dtype=np.float32))
    assert got.shape == (0,) and got.dtype == np.linalg.matrix_rank(e, rtol=np.zeros(0, np.float32)).dtype


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, -1, -3])
def test_matrix_power(device, rng, n):
    a = well_conditioned(rng, (2, 3, 3), np.float64) / 3
    close(cp.linalg.matrix_power(cp.asarray(a), n), np.linalg.matrix_power(a, n))
    i = random_array(rng, (3, 3), np.int64, -3, 3)
    if n >= 0:
        r = cp.linalg.matrix_power(cp.asarray(i), n)
        assert r.dtype == np.int64
        np.testing.assert_array_equal(r.get(), np.linalg.matrix_power(i, n))


def test_matrix_power_errors(device):
    with pytest.raises(TypeError, match="exponent must be an integer"):
        cp.linalg.matrix_power(cp.eye(2), 1.5)
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        cp.linalg.matrix_power(cp.ones((2, 3)), 2)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.matrix_power(cp.zeros((2, 2)), -1)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
def test_cond(device, rng, p, dtype):
    a = random_array(rng, (2, 4, 4), dtype, -1, 1)
    close(cp.linalg.cond(cp.asarray(a), p), np.linalg.cond(a, p), dtype, scale=1)


def test_cond_singular(device):
    s = np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]])
    for p in (None, 1, "fro"):
        np.testing.assert_array_equal(np.isinf(cp.linalg.cond(cp.asarray(s), p).get()), np.isinf(np.linalg.cond(s, p)))


def test_missing_lapack_names_the_variable():
    import os
    import subprocess
    import sys
    env = {**os.environ, "COPPER_LAPACK_PATH": "none", "COPPER_DEVICE": "cpu"}  # LAPACK serves CPU arrays
    code = ("import copper as cp\n"
            "try:\n    cp.linalg.inv(cp.eye(2))\nexcept RuntimeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout
    assert "COPPER_LAPACK_PATH" in out
    # norms that need no factorization still work without LAPACK
    code = "import copper as cp\nprint(float(cp.linalg.norm(cp.ones(4)).get()))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout
    assert out.strip() == "2.0"


def test_missing_cusolver_raises_runtime_error(device):
    if device == "cpu":
        pytest.skip("cuSOLVER serves GPU arrays only")
    import os
    import subprocess
    import sys
    code = ("import copper as cp\n"
            f"a = cp.eye(2, device='{device}')\n"
            "try:\n    cp.linalg.inv(a)\nexcept RuntimeError as e:\n    print(e)\n"
            "print(float(cp.linalg.norm(a).get()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "COPPER_CUSOLVER_PATH": "none"}).stdout
    assert "COPPER_CUSOLVER_PATH" in out
    assert out.strip().endswith("1.4142135623730951")


def test_array_api_names(device, rng):
    a = random_array(rng, (2, 3, 4), np.float64)
    ca = cp.asarray(a)
    for ord in ("fro", "nuc", 1, np.inf):
        close(cp.linalg.matrix_norm(ca, ord=ord), np.linalg.matrix_norm(a, ord=ord))
    close(cp.linalg.matrix_norm(ca, keepdims=True), np.linalg.matrix_norm(a, keepdims=True))
    close(cp.linalg.svdvals(ca), np.linalg.svdvals(a))
    close(cp.linalg.matmul(ca, cp.asarray(a[0].T)), np.linalg.matmul(a, a[0].T))


# --- stacks, empty and non-contiguous input, single precision, errors in stacks ------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", [(0,), (3, 0), (2, 3)])
@pytest.mark.parametrize("n", [0, 1, 3])
def test_stacks_and_empty(device, rng, dtype, batch, n):
    a = well_conditioned(rng, batch + (n, n), dtype) if n else np.zeros(batch + (0, 0), dtype)
    ca = cp.asarray(a)
    check_det_slogdet(ca, a, dtype)
    close(cp.linalg.inv(ca), np.linalg.inv(a), dtype)
    b = random_array(rng, batch + (n, 2), dtype, -1, 1)
    close(cp.linalg.solve(ca, cp.asarray(b)), np.linalg.solve(a, b), dtype)
    h = spd(rng, batch + (n, n), dtype) if n else a
    close(cp.linalg.cholesky(cp.asarray(h)), np.linalg.cholesky(h), dtype)
    close(cp.linalg.eigvalsh(cp.asarray(h)), np.linalg.eigvalsh(h), dtype)
    w, v = cp.linalg.eigh(cp.asarray(h))
    assert w.shape == batch + (n,) and v.shape == h.shape and v.dtype == np.dtype(dtype)
    close(cp.linalg.svd(ca, compute_uv=False), np.linalg.svd(a, compute_uv=False), dtype)
    u, s, vh = cp.linalg.svd(ca)
    nu, ns, nvh = np.linalg.svd(a)
    assert u.shape == nu.shape and s.shape == ns.shape and vh.shape == nvh.shape
    q, r = cp.linalg.qr(ca)
    nq, nr = np.linalg.qr(a)
    assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == nq.dtype


@pytest.mark.parametrize("dtype", FLOATS)
def test_non_contiguous_input(device, rng, dtype):
    base = well_conditioned(rng, (3, 8, 8), dtype)
    a = base[::2, ::2, ::2].swapaxes(-1, -2)  # strided, transposed view of (2, 4, 4)
    ca = cp.asarray(base)[::2, ::2, ::2].swapaxes(-1, -2)
    close(cp.linalg.det(ca), np.linalg.det(a), dtype)
    close(cp.linalg.inv(ca), np.linalg.inv(a), dtype)
    b = random_array(rng, (4, 6), dtype, -1, 1)
    close(cp.linalg.solve(ca, cp.asarray(b)[:, ::2]), np.linalg.solve(a, b[:, ::2]), dtype)
    close(cp.linalg.solve(ca, cp.asarray(b)[:, 1]), np.linalg.solve(a, b[:, 1]), dtype)
    h = spd(rng, (2, 4, 4), dtype)
    ch = cp.asarray(h).swapaxes(-1, -2)  # conj(h): Hermitian positive definite too
    close(cp.linalg.cholesky(ch), np.linalg.cholesky(h.swapaxes(-1, -2)), dtype)
    close(cp.linalg.eigvalsh(ch), np.linalg.eigvalsh(h.swapaxes(-1, -2)), dtype)
    close(cp.linalg.svd(ca, compute_uv=False), np.linalg.svd(a, compute_uv=False), dtype)
    q, r = cp.linalg.qr(ca)
    np.testing.assert_allclose(q.get() @ r.get(), a, atol=20 * tol(dtype) * 8)


@pytest.mark.parametrize("dtype", FLOATS)
def test_result_dtypes_and_precision(device, rng, dtype):
    """Single-precision input gives single-precision results, accurate to float32 rounding."""
    a = well_conditioned(rng, (6, 6), dtype)
    ca = cp.asarray(a)
    real = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
    assert cp.linalg.inv(ca).dtype == np.dtype(dtype)
    assert cp.linalg.det(ca).dtype == np.dtype(dtype)
    assert cp.linalg.slogdet(ca)[1].dtype == np.dtype(real)
    assert cp.linalg.svd(ca)[1].dtype == np.dtype(real)
    assert cp.linalg.eigh(ca)[0].dtype == np.dtype(real)
    assert cp.linalg.qr(ca)[1].dtype == np.dtype(dtype)
    # A X = I to the working precision: residual below n * cond * eps
    x = cp.linalg.inv(ca).get().astype(np.complex128)
    eps = np.finfo(real).eps
    assert np.max(np.abs(a.astype(np.complex128) @ x - np.eye(6))) < 6 * 10 * eps * 10


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_larger_matrices(device, rng, dtype):
    """Sizes past the libraries' unblocked paths (blocked LU / QR / tridiagonalization)."""
    n = 150
    a = well_conditioned(rng, (n, n), dtype)
    ca = cp.asarray(a)
    b = random_array(rng, (n, 3), dtype, -1, 1)
    close(cp.linalg.solve(ca, cp.asarray(b)), np.linalg.solve(a, b), dtype)
    close(cp.linalg.inv(ca), np.linalg.inv(a), dtype, scale=1)
    close(cp.linalg.svd(ca, compute_uv=False), np.linalg.svd(a, compute_uv=False), dtype)  # atol: tol * largest
    h = spd(rng, (n, n), dtype)
    close(cp.linalg.eigvalsh(cp.asarray(h)), np.linalg.eigvalsh(h), dtype)
    for shape in ((n, 40), (40, n)):
        t = random_array(rng, shape, dtype, -1, 1)
        u, s, vh = cp.linalg.svd(cp.asarray(t), full_matrices=False)
        np.testing.assert_allclose((u.get() * s.get()[None, :]) @ vh.get(), t, atol=200 * tol(dtype))
        q, r = cp.linalg.qr(cp.asarray(t), mode="complete")
        np.testing.assert_allclose(q.get() @ r.get(), t, atol=200 * tol(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_errors_inside_stacks(device, rng, dtype):
    a = well_conditioned(rng, (3, 3, 3), dtype)
    a[1] = [[1, 2, 3], [0, 0, 0], [4, 5, 6]]  # a zero row: an exact zero pivot in any LU
    ca = cp.asarray(a)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.inv(ca)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        cp.linalg.solve(ca, cp.ones((3, 3, 1), dtype=dtype))
    d = cp.linalg.det(ca).get()
    assert d[1] == 0 and np.all(d[[0, 2]] != 0)
    sign, logdet = cp.linalg.slogdet(ca)
    assert sign.get()[1] == 0 and logdet.get()[1] == -np.inf
    np.testing.assert_array_equal(np.isinf(cp.linalg.cond(ca, 1).get()), [False, True, False])
    h = spd(rng, (3, 3, 3), dtype)
    h[2] = -np.eye(3)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        cp.linalg.cholesky(cp.asarray(h))
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        cp.linalg.cholesky(cp.asarray(h), upper=True)
    assert np.all(np.isfinite(a))  # inputs untouched


def test_solve_stack_broadcast_vector_and_inputs_untouched(device, rng):
    a = well_conditioned(rng, (4, 3, 3), np.float64)
    b = random_array(rng, (3,), np.float64, -1, 1)
    ca, cb = cp.asarray(a), cp.asarray(b)
    close(cp.linalg.solve(ca, cb), np.linalg.solve(a, b))
    close(cp.linalg.solve(ca, cp.asarray(b[:, None])), np.linalg.solve(a, b[:, None]))
    np.testing.assert_array_equal(ca.get(), a)
    np.testing.assert_array_equal(cb.get(), b)
    x = cp.linalg.cholesky(cp.asarray(spd(rng, (3, 3), np.float64)))
    assert x.get()[0, 1] == 0 and x.get()[0, 2] == 0


def test_singular_solve_without_right_hand_sides_and_empty_cond(device):
    # NumPy factors A even when B has no columns, and has no condition number for 0x0.
    for x in (np, cp):
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            x.linalg.solve(x.zeros((3, 3)), x.empty((3, 0)))
        for p in (None, "fro", 1, -2):
            with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
                x.linalg.cond(x.empty((2, 0, 0)), p)
    got = cp.linalg.solve(cp.eye(3), cp.empty((3, 0)))
    assert got.shape == (3, 0) and got.dtype == np.float64


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (3, 0), (0, 4)])
def test_cond_and_pinv_of_empty_matrices(device, rng, shape):
    """cond has no value for empty matrices (NumPy's LinAlgError); pinv's empty result keeps the dtype."""
    for xp in (np, cp):
        with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
            xp.linalg.cond(xp.empty(shape), "fro" if shape[-1] == shape[-2] else None)
    for dtype in (np.int32, np.bool_, np.float32, np.complex64):
        want = np.linalg.pinv(np.empty(shape, dtype))
        got = cp.linalg.pinv(cp.empty(shape, dtype))
        assert got.dtype == want.dtype and got.shape == want.shape
    a = random_array(rng, (0, 3, 3), np.float64)  # an empty stack of non-empty matrices is fine
    assert cp.linalg.cond(cp.asarray(a)).shape == np.linalg.cond(a).shape
