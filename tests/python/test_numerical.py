"""ediff1d, gradient, convolve/correlate, interp, trapezoid, unwrap, matvec/vecmat, the
window functions and apply_along_axis/apply_over_axes/piecewise against NumPy."""
import numpy as np
import pytest

import copper as cp
from conftest import assert_matches as check, random_array, random_pair as pair


def close(c, n, rtol=1e-10, atol=0):
    assert isinstance(c, cp.ndarray)
    assert c.shape == np.shape(n) and c.dtype == np.asarray(n).dtype, (c.shape, c.dtype, np.shape(n), np.asarray(n).dtype)
    np.testing.assert_allclose(c.get(), n, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.complex128])
def test_ediff1d(device, rng, dtype):
    n, c = pair(rng, (3, 4), dtype, True)
    check(cp.ediff1d(c), np.ediff1d(n))
    b, e = np.array([3], dtype), np.array([1, 2], dtype)
    check(cp.ediff1d(c, to_end=cp.asarray(e), to_begin=cp.asarray(b)), np.ediff1d(n, to_end=e, to_begin=b))
    check(cp.ediff1d(cp.zeros((0,), dtype=dtype)), np.ediff1d(np.zeros((0,), dtype)))


def test_ediff1d_errors(device):
    with pytest.raises(TypeError, match="dtype of `to_begin` must be compatible"):
        cp.ediff1d(cp.arange(3), to_begin=[1.5])
    with pytest.raises(TypeError, match="dtype of `to_end` must be compatible"):
        cp.ediff1d(cp.arange(3), to_end=[1.5])


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device, rng, dtype, edge_order):
    n, c = pair(rng, (5, 6), dtype, True)
    rtol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    want, got = np.gradient(n, edge_order=edge_order), cp.gradient(c, edge_order=edge_order)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        close(g, w, rtol, 1e-6)
    close(cp.gradient(c, 0.5, axis=1, edge_order=edge_order), np.gradient(n, 0.5, axis=1, edge_order=edge_order),
          rtol, 1e-6)
    x = np.cumsum(rng.uniform(0.1, 2.0, 5))
    for g, w in zip(cp.gradient(c, cp.asarray(x), 2.0, edge_order=edge_order),
                    np.gradient(n, x, 2.0, edge_order=edge_order)):
        close(g, w, rtol, 1e-5)
    xi = np.arange(0, 12, 2)
    close(cp.gradient(c, cp.asarray(xi), axis=-1), np.gradient(n, xi, axis=-1), rtol, 1e-6)


def test_gradient_1d_and_errors(device):
    f = np.array([1, 2, 4, 7, 11, 16], dtype=float)
    close(cp.gradient(cp.asarray(f)), np.gradient(f))
    with pytest.raises(ValueError, match="Shape of array too small"):
        cp.gradient(cp.zeros(2), edge_order=2)
    with pytest.raises(ValueError, match="'edge_order' greater than 2 not supported"):
        cp.gradient(cp.zeros(5), edge_order=3)
    with pytest.raises(TypeError, match="invalid number of arguments"):
        cp.gradient(cp.zeros((3, 3)), 1, 2, 3)
    with pytest.raises(ValueError, match="distances must be either scalars or 1d"):
        cp.gradient(cp.zeros(3), cp.zeros((3, 1)))
    with pytest.raises(ValueError, match="when 1d, distances must match"):
        cp.gradient(cp.zeros(3), cp.zeros(4))


@pytest.mark.parametrize("mode", ["full", "same", "valid", 0, 1, 2])
@pytest.mark.parametrize("lengths", [(10, 3), (3, 10), (7, 7), (1, 5), (6, 4), (5, 1)])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128, np.float32])
def test_convolve_correlate(device, rng, mode, lengths, dtype):
    a = random_array(rng, (lengths[0],), dtype, -5, 5)
    v = random_array(rng, (lengths[1],), dtype, -5, 5)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    close(cp.convolve(cp.asarray(a), cp.asarray(v), mode), np.convolve(a, v, mode), rtol, 1e-5)
    close(cp.correlate(cp.asarray(a), cp.asarray(v), mode), np.correlate(a, v, mode), rtol, 1e-5)


def test_convolve_mixed_and_errors(device, rng):
    a = random_array(rng, (9,), np.int8, -5, 5)
    check(cp.convolve(cp.asarray(a), cp.asarray([True, False])), np.convolve(a, [True, False]))
    check(cp.convolve(cp.asarray([True, False, True]), cp.asarray([True, True])),
          np.convolve([True, False, True], [True, True]))
    close(cp.convolve(cp.asarray(a[::-2]), [0.5, 0.25]), np.convolve(a[::-2], [0.5, 0.25]))
    close(cp.convolve(3.0, [1, 2]), np.convolve(3.0, [1, 2]))
    with pytest.raises(ValueError, match="a cannot be empty"):
        cp.convolve([], [1])
    with pytest.raises(ValueError, match="v cannot be empty"):
        cp.convolve([1], [])
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        cp.correlate([], [1])
    with pytest.raises(ValueError, match=r"mode must be one of 'valid', 'same', or 'full' \(got 'x'\)"):
        cp.convolve([1], [1], mode="x")
    with pytest.raises(ValueError, match="integer convolve/correlate mode must be 0, 1, or 2"):
        cp.convolve([1], [1], mode=5)


def test_convolve_long_blocks(device, rng):
    # Long inputs take the row-blocked path (windows of more than 2**24 elements).
    a = rng.standard_normal(300_000)
    v = rng.standard_normal(70)
    close(cp.convolve(cp.asarray(a), cp.asarray(v)), np.convolve(a, v), 1e-9, 1e-9)


@pytest.mark.parametrize("fp_dtype", [np.float64, np.float32, np.int64, np.complex128])
def test_interp(device, rng, fp_dtype):
    xp = np.sort(rng.uniform(-5, 5, 12))
    fp = random_array(rng, (12,), fp_dtype)
    x = np.concatenate([rng.uniform(-7, 7, 41), xp[:3], [xp[-1], np.nan, np.inf, -np.inf]])
    close(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp)), np.interp(x, xp, fp), 1e-12, 1e-12)
    close(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp), left=-1.5, right=99),
          np.interp(x, xp, fp, left=-1.5, right=99), 1e-12, 1e-12)
    close(cp.interp(cp.asarray(x.reshape(4, -1)), xp, fp), np.interp(x.reshape(4, -1), xp, fp), 1e-12, 1e-12)


@pytest.mark.parametrize("dtype_y", [np.float32, np.complex64, np.complex128])
def test_interp_infinite_samples(device, dtype_y):
    x = np.array([0, 1, 2, 4, 6, 8, 9, 10], dtype=np.float64)
    fx = np.array([1, 3, 5, 7, 9], dtype=np.float64)
    fy = np.sin(fx).astype(dtype_y)
    fy[0] = fy[2] = fy[-1] = np.inf
    close(cp.interp(cp.asarray(x), cp.asarray(fx), cp.asarray(fy)), np.interp(x, fx, fy), 1e-12)


def test_gradient_python_spacing_stays_weak(device, rng):
    n, c = pair(rng, (6, 5), np.float32)
    for g, w in zip(cp.gradient(c, 3, 2), np.gradient(n, 3, 2)):
        check(g, w)
    for g, w in zip(cp.gradient(c, 0.5, edge_order=2), np.gradient(n, 0.5, edge_order=2)):
        check(g, w)


def test_interp_period_and_errors(device, rng):
    xp = np.array([190, -190, 350, -350])
    fp = np.array([5, 10, 3, 4])
    x = np.array([-180, -170, -185, 185, -10, -5, 0, 365])
    close(cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp), period=360),
          np.interp(x, xp, fp, period=360), 1e-12)
    close(cp.interp(cp.asarray([0.5, 2.0]), [1.0], [3.0]), np.interp([0.5, 2.0], [1.0], [3.0]))
    with pytest.raises(ValueError, match="period must be a non-zero value"):
        cp.interp(cp.asarray(x), xp, fp, period=0)
    with pytest.raises(ValueError, match="array of sample points is empty"):
        cp.interp(cp.asarray([1.0]), [], [])
    with pytest.raises(ValueError, match="fp and xp are not of the same length."):
        cp.interp(cp.asarray([1.0]), [1, 2], [1])


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_trapezoid(device, rng, dtype, axis):
    n, c = pair(rng, (4, 5), dtype, True)
    rtol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    close(cp.trapezoid(c, axis=axis), np.trapezoid(n, axis=axis), rtol)
    close(cp.trapezoid(c, dx=0.25, axis=axis), np.trapezoid(n, dx=0.25, axis=axis), rtol)
    x = np.cumsum(rng.uniform(0, 1, n.shape[axis]))
    close(cp.trapezoid(c, cp.asarray(x), axis=axis), np.trapezoid(n, x, axis=axis), rtol)
    x2 = rng.uniform(0, 1, n.shape)
    close(cp.trapezoid(c, cp.asarray(x2), axis=axis), np.trapezoid(n, x2, axis=axis), rtol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_unwrap(device, rng, dtype):
    if dtype == np.int64:
        n = rng.integers(-20, 20, (3, 9))
        for period in [6, 7]:
            check(cp.unwrap(cp.asarray(n), period=period), np.unwrap(n, period=period))
        return
    n = np.cumsum(rng.uniform(-4, 4, (3, 9)), axis=1).astype(dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    close(cp.unwrap(cp.asarray(n)), np.unwrap(n), rtol)
    close(cp.unwrap(cp.asarray(n), axis=0), np.unwrap(n, axis=0), rtol)
    close(cp.unwrap(cp.asarray(n), discont=4.0, period=5.0), np.unwrap(n, discont=4.0, period=5.0), rtol)
    edge = np.array([0, np.pi, 0, -np.pi, 0])
    close(cp.unwrap(cp.asarray(edge)), np.unwrap(edge))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int32])
def test_matvec_vecmat(device, rng, dtype):
    a, ca = pair(rng, (2, 3, 4), dtype)
    v, cv = pair(rng, (4,), dtype)
    w, cw = pair(rng, (5, 1, 3), dtype)
    close(cp.matvec(ca, cv), np.matvec(a, v))
    close(cp.vecmat(cw, ca), np.vecmat(w, a))
    out = cp.empty((2, 3), dtype=np.result_type(dtype))
    assert cp.matvec(ca, cv, out=out) is out
    close(out, np.matvec(a, v))
    with pytest.raises(ValueError, match=r"matvec: Input operand 1 has a mismatch in its core dimension 0, with "
                                         r"gufunc signature \(m,n\),\(n\)->\(m\) \(size 3 is different from 4\)"):
        cp.matvec(ca, cp.zeros(3))
    with pytest.raises(ValueError, match="matvec: Input operand 1 does not have enough dimensions"):
        cp.matvec(ca, 1.0)
    with pytest.raises(ValueError, match="vecmat: Input operand 1 has a mismatch in its core dimension 0"):
        cp.vecmat(cp.zeros(2), ca)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 16, 51])
def test_windows(device, name, M):
    got = getattr(cp, name)(M)
    assert got.device == cp.Device(device)
    close(got, getattr(np, name)(M), 1e-13, 1e-15)


@pytest.mark.parametrize("M", [0, 1, 2, 7, 32])
@pytest.mark.parametrize("beta", [0.0, 1.5, 8.6, 14])
def test_kaiser(device, M, beta):
    close(cp.kaiser(M, beta), np.kaiser(M, beta), 1e-12, 1e-15)
    assert cp.kaiser(3, 1.0, device="cpu").device == cp.Device("cpu")


def test_apply_along_axis(device, rng):
    n, c = pair(rng, (3, 4, 5), np.float64)
    for axis in [0, 1, -1]:
        close(cp.apply_along_axis(lambda v: v.sum(), axis, c), np.apply_along_axis(lambda v: v.sum(), axis, n))
        close(cp.apply_along_axis(lambda v: v[::-1] * 2, axis, c), np.apply_along_axis(lambda v: v[::-1] * 2, axis, n))
        close(cp.apply_along_axis(cp.outer, axis, c, cp.asarray([1.0, 2.0])),
              np.apply_along_axis(np.outer, axis, n, [1.0, 2.0]))
    with pytest.raises(ValueError, match="Cannot apply_along_axis when any iteration dimensions are 0"):
        cp.apply_along_axis(lambda v: v, 0, cp.zeros((3, 0)))
    with pytest.raises(np.exceptions.AxisError):
        cp.apply_along_axis(lambda v: v, 3, c)


def test_apply_over_axes(device, rng):
    n, c = pair(rng, (2, 3, 4), np.int64)
    check(cp.apply_over_axes(cp.sum, c, [0, 2]), np.apply_over_axes(np.sum, n, [0, 2]))
    check(cp.apply_over_axes(cp.sum, c, -1), np.apply_over_axes(np.sum, n, -1))
    with pytest.raises(ValueError, match="function is not returning an array of the correct shape"):
        cp.apply_over_axes(lambda a, axis: a.sum(), c, [0])


def test_piecewise(device, rng):
    n, c = pair(rng, (10,), np.float64)
    check(cp.piecewise(c, [c < 0, c >= 0], [-1, 1]), np.piecewise(n, [n < 0, n >= 0], [-1, 1]))
    check(cp.piecewise(c, [c < -10, c > 50], [lambda v: v * 2, lambda v: v - 1, 7.0]),
          np.piecewise(n, [n < -10, n > 50], [lambda v: v * 2, lambda v: v - 1, 7.0]))
    check(cp.piecewise(c, c > 0, [lambda v: v + 1, 0]), np.piecewise(n, n > 0, [lambda v: v + 1, 0]))
    check(cp.piecewise(cp.asarray(3.0), [True], [lambda v: v * 2]), np.piecewise(np.asarray(3.0), [True], [lambda v: v * 2]))
    with pytest.raises(ValueError, match=r"with 2 condition\(s\), either 2 or 3 functions are expected"):
        cp.piecewise(c, [c < 0, c > 0], [1])
