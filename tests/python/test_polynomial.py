"""The legacy polynomial functions (poly, polyadd, polysub, polymul, polyder, polyint,
polyval, polydiv, polyfit, roots) against NumPy."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import random_array


def close(c, n, rtol=1e-10, atol=1e-12):
    assert isinstance(c, cp.ndarray)
    n = np.asarray(n)
    assert c.shape == n.shape and c.dtype == n.dtype, (c.shape, c.dtype, n.shape, n.dtype)
    np.testing.assert_allclose(c.get(), n, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_add_sub_mul(device, rng, dtype):
    a = random_array(rng, (4,), dtype, -9, 9)
    b = random_array(rng, (2,), dtype, -9, 9)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for x, y in [(a, b), (b, a), (a, a)]:
        close(cp.polyadd(cp.asarray(x), cp.asarray(y)), np.polyadd(x, y), rtol)
        close(cp.polysub(cp.asarray(x), cp.asarray(y)), np.polysub(x, y), rtol)
        close(cp.polymul(cp.asarray(x), cp.asarray(y)), np.polymul(x, y), rtol)
    close(cp.polyadd([1], [1.5, 2]), np.polyadd([1], [1.5, 2]))
    close(cp.polymul(3, [1, 2]), np.polymul(3, [1, 2]))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_der_int(device, rng, dtype, m):
    p = random_array(rng, (5,), dtype, -9, 9)
    rtol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    close(cp.polyder(cp.asarray(p), m), np.polyder(p, m), rtol)
    close(cp.polyint(cp.asarray(p), m), np.polyint(p, m), rtol)
    close(cp.polyint(cp.asarray(p), m, k=2.5), np.polyint(p, m, k=2.5), rtol)
    if m:
        k = list(range(1, m + 1))
        close(cp.polyint(cp.asarray(p), m, k=k), np.polyint(p, m, k=k), rtol)


def test_der_int_errors(device):
    with pytest.raises(ValueError, match=r"Order of derivative must be positive \(see polyint\)"):
        cp.polyder([1, 2], -1)
    with pytest.raises(ValueError, match=r"Order of integral must be positive \(see polyder\)"):
        cp.polyint([1, 2], -1)
    with pytest.raises(ValueError, match="k must be a scalar or a rank-1 array of length 1 or >m."):
        cp.polyint([1, 2], 3, k=[1, 2])


@pytest.mark.parametrize("pdtype", [np.int64, np.float64, np.complex128])
@pytest.mark.parametrize("xdtype", [np.int32, np.float32, np.float64])
def test_polyval(device, rng, pdtype, xdtype):
    p = random_array(rng, (4,), pdtype, -3, 3)
    x = random_array(rng, (2, 3), xdtype, -3, 3)
    rtol = 1e-5 if xdtype == np.float32 and pdtype != np.complex128 else 1e-12
    close(cp.polyval(cp.asarray(p), cp.asarray(x)), np.polyval(p, x), rtol)
    close(cp.polyval(cp.asarray(p), cp.asarray(x[:, ::-2])), np.polyval(p, x[:, ::-2]), rtol)
    close(cp.polyval([], cp.asarray(x)), np.polyval([], x))


@pytest.mark.parametrize("u,v", [([1, 2, 3], [1, 1]), ([3.0, 5, 2, 7, 1], [2.0, 1, 1]), ([1, 2], [1, 2, 3]),
                                 ([2, 0, -2], [1, -1]), ([1j, 2, 3], [1, 1j])])
def test_polydiv(device, u, v):
    q, r = cp.polydiv(u, v)
    nq, nr = np.polydiv(u, v)
    close(q, nq)
    close(r, nr)


@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit(device, rng, deg):
    x = np.linspace(-2, 3, 20)
    y = 1.5 * x ** 3 - x + 0.3 + rng.normal(0, 0.1, 20)
    close(cp.polyfit(cp.asarray(x), cp.asarray(y), deg), np.polyfit(x, y, deg), 1e-8, 1e-10)
    w = rng.uniform(0.5, 2, 20)
    close(cp.polyfit(cp.asarray(x), cp.asarray(y), deg, w=cp.asarray(w)), np.polyfit(x, y, deg, w=w), 1e-8, 1e-10)
    y2 = np.stack([y, 2 * y + 1], axis=1)
    close(cp.polyfit(cp.asarray(x), cp.asarray(y2), deg), np.polyfit(x, y2, deg), 1e-8, 1e-10)
    got, want = cp.polyfit(cp.asarray(x), cp.asarray(y), deg, full=True), np.polyfit(x, y, deg, full=True)
    close(got[0], want[0], 1e-8, 1e-10)
    close(got[1], want[1], 1e-6, 1e-10)
    assert got[2] == want[2]
    close(got[3], want[3], 1e-8)
    assert got[4] == pytest.approx(want[4])
    for cov in [True, "unscaled"]:
        gc, gv = cp.polyfit(cp.asarray(x), cp.asarray(y), deg, cov=cov)
        nc, nv = np.polyfit(x, y, deg, cov=cov)
        close(gv, nv, 1e-6, 1e-12)


def test_polyfit_errors_and_warning(device):
    with pytest.raises(ValueError, match="expected deg >= 0"):
        cp.polyfit([1.0, 2.0], [1.0, 2.0], -1)
    with pytest.raises(TypeError, match="expected 1D vector for x"):
        cp.polyfit([[1.0]], [1.0], 1)
    with pytest.raises(TypeError, match="expected non-empty vector for x"):
        cp.polyfit([], [], 1)
    with pytest.raises(TypeError, match="expected x and y to have same length"):
        cp.polyfit([1.0, 2.0], [1.0], 1)
    with pytest.warns(np.exceptions.RankWarning):
        cp.polyfit([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 5)


@pytest.mark.parametrize("p", [[1, -3, 2], [1, 0, 1], [2.0, -4, 0, 0], [0, 0, 1, 5], [3], [0, 0], [1, 2, 3, 4, 5],
                               [1j, 2, 1]])
def test_roots_and_poly(device, p):
    got, want = cp.roots(cp.asarray(p)), np.roots(p)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(np.sort_complex(got.get()), np.sort_complex(want), rtol=1e-8, atol=1e-10)
    if want.size:
        close(cp.poly(got), np.poly(want), 1e-8, 1e-10)


def test_poly(device, rng):
    close(cp.poly([1, 2, 3]), np.poly([1, 2, 3]))
    close(cp.poly(cp.asarray(np.array([1, 2], np.float32))), np.poly(np.array([1, 2], np.float32)), 1e-6)
    close(cp.poly([1j, -1j]), np.poly([1j, -1j]))
    close(cp.poly([1j, 2]), np.poly([1j, 2]))
    assert cp.poly([]) == 1.0
    m = rng.standard_normal((4, 4))
    close(cp.poly(cp.asarray(m)), np.poly(m), 1e-8, 1e-10)
    with pytest.raises(ValueError, match="input must be 1d or non-empty square 2d array."):
        cp.poly(cp.zeros((2, 3)))
    with pytest.raises(ValueError, match="Input must be a rank-1 array."):
        cp.roots(cp.zeros((2, 2)))
