"""linalg.eig/eigvals (LAPACK ?geev on the CPU, cusolverDnXgeev on a GPU), multi_dot,
tensorinv and tensorsolve against NumPy."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array


def check_eig(a, w, v):
    """Eigenpairs of a (eigenvector order and phase are the solver's): A V = V diag(w)."""
    a = np.asarray(a, dtype=np.complex128)
    w, v = w.get(), v.get()
    np.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=1e-6, atol=1e-6 * max(1, np.abs(a).max()))
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=1e-6)


# NumPy 2.5 returns complex eigenvalues always; up to 2.4, real ones when all are real. copper
# follows the installed NumPy in Python (its C++ API always returns complex arrays).
ALWAYS_COMPLEX = np.lib.NumpyVersion(np.__version__) >= "2.5.0"


def same_values(got, want, rtol=1e-7):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    g = np.sort_complex(got.get().reshape(-1, want.shape[-1]))
    n = np.sort_complex(want.reshape(-1, want.shape[-1]))
    np.testing.assert_allclose(g, n, rtol=rtol, atol=rtol * 10)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64, np.int64])
@pytest.mark.parametrize("shape", [(4, 4), (1, 1), (3, 5, 5), (2, 0, 0), (6, 6)])
def test_eig(device, rng, dtype, shape):
    a = random_array(rng, shape, dtype, -5, 5)
    rtol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-8
    w, v = cp.linalg.eig(cp.asarray(a))
    nw, nv = np.linalg.eig(a)
    assert w.dtype == nw.dtype and v.dtype == nv.dtype, (w.dtype, nw.dtype, v.dtype, nv.dtype)
    assert w.shape == nw.shape and v.shape == nv.shape
    if a.size:
        same_values(w, nw, rtol)
        if rtol < 1e-6:
            check_eig(a, w, v)
    if a.size:
        same_values(cp.linalg.eigvals(cp.asarray(a)), np.linalg.eigvals(a), rtol)
    r = cp.linalg.eig(cp.asarray(a))
    assert r.eigenvalues is not None and r.eigenvectors is not None


def test_eig_real_spectrum_follows_the_installed_numpy(device, rng):
    q = rng.standard_normal((5, 5))
    sym = q + q.T
    w, v = cp.linalg.eig(cp.asarray(sym))
    want = np.complex128 if ALWAYS_COMPLEX else np.float64
    assert w.dtype == want and v.dtype == want
    assert not np.imag(w.get()).any() and not np.imag(v.get()).any()
    check_eig(sym, w, v)
    want32 = np.complex64 if ALWAYS_COMPLEX else np.float32
    assert cp.linalg.eigvals(cp.asarray(sym.astype(np.float32))).dtype == want32
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    w, v = cp.linalg.eig(cp.asarray(rot))
    assert w.dtype == np.complex128
    check_eig(rot, w, v)


def test_eig_errors(device):
    with pytest.raises(np.linalg.LinAlgError):
        cp.linalg.eig(cp.zeros((2, 3)))
    with pytest.raises(np.linalg.LinAlgError):
        cp.linalg.eigvals(cp.zeros(3))
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        cp.linalg.eig(cp.asarray([[1.0, np.nan], [0, 1]]))


@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5)], [(3, 4), (4, 5), (5, 2)], [(10, 2), (2, 30), (30, 3), (3, 7)],
                                    [(4,), (4, 5), (5, 6), (6,)], [(4,), (4, 3), (3, 2)], [(2, 3), (3, 8), (8,)],
                                    [(5, 2), (2, 9), (9, 1), (1, 6), (6, 3)]])
def test_multi_dot(device, rng, shapes):
    arrays = [rng.standard_normal(s) for s in shapes]
    got = cp.linalg.multi_dot([cp.asarray(a) for a in arrays])
    want = np.linalg.multi_dot(arrays)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.get(), want, rtol=1e-10)


def test_multi_dot_errors_and_out(device, rng):
    with pytest.raises(ValueError, match="Expecting at least two arrays."):
        cp.linalg.multi_dot([cp.zeros((2, 2))])
    with pytest.raises(np.linalg.LinAlgError, match="3-dimensional array given. Array must be two-dimensional"):
        cp.linalg.multi_dot([cp.zeros((2, 2)), cp.zeros((2, 2, 2)), cp.zeros((2, 2))])
    a = [rng.standard_normal((3, 3)) for _ in range(3)]
    out = cp.empty((3, 3))
    cp.linalg.multi_dot([cp.asarray(x) for x in a], out=out)
    np.testing.assert_allclose(out.get(), np.linalg.multi_dot(a), rtol=1e-10)


@pytest.mark.parametrize("shape,ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((6, 2, 3), 1)])
def test_tensorinv(device, rng, shape, ind):
    a = rng.standard_normal(shape)
    got, want = cp.linalg.tensorinv(cp.asarray(a), ind), np.linalg.tensorinv(a, ind)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-8, atol=1e-8)
    with pytest.raises(ValueError, match="Invalid ind argument."):
        cp.linalg.tensorinv(cp.asarray(a), 0)


def test_tensorsolve(device, rng):
    a = rng.standard_normal((6, 4, 2, 3, 4))
    b = rng.standard_normal((6, 4))
    got, want = cp.linalg.tensorsolve(cp.asarray(a), cp.asarray(b)), np.linalg.tensorsolve(a, b)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-8, atol=1e-8)
    a2 = rng.standard_normal((2, 3, 6))
    b2 = rng.standard_normal(6)
    got = cp.linalg.tensorsolve(cp.asarray(a2), cp.asarray(b2), axes=(0, 1))
    np.testing.assert_allclose(got.get(), np.linalg.tensorsolve(a2, b2, axes=(0, 1)), rtol=1e-8, atol=1e-8)
    with pytest.raises(np.linalg.LinAlgError, match=r"Input arrays must satisfy the requirement +prod\(a"):
        cp.linalg.tensorsolve(cp.zeros((2, 3)), cp.zeros(2))
