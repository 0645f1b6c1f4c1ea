"""CuPy's compatibility surface of issue 14: copper.testing assertions with copper and NumPy
on either side, memory pool objects, ndarray.set/get with stream=, and the synchronize and
timing calls that must run on the CPU device too."""
import numpy as np
import pytest

import copper as cp


def test_testing_accepts_both_sides(device):
    a = cp.asarray([1.0, 2.0, 3.0])
    h = np.array([1.0, 2.0, 3.0])
    for x, y in [(a, h), (h, a), (a, a), (h, h)]:
        cp.testing.assert_allclose(x, y)
        cp.testing.assert_array_equal(x, y)
        cp.testing.assert_array_almost_equal(x, y)
        cp.testing.assert_array_max_ulp(x, y)
        cp.testing.assert_array_less(x, y + 1)
    cp.testing.assert_array_list_equal([a, a], [h, h])
    with pytest.raises(AssertionError):
        cp.testing.assert_allclose(a, h + 1e-3)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(a, h[::-1])
    with pytest.raises(AssertionError):
        cp.testing.assert_array_less(h, a)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_list_equal([a], [a, a])
    m = cp.arange(6.0).reshape(2, 3)
    cp.testing.assert_array_equal(m, m.copy(), strides_check=True)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(m, cp.asfortranarray(m), strides_check=True)


def test_memory_pools(device):
    pool = cp.get_default_memory_pool()
    mem = pool.malloc(1024)
    assert mem.ptr != 0
    if device.startswith("cuda"):  # the CPU device keeps no pool statistics
        assert pool.used_bytes() >= 1024 and pool.total_bytes() >= pool.used_bytes()
    assert isinstance(pool.n_free_blocks(), int)
    pool.free_all_blocks()
    with pytest.raises(NotImplementedError):
        cp.cuda.MemoryPool(lambda n: None)
    pinned = cp.get_default_pinned_memory_pool()
    assert pinned is cp.cuda.get_default_pinned_memory_pool()
    buf = cp.cuda.alloc_pinned_memory(64)
    assert buf.size == 64 and buf.ptr != 0
    view = np.frombuffer(buf, np.float32, 16)
    view[:] = 7
    assert np.frombuffer(buf, np.float32)[3] == 7
    pinned.free_all_blocks()
    assert pinned.n_free_blocks() == 0
    cp.cuda.set_allocator(None)
    cp.cuda.set_allocator(cp.cuda.MemoryPool().malloc)
    cp.cuda.set_pinned_memory_allocator(None)
    assert cp.cuda.alloc_pinned_memory(8).size == 8
    try:  # a failing allocator (CuPy's test of the fallback) does not stop transfers
        cp.cuda.set_pinned_memory_allocator(lambda n: None)
        assert cp.cuda.alloc_pinned_memory(8) is None
        np.testing.assert_array_equal(cp.asarray(np.arange(3.0)).get(), np.arange(3.0))
    finally:
        cp.cuda.set_pinned_memory_allocator(cp.get_default_pinned_memory_pool().malloc)
    with pytest.raises(TypeError):
        cp.cuda.set_pinned_memory_allocator(3)
    with pytest.raises(NotImplementedError):
        cp.cuda.set_allocator(lambda n: None)
    with cp.cuda.using_allocator(cp.get_default_memory_pool().malloc):  # copper's own pool: accepted
        np.testing.assert_array_equal(cp.arange(4).get(), np.arange(4))
    with cp.cuda.using_allocator(None):
        pass
    with pytest.raises(NotImplementedError):
        with cp.cuda.using_allocator(lambda n: None):
            pass
    assert cp.cuda.memory.MemoryPool is cp.cuda.MemoryPool
    assert cp.cuda.pinned_memory.PinnedMemoryPool is cp.cuda.PinnedMemoryPool


def test_ndarray_set_and_get_with_stream(device):
    a = cp.zeros((2, 3), dtype=np.float32)
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    a.set(h)
    np.testing.assert_array_equal(a.get(), h)
    s = cp.cuda.Stream()
    a.set(h * 2, stream=s)
    out = np.empty((2, 3), dtype=np.float32)
    a.get(out=out, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, h * 2)
    with pytest.raises(TypeError):
        a.set(h.astype(np.float64))
    with pytest.raises(ValueError):
        a.set(h.reshape(3, 2))
    with pytest.raises(TypeError):
        a.set([1, 2, 3])


def test_synchronize_and_time(device):
    x = cp.arange(1000) * 2
    cp.cuda.Stream.null.synchronize()
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.stream.Event(), cp.cuda.Event()
    start.record()
    y = x + 1
    stop.record()
    stop.synchronize()
    assert cp.cuda.get_elapsed_time(start, stop) >= 0
    assert cp.cuda.stream.get_current_stream() is not None
    assert int(y[-1]) == 1999
