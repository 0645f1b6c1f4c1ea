"""The data-dependent families on a second GPU (issue 18): sorts, unique, advanced indexing,
histograms, FFTs (cuFFT plans per device), DLPack between two GPUs, fused chains and
copper.jit kernels, each checked
against NumPy with its inputs and results on cuda:1, and mixing devices refused. Skips
with fewer than two GPUs."""
import numpy as np
import pytest

import copper as cp
from copper import jit

N_GPUS = cp.cuda.runtime.getDeviceCount()
pytestmark = pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs")
MIXED = r"arrays are on different devices"


@pytest.fixture
def rng():
    return np.random.default_rng(18)


def on1(a):
    x = cp.asarray(a, device="cuda:1")
    assert str(x.device) == "cuda:1"
    return x


def check(got, want, **kw):
    assert str(got.device) == "cuda:1"
    np.testing.assert_allclose(got.get(), want, **kw)


def test_sort_argsort_unique_on_cuda1(rng):
    a = rng.standard_normal(100_003).astype(np.float32)
    a[::97] = np.nan
    x = on1(a)
    check(cp.sort(x), np.sort(a))
    check(cp.argsort(x), np.argsort(a, kind="stable"))
    i = rng.integers(0, 1000, 200_000).astype(np.int64)
    values, counts = cp.unique(on1(i), return_counts=True)
    want_values, want_counts = np.unique(i, return_counts=True)
    check(values, want_values)
    check(counts, want_counts)
    check(cp.searchsorted(cp.sort(x), on1(a[:1000])), np.searchsorted(np.sort(a), a[:1000]))


def test_advanced_indexing_on_cuda1(rng):
    a = rng.standard_normal((300, 70))
    x = on1(a)
    idx = rng.integers(-300, 300, 1000)
    check(x[on1(idx)], a[idx])
    mask = a > 0.3
    check(x[on1(mask)], a[mask])
    check(cp.nonzero(on1(mask))[1], np.nonzero(mask)[1])
    b = a.copy()
    b[idx, 3] = -1.0
    x[on1(idx), 3] = -1.0
    check(x, b)
    with pytest.raises(IndexError):  # the kernel's bounds check, raised at the next synchronization
        x[on1(np.array([300]))].get()


def test_histogram_and_median_on_cuda1(rng):
    a = rng.standard_normal((64, 501)).astype(np.float32)
    h, edges = cp.histogram(on1(a), bins=50)
    want_h, want_edges = np.histogram(a, bins=50)
    check(h, want_h)
    check(edges, want_edges, rtol=1e-6)
    check(cp.median(on1(a), axis=1), np.median(a, axis=1), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_plans_per_device(rng, dtype):
    a = (rng.standard_normal((8, 1024)) + 1j * rng.standard_normal((8, 1024))).astype(dtype)
    tol = 1e-4 if dtype == np.complex64 else 1e-10
    # The same shape on both GPUs: each device's plan cache builds its own plan.
    check(cp.fft.fft(on1(a)), np.fft.fft(a), rtol=tol, atol=tol * 100)
    y0 = cp.fft.fft(cp.asarray(a, device="cuda:0"))
    assert str(y0.device) == "cuda:0"
    np.testing.assert_allclose(y0.get(), np.fft.fft(a), rtol=tol, atol=tol * 100)
    check(cp.fft.irfft2(on1(a)), np.fft.irfft2(a), rtol=tol, atol=tol * 100)


def test_dlpack_between_gpus(rng):
    a = rng.standard_normal(1000)
    x1 = on1(a)
    y = cp.from_dlpack(x1)  # same device: zero copy
    assert str(y.device) == "cuda:1" and y.data_ptr == x1.data_ptr
    z = cp.from_dlpack(x1, device=cp.asarray(0.0, device="cuda:0").device, copy=True)
    assert str(z.device) == "cuda:0"
    np.testing.assert_array_equal(z.get(), a)


def test_mixing_devices_raises(rng):
    a = rng.standard_normal(100)
    x0, x1 = cp.asarray(a, device="cuda:0"), on1(a)
    with pytest.raises(ValueError, match=MIXED):
        x0[x1 > 0]
    with pytest.raises(ValueError, match=MIXED):
        cp.searchsorted(x0, x1)


def test_fused_chain_on_cuda1(rng):
    @cp.fuse()
    def chain(x, y):
        return cp.sqrt(x * x + y * y) + cp.sin(x) * 2

    @cp.fuse()
    def total(x):
        return cp.sum(x * x, axis=-1)

    a, b = rng.standard_normal((64, 300)), rng.standard_normal((64, 300))
    check(chain(on1(a), on1(b)), np.sqrt(a * a + b * b) + np.sin(a) * 2, rtol=1e-12)
    check(total(on1(a)), np.sum(a * a, axis=-1), rtol=1e-12)
    # The same fused function on cuda:0 afterwards: its kernel is built for that device too.
    y0 = chain(cp.asarray(a, device="cuda:0"), cp.asarray(b, device="cuda:0"))
    assert str(y0.device) == "cuda:0"
    np.testing.assert_allclose(y0.get(), np.sqrt(a * a + b * b) + np.sin(a) * 2, rtol=1e-12)
    with pytest.raises(ValueError, match=MIXED):
        chain(cp.asarray(a, device="cuda:0"), on1(b))


@jit.rawkernel()
def add_one(x, y):
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        y[i] = x[i] + 1


def test_jit_kernel_on_cuda1(rng):
    a = rng.standard_normal(5000).astype(np.float32)
    x, y = on1(a), cp.empty(5000, dtype=cp.float32, device="cuda:1")
    add_one[20, 256](x, y)
    check(y, a + 1)
