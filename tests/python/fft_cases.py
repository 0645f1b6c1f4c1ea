"""Shared helpers of the FFT tests: NumPy as the oracle, with tolerances that grow with
log2(n) and the precision's epsilon (FFT rounding error grows like eps * log n)."""
import math

import numpy as np

import copper as cp


def precision_eps(dtype):
    dtype = np.dtype(dtype)
    single = dtype in (np.float16, np.float32, np.complex64)
    return np.finfo(np.float32 if single else np.float64).eps


def assert_fft_close(got, expected, n=None, input_dtype=None, scale=30):
    """got (copper) matches NumPy's `expected`: type, shape, dtype exactly; every value
    within scale * eps * log2(n) of the largest magnitude (plus eps * |value| growth)."""
    assert isinstance(got, cp.ndarray), type(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    g = got.get()
    if expected.size == 0:
        return
    n = n or max(expected.shape + (2,))
    eps = precision_eps(input_dtype if input_dtype is not None else expected.dtype)
    if expected.dtype == np.float16:
        eps = max(eps, np.finfo(np.float16).eps)
    bound = scale * eps * max(math.log2(max(n, 2)), 1.0)
    mag = max(float(np.max(np.abs(expected.astype(np.complex128)))), 1e-30)
    err = float(np.max(np.abs(g.astype(np.complex128) - expected.astype(np.complex128))))
    assert err <= bound * mag, f"max error {err:.3g} > {bound * mag:.3g} (n={n}, max |x|={mag:.3g})"


def numpy_input(rng, shape, dtype):
    """Random values of dtype (complex for complex dtypes) in [-1, 1]."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -50, 50, size=shape).astype(dtype)
    x = rng.uniform(-1, 1, size=shape)
    if dtype.kind == "c":
        x = x + 1j * rng.uniform(-1, 1, size=shape)
    return x.astype(dtype)


def fortran(c):
    """A copper array's F-ordered copy."""
    return cp.ascontiguousarray(c.T).T
