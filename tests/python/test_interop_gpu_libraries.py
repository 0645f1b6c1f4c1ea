"""Zero-copy exchange with PyTorch, CuPy, JAX and Numba on a GPU (DLPack both ways and the
CUDA array interface), and with PyTorch's CPU tensors. Each library's tests skip where it
is not installed or has no GPU; the GPU machine has them all."""
import gc

import numpy as np
import pytest

import copper as cp
from conftest import DEVICES

needs_gpu = pytest.mark.skipif("cuda:0" not in DEVICES, reason="needs a GPU")


def torch_or_skip(gpu=True):
    torch = pytest.importorskip("torch")
    if gpu and ("cuda:0" not in DEVICES or not torch.cuda.is_available()):
        pytest.skip("needs PyTorch with a GPU")
    return torch


TORCH_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
                "complex128"]


# ---- PyTorch ----

@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_gpu_to_copper_dlpack(name):
    torch = torch_or_skip()
    t = (torch.arange(24, device="cuda") % 5).to(getattr(torch, name)).reshape(4, 6)
    for view in (t, t[1:, ::2], t.T):
        x = cp.from_dlpack(view)
        assert x.device == cp.Device("cuda:0") and x.data_ptr == view.data_ptr()
        assert x.dtype == np.dtype(name)
        np.testing.assert_array_equal(x.get(), view.cpu().numpy())


@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_copper_to_torch_gpu_dlpack(name):
    torch = torch_or_skip()
    x = cp.asarray((np.arange(24) % 5).astype(name).reshape(4, 6), device="cuda:0")
    for view in (x, x[1:, ::2], x.T):
        t = torch.from_dlpack(view)
        assert t.is_cuda and t.data_ptr() == view.data_ptr
        np.testing.assert_array_equal(t.cpu().numpy(), view.get())


def test_torch_writes_and_lifetimes():
    torch = torch_or_skip()
    t = torch.zeros(8, device="cuda")
    x = cp.from_dlpack(t)
    x += 3
    assert float(t.sum()) == 24.0  # the same memory, and torch's stream saw copper's work
    del t
    gc.collect()
    torch.cuda.empty_cache()
    np.testing.assert_array_equal(x.get(), np.full(8, 3.0))  # copper keeps torch's memory alive
    y = cp.arange(5.0, device="cuda:0")
    u = torch.from_dlpack(y)
    del y
    gc.collect()
    assert u.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_torch_streams():
    torch = torch_or_skip()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.arange(1 << 22, device="cuda", dtype=torch.float32) * 2
        x = cp.from_dlpack(t)  # torch orders its stream before copper's current stream
    assert x[-1].item() == float(2 * ((1 << 22) - 1))
    cs = cp.cuda.Stream(non_blocking=True)
    with cs:  # the producer's current stream is the one its pending work is on
        y = cp.arange(1 << 22, dtype=cp.float32) * 3
        with torch.cuda.stream(s):
            u = torch.from_dlpack(y)  # torch passes its stream: it waits for copper's
            assert float(u[-1]) == float(3 * ((1 << 22) - 1))


def test_torch_waits_for_deferred_work_it_imports():
    # With fusion on, the chain that computes y is still pending when torch asks for it:
    # the export must enqueue it before the stream hand-off, or torch reads stale memory.
    torch = torch_or_skip()
    was = cp.fusion_enabled()
    cp.set_fusion(True)
    try:
        s = torch.cuda.Stream()
        cs = cp.cuda.Stream(non_blocking=True)
        with cs:
            x = cp.arange(1 << 22, dtype=cp.float32)
            y = (x * 3 + 1) * 2
            assert cp._core._deferred_ops() > 0
            with torch.cuda.stream(s):
                u = torch.from_dlpack(y)
                got = u.cpu().numpy()  # on torch's stream, as ordered by the hand-off
        want = (np.arange(1 << 22, dtype=np.float32) * 3 + 1) * 2  # exact in float32
        np.testing.assert_array_equal(got, want)
    finally:
        cp.set_fusion(was)


def test_torch_cuda_array_interface_both_ways():
    torch = torch_or_skip()
    t = torch.arange(12, device="cuda", dtype=torch.float64).reshape(3, 4)
    x = cp.asarray(t)  # __cuda_array_interface__, no copy
    assert x.data_ptr == t.data_ptr()
    np.testing.assert_array_equal(x.get(), t.cpu().numpy())
    y = cp.arange(6.0, device="cuda:0")
    u = torch.as_tensor(y, device="cuda")
    assert u.data_ptr() == y.data_ptr


def test_torch_cpu_tensors():
    torch = torch_or_skip(gpu=False)
    t = torch.arange(10, dtype=torch.float32)
    x = cp.from_dlpack(t)
    assert x.device == cp.Device("cpu") and x.data_ptr == t.data_ptr()
    u = torch.from_dlpack(cp.arange(4.0, device="cpu"))
    assert u.tolist() == [0.0, 1.0, 2.0, 3.0]


# ---- CuPy ----

def cupy_or_skip():
    cupy = pytest.importorskip("cupy")
    if "cuda:0" not in DEVICES:
        pytest.skip("needs a GPU")
    return cupy


@pytest.mark.parametrize("name", TORCH_DTYPES + ["uint16", "uint32", "uint64"])
def test_cupy_both_ways(name):
    cupy = cupy_or_skip()
    c = cupy.asarray((np.arange(20) % 7).astype(name).reshape(4, 5))
    x = cp.from_dlpack(c)
    assert x.data_ptr == c.data.ptr
    np.testing.assert_array_equal(x.get(), c.get())
    back = cupy.from_dlpack(x.T)
    assert back.data.ptr == x.data_ptr
    np.testing.assert_array_equal(back.get(), x.T.get())
    y = cp.asarray(c[:, ::2])  # __cuda_array_interface__
    assert y.data_ptr == c[:, ::2].data.ptr
    z = cupy.asarray(x)  # CuPy reads copper's __cuda_array_interface__
    assert z.data.ptr == x.data_ptr


# ---- JAX ----

def jax_or_skip():
    jax = pytest.importorskip("jax")
    if "cuda:0" not in DEVICES or not [d for d in jax.devices() if d.platform == "gpu"]:
        pytest.skip("needs JAX with a GPU")
    return jax


@pytest.mark.parametrize("name", ["bool", "int32", "float32", "float16", "complex64"])
def test_jax_both_ways(name):
    jax = jax_or_skip()
    jnp = jax.numpy
    j = jnp.arange(12, dtype=jnp.int32).astype(name).reshape(3, 4)
    x = cp.from_dlpack(j)
    assert x.device == cp.Device("cuda:0")
    assert x.data_ptr == j.unsafe_buffer_pointer()
    np.testing.assert_array_equal(x.get(), np.asarray(j))
    y = cp.asarray(np.arange(12).astype(name).reshape(3, 4), device="cuda:0")
    k = jnp.from_dlpack(y)
    np.testing.assert_array_equal(np.asarray(k), y.get())
    assert k.unsafe_buffer_pointer() == y.data_ptr
    z = cp.asarray(j)  # a JAX array through asarray: DLPack or the interface, no copy
    assert z.data_ptr == j.unsafe_buffer_pointer()


# ---- Numba ----

def test_numba_device_arrays():
    numba_cuda = pytest.importorskip("numba.cuda")
    if "cuda:0" not in DEVICES or not numba_cuda.is_available():
        pytest.skip("needs Numba with a GPU")
    d = numba_cuda.to_device(np.arange(10.0))
    x = cp.asarray(d)
    assert x.data_ptr == d.device_ctypes_pointer.value
    np.testing.assert_array_equal(x.get(), np.arange(10.0))
    y = cp.arange(6.0, device="cuda:0")
    view = numba_cuda.as_cuda_array(y)
    assert view.device_ctypes_pointer.value == y.data_ptr
    np.testing.assert_array_equal(view.copy_to_host(), np.arange(6.0))
