"""__cuda_array_interface__ (version 3): exported by GPU arrays (with the stream copper's
work is on), absent from CPU arrays, and accepted by asarray/array without a copy, keeping
the producer alive. The GPU cases run where a GPU is present."""
import gc
import weakref

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, DEVICES, random_array

needs_gpu = pytest.mark.skipif("cuda:0" not in DEVICES, reason="needs a GPU")


class Foreign:
    """Another library's GPU array, reduced to its interface (it holds `owner`, as a
    producer holds its memory)."""

    def __init__(self, owner, **override):
        self.owner = owner
        self.iface = dict(owner.__cuda_array_interface__, **override)

    @property
    def __cuda_array_interface__(self):
        return self.iface


def test_cpu_arrays_have_no_interface():
    x = cp.zeros(3, device="cpu")
    assert not hasattr(x, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="GPU"):
        x.__cuda_array_interface__


def test_import_errors_without_a_gpu():
    if "cuda:0" in DEVICES:
        pytest.skip("a GPU is present")
    fake = type("F", (), {"__cuda_array_interface__": {"shape": (2,), "typestr": "<f8", "data": (1 << 20, False),
                                                       "version": 3}})()
    with pytest.raises(RuntimeError):
        cp.asarray(fake)


@needs_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_export_fields(dtype):
    x = cp.asarray(random_array(np.random.default_rng(1), (3, 4), dtype), device="cuda:0")
    d = x.__cuda_array_interface__
    assert d["version"] == 3 and d["shape"] == (3, 4) and d["strides"] is None
    assert d["typestr"] == np.dtype(dtype).str and d["descr"] == [("", np.dtype(dtype).str)]
    assert d["data"] == (x.data_ptr, False)
    assert d["stream"] == 1  # the legacy default stream, copper's default
    t = x.T.__cuda_array_interface__
    assert t["strides"] == x.T.strides
    with cp.cuda.Stream() as s:
        assert x.__cuda_array_interface__["stream"] == s.ptr
    assert cp.zeros((0, 3), device="cuda:0").__cuda_array_interface__["data"][0] == 0


@needs_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_import_is_zero_copy(dtype):
    x = cp.asarray(random_array(np.random.default_rng(2), (5, 6), dtype), device="cuda:0")
    for view in (x, x[1:, ::2], x.T, x[::-1]):
        y = cp.asarray(Foreign(view))
        assert y.data_ptr == view.data_ptr and y.strides == view.strides and y.dtype == view.dtype
        np.testing.assert_array_equal(y.get(), view.get())


@needs_gpu
def test_import_keeps_producer_alive_and_array_copies():
    x = cp.arange(10.0, device="cuda:0")
    producer = Foreign(x)
    alive = weakref.ref(producer)
    y = cp.asarray(producer)
    del producer, x
    gc.collect()
    assert alive() is not None  # copper holds it while y uses its memory
    np.testing.assert_array_equal(y.get(), np.arange(10.0))
    del y
    gc.collect()
    assert alive() is None
    src = cp.arange(4.0, device="cuda:0")
    c = cp.array(Foreign(src))  # copy=True by default, as numpy.array
    assert c.data_ptr != src.data_ptr
    assert cp.asarray(Foreign(src), dtype=cp.float32).dtype == np.float32
    assert cp.asarray(Foreign(src), device="cpu").device == cp.Device("cpu")


@needs_gpu
def test_import_waits_for_the_producer_stream_and_checks_fields():
    s = cp.cuda.Stream()
    with s:
        x = cp.arange(1 << 20, dtype=cp.float32) + 1
    y = cp.asarray(Foreign(x, stream=s.ptr))  # copper's stream waits for s
    assert y[-1].item() == float(1 << 20)
    with pytest.raises(ValueError, match="stream 0"):
        cp.asarray(Foreign(x, stream=0))
    with pytest.raises(ValueError, match="does not support"):
        cp.asarray(Foreign(x, mask=object()))
    with pytest.raises(ValueError, match="big-endian"):
        cp.asarray(Foreign(x, typestr=">f4"))
