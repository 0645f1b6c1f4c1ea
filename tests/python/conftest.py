"""Shared fixtures: every test runs on each available device (the CPU, plus a GPU
when copper finds one), with NumPy as the oracle."""
import os
import zlib

import numpy as np
import pytest

import copper as cp


def _devices():
    found = ["cpu"]
    try:
        cp.Device("cuda:0")
        cp.zeros(1, device="cuda:0")
        found.append("cuda:0")
    except Exception:
        pass
    only = os.environ.get("COPPER_TEST_DEVICES")
    if only:
        found = [d for d in found if d.split(":")[0] in only]
    return found


DEVICES = _devices()

ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
              np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]
COMPLEX_DTYPES = [np.complex64, np.complex128]
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES


@pytest.fixture(params=DEVICES)
def device(request):
    """The device a test runs on; new copper arrays go there while the test runs."""
    previous = cp.get_default_device()
    cp.set_default_device(request.param)
    yield request.param
    cp.set_default_device(previous)


def random_array(rng, shape, dtype, low=-100, high=100):
    """Random values of `dtype` (never all zeros or ones), as a NumPy array."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(low, info.min), min(high, info.max)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    if dtype.kind == "f":
        return rng.uniform(low, high, size=shape).astype(dtype)
    re = rng.uniform(low, high, size=shape)
    im = rng.uniform(low, high, size=shape)
    return (re + 1j * im).astype(dtype)


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: reproducible, different per test."""
    seed = zlib.crc32(request.node.nodeid.encode())
    return np.random.default_rng(seed)


def assert_matches(c, n):
    """A copper result equals NumPy's: type, shape, dtype and every value."""
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape
    assert c.dtype == n.dtype
    np.testing.assert_array_equal(c.get(), n)


def random_pair(rng, shape, dtype, strided=False):
    """The same random data as (NumPy array, copper array). With strided=True both are
    negative-stride, non-contiguous views of a larger array, sliced the same way."""
    if strided:
        base = np.asarray(random_array(rng, tuple(2 * d for d in shape), dtype))
        key = tuple(slice(-1, None, -2) for _ in shape) or Ellipsis
        return base[key], cp.asarray(base)[key]
    n = np.asarray(random_array(rng, shape, dtype))
    return n, cp.asarray(n)
