"""DLPack: copper.from_dlpack and ndarray.__dlpack__ / __dlpack_device__ (versioned and
legacy capsules, copy and device requests, the stream argument), zero-copy with NumPy on
the CPU and with copper itself on every device."""
import gc
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, DEVICES, random_array


class Producer:
    """Hands out one prepared capsule, as a minimal DLPack producer."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def on(device):
    return (1, 0) if device == "cpu" else (2, int(device.split(":")[1]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_round_trip_shares_memory(device, dtype):
    rng = np.random.default_rng(1)
    x = cp.asarray(random_array(rng, (3, 4), dtype))
    y = cp.from_dlpack(x)
    assert y.dtype == x.dtype and y.shape == x.shape and y.device == x.device
    assert y.data_ptr == x.data_ptr
    np.testing.assert_array_equal(y.get(), x.get())


@pytest.mark.parametrize("max_version, name", [(None, "dltensor"), ((0, 8), "dltensor"),
                                               ((1, 0), "dltensor_versioned"), ((2, 3), "dltensor_versioned")])
def test_capsule_kind_follows_max_version(device, max_version, name):
    x = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    kwargs = {} if max_version is None else {"max_version": max_version}
    capsule = x.__dlpack__(**kwargs)
    assert f'"{name}"' in repr(capsule)
    y = cp.from_dlpack(Producer(capsule, x.__dlpack_device__()))
    assert f'"used_{name}"' in repr(capsule)
    assert y.data_ptr == x.data_ptr
    with pytest.raises(ValueError, match="consumed multiple times"):
        cp.from_dlpack(Producer(capsule, x.__dlpack_device__()))


def test_strided_views_and_negative_strides(device):
    base = cp.asarray(np.arange(60.0).reshape(5, 12))
    for view in (base[::2, 1::3], base[:, ::-1], base.T, base[3], base[1:1]):
        y = cp.from_dlpack(view)
        assert y.strides == view.strides
        np.testing.assert_array_equal(y.get(), view.get())


def test_zero_d_and_empty(device):
    for x in (cp.asarray(np.float32(2.5)), cp.zeros((0, 3)), cp.zeros((2, 0, 4), dtype=cp.int8)):
        y = cp.from_dlpack(x)
        assert y.shape == x.shape and y.dtype == x.dtype
        np.testing.assert_array_equal(y.get(), x.get())


def test_writes_are_shared(device):
    x = cp.zeros(5)
    y = cp.from_dlpack(x)
    y[1] = 7.0
    assert x[1].item() == 7.0


def test_copy_true_copies_and_copy_false_shares(device):
    x = cp.arange(4)
    c = cp.from_dlpack(x, copy=True)
    assert c.data_ptr != x.data_ptr
    c[0] = 9
    assert x[0].item() == 0
    assert cp.from_dlpack(x, copy=False).data_ptr == x.data_ptr


def test_unconsumed_capsule_releases_memory(device):
    x = cp.arange(10)
    capsule = x.__dlpack__(max_version=(1, 0))
    del x
    gc.collect()
    y = cp.from_dlpack(Producer(capsule, on(device)))  # the capsule kept the memory alive
    np.testing.assert_array_equal(y.get(), np.arange(10))
    capsule2 = cp.arange(3).__dlpack__()
    del capsule2  # the destructor runs the deleter: nothing leaks, nothing crashes
    gc.collect()


def test_import_keeps_producer_memory_after_producer_dies(device):
    x = cp.asarray(np.arange(8.0))
    y = cp.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(y.get(), np.arange(8.0))


def test_dl_device_to_cpu(device):
    x = cp.asarray(np.arange(6.0).reshape(2, 3))
    capsule = x.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    y = cp.from_dlpack(Producer(capsule, (1, 0)))
    assert y.device == cp.Device("cpu")
    np.testing.assert_array_equal(y.get(), x.get())
    if device != "cpu":
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(1, 0), copy=False)
        with pytest.raises(ValueError):  # CuPy's class for the same refusal
            x.__dlpack__(dl_device=(1, 0), copy=False)


def test_bad_dl_device_and_stream(device):
    x = cp.zeros(3)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(9, 0))
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 2**30))
    if device == "cpu":
        with pytest.raises(BufferError):
            x.__dlpack__(stream=1)


def test_from_dlpack_device_argument(device):
    x = cp.asarray(np.arange(5, dtype=np.int32))
    for target in DEVICES:
        y = cp.from_dlpack(x, device=target)
        assert y.device == cp.Device(target)
        np.testing.assert_array_equal(y.get(), x.get())
        if target != device:
            with pytest.raises(BufferError):
                cp.from_dlpack(x, device=target, copy=False)


def test_dlpack_device(device):
    assert cp.zeros(2).__dlpack_device__() == on(device)


def test_errors():
    with pytest.raises(TypeError, match="DLPack"):
        cp.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError):
        cp._core._from_dlpack_capsule(object())


# ---- NumPy, zero-copy both ways (CPU) ----

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_to_copper_zero_copy(dtype):
    a = random_array(np.random.default_rng(2), (4, 5), dtype)
    x = cp.from_dlpack(a)
    assert x.device == cp.Device("cpu") and x.dtype == a.dtype
    assert x.data_ptr == a.ctypes.data
    np.testing.assert_array_equal(x.get(), a)


def test_numpy_views_and_lifetime():
    a = np.arange(24.0).reshape(4, 6)
    x = cp.from_dlpack(a[::2, ::-2])
    np.testing.assert_array_equal(x.get(), a[::2, ::-2])
    a[0, 5] = -1.0
    assert x[0, 0].item() == -1.0  # the same memory
    del a
    gc.collect()
    assert x[0, 0].item() == -1.0  # NumPy's array stays alive with the copper array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copper_to_numpy_zero_copy(dtype):
    x = cp.asarray(random_array(np.random.default_rng(3), (3, 7), dtype), device="cpu")
    a = np.from_dlpack(x)
    assert a.dtype == x.dtype
    assert a.ctypes.data == x.data_ptr
    np.testing.assert_array_equal(a, x.get())
    x += 1 if dtype != np.bool_ else True
    np.testing.assert_array_equal(a, x.get())


def test_numpy_from_copper_copy_and_device():
    x = cp.arange(5.0, device="cpu")
    a = np.from_dlpack(x, copy=True)
    assert a.ctypes.data != x.data_ptr
    np.testing.assert_array_equal(a, np.arange(5.0))
    b = np.from_dlpack(x, device="cpu")
    assert b.ctypes.data == x.data_ptr


def test_numpy_readonly_import():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = cp.from_dlpack(a)  # copper arrays are writable; the import still shares
    assert x.data_ptr == a.ctypes.data


@pytest.mark.skipif("cuda:0" not in DEVICES, reason="needs a GPU")
def test_numpy_to_gpu_copies():
    a = np.arange(6.0)
    x = cp.from_dlpack(a, device="cuda:0")
    assert x.device == cp.Device("cuda:0")
    np.testing.assert_array_equal(x.get(), a)
    with pytest.raises(BufferError):
        cp.from_dlpack(a, device="cuda:0", copy=False)


@pytest.mark.skipif("cuda:0" not in DEVICES, reason="needs a GPU")
def test_stream_hand_off_on_gpu():
    s1, s2 = cp.cuda.Stream(), cp.cuda.Stream()
    with s1:
        x = cp.arange(1 << 20, dtype=cp.float32) * 2
        capsule = x.__dlpack__(stream=s2.ptr, max_version=(1, 0))
    with s2:
        y = cp.from_dlpack(Producer(capsule, (2, 0)))
        np.testing.assert_array_equal(y[:4].get(), [0, 2, 4, 6])
    x.__dlpack__(stream=-1)  # no synchronization asked
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        x.__dlpack__(stream=0)
    assert any("Stream 0" in str(m.message) for m in w)
    assert cp._core._current_stream_protocol_handle(0) == 1  # legacy default stream


def test_legacy_cupy_spelling(device):
    x = cp.arange(3)
    y = cp.from_dlpack(x.toDlpack())
    assert y.data_ptr == x.data_ptr


def test_cupy_legacy_from_dlpack_warns(device):
    x = cp.arange(3)
    with pytest.warns(np.exceptions.VisibleDeprecationWarning):
        y = cp.fromDlpack(x.toDlpack())
    assert y.data_ptr == x.data_ptr
