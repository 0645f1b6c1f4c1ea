"""linalg.norm's 2-norm and Frobenius norm run as one reduction (sum of |x|^2, no
temporary): every reduction layout (full, inner rows, outer columns, several axes,
strided and reversed views), every float and complex dtype, against NumPy.

Tolerances: the sum of n squares carries a relative error of a few ulps times log2(n)
(pairwise or compensated summation), so float64/complex128 agree to 1e-12, float32 and
complex64 to 1e-5. float16 results are float16, but copper accumulates them in float32
while NumPy adds float16 partial sums (off by many ulps along an outer axis), so
float16 is checked against the float64 norm rounded to float16, within 2 ulps (2e-3)."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array

DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128]


def rtol(dtype):
    return {np.float16: 2e-3, np.float32: 1e-5, np.complex64: 1e-5}.get(np.dtype(dtype).type, 1e-12)


def norm_oracle(a, *args, **kwargs):
    if a.dtype == np.float16:
        return np.linalg.norm(a.astype(np.float64), *args, **kwargs).astype(np.float16)
    return np.linalg.norm(a, *args, **kwargs)


def check(c, n, dtype):
    assert c.dtype == n.dtype, (c.dtype, n.dtype)
    assert c.shape == n.shape, (c.shape, n.shape)
    np.testing.assert_allclose(c.get(), n, rtol=rtol(dtype), atol=0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((5000,), None), ((37, 300), 1), ((300, 37), 0), ((3, 40, 50), (1, 2)),
                                        ((40, 3, 50), (0, 2)), ((6, 7), None), ((2, 3, 4), (0, 1))])
def test_two_norm_layouts(device, rng, dtype, shape, axis):
    low = -3 if dtype == np.float16 else -100  # float16 squares stay finite
    a = random_array(rng, shape, dtype, low, -low)
    ca = cp.asarray(a)
    if axis is None or isinstance(axis, tuple) and len(axis) == 2:
        check(cp.linalg.norm(ca, axis=axis), norm_oracle(a, axis=axis), dtype)
        check(cp.linalg.norm(ca, axis=axis, keepdims=True), norm_oracle(a, axis=axis, keepdims=True), dtype)
    if isinstance(axis, int):
        check(cp.linalg.norm(ca, 2, axis), norm_oracle(a, 2, axis), dtype)
    if len(shape) == 2 and axis is None:
        check(cp.linalg.norm(ca, "fro"), norm_oracle(a, "fro"), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_two_norm_views(device, rng, dtype):
    a = random_array(rng, (30, 41), dtype)
    ca = cp.asarray(a)
    for view in (np.s_[::-1, ::2], np.s_[5:, ::-3], np.s_[::3, 7]):
        check(cp.linalg.norm(ca[view]), np.linalg.norm(a[view]), dtype)
        if a[view].ndim == 2:
            check(cp.linalg.norm(ca[view], axis=0), np.linalg.norm(a[view], axis=0), dtype)
            check(cp.linalg.norm(ca[view], axis=(1, 0)), np.linalg.norm(a[view], axis=(1, 0)), dtype)


def test_two_norm_integers_and_empty(device, rng):
    a = random_array(rng, (4, 9), np.int16)
    ca = cp.asarray(a)
    check(cp.linalg.norm(ca), np.linalg.norm(a), np.float64)  # integers are computed in float64
    check(cp.linalg.norm(ca, axis=1), np.linalg.norm(a, axis=1), np.float64)
    e = np.zeros((0, 3), np.float32)
    check(cp.linalg.norm(cp.asarray(e), axis=0), np.linalg.norm(e, axis=0), np.float32)
    check(cp.linalg.norm(cp.asarray(e)), np.linalg.norm(e), np.float32)


def test_two_norm_special_values(device):
    a = np.array([3.0, np.inf, 4.0])
    check(cp.linalg.norm(cp.asarray(a)), np.linalg.norm(a), np.float64)
    b = np.array([3.0, np.nan, 4.0])
    assert np.isnan(cp.linalg.norm(cp.asarray(b)).get())
