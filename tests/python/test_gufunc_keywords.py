"""NumPy 2's generalized-ufunc keywords on vecdot, matvec, vecmat and matmul: axes= (each
operand's core axes, and the output's), axis= (one shared core axis), keepdims=, out= and
dtype=, with NumPy's errors where a keyword does not apply. NumPy is the oracle."""
import numpy as np
import pytest

import copper as cp

RNG = np.random.default_rng(2212)


def draw(shape, dtype=np.float64):
    a = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


def check(device, fn, operands, **kw):
    try:
        want = getattr(np, fn)(*operands, **kw)
    except Exception as e:
        with pytest.raises(type(e)):
            getattr(cp, fn)(*[cp.asarray(a, device=device) for a in operands], **kw)
        return
    got = getattr(cp, fn)(*[cp.asarray(a, device=device) for a in operands], **kw)
    got = cp.asnumpy(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_vecdot_axes_axis_keepdims(device, dtype):
    a, b = draw((2, 3, 4), dtype), draw((3, 1), dtype)
    check(device, "vecdot", (a, draw((3, 4), dtype)))
    check(device, "vecdot", (a, draw((3, 4), dtype)), keepdims=True)
    check(device, "vecdot", (a, b), axis=-2)
    check(device, "vecdot", (a, b), axis=1, keepdims=True)
    check(device, "vecdot", (a, b), axes=[(1,), (0,), ()])
    check(device, "vecdot", (a, b), axes=[(1,), (0,)], keepdims=True)
    check(device, "vecdot", (a, b), axes=[(1,), (0,), (2,)], keepdims=True)
    check(device, "vecdot", (a, draw((3, 4), dtype)), axes=[-1, -1])


def test_vecdot_out_and_dtype(device):
    a, b = draw((2, 3, 4)), draw((3, 4))
    out = cp.empty((2, 3), device=device)
    assert cp.vecdot(cp.asarray(a, device=device), cp.asarray(b, device=device), out=out) is out
    np.testing.assert_allclose(cp.asnumpy(out), np.vecdot(a, b))
    check(device, "vecdot", (a.astype(np.int64), b.astype(np.int64)), dtype=np.float32)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_matvec_vecmat_axes(device, dtype):
    m = draw((2, 3, 4), dtype)
    check(device, "matvec", (m, draw(4, dtype)))
    check(device, "matvec", (m, draw(3, dtype)), axes=[(-1, -2), (-1,), (-1,)])
    check(device, "matvec", (m, draw(2, dtype)), axes=[(2, 0), (0,), (0,)])
    check(device, "vecmat", (draw(3, dtype), m), axes=[(0,), (1, 2), (0,)])
    check(device, "vecmat", (draw(3, dtype), m))


def test_keywords_that_do_not_apply_raise_numpys_errors(device):
    a, b = draw((2, 3, 4)), draw((3, 4))
    check(device, "vecdot", (a, b), axes=[(1,), (0,), (0,)])  # AxisError: the output has no core axis
    check(device, "vecdot", (a, b), axis=1, axes=[(1,), (0,)])  # TypeError: both
    check(device, "matvec", (a, draw(4)), axis=0)  # TypeError: two distinct core dimensions
    check(device, "matvec", (a, draw(4)), keepdims=True)  # TypeError: the output has a core dimension
    check(device, "matmul", (draw((2, 2)), draw((2, 2))), keepdims=True)
    check(device, "matvec", (a, draw(4)), axes=[(0, 1)])  # ValueError: wrong number of entries
