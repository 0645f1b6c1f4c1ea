"""copper.cuda, the CuPy-style GPU runtime: streams, events, devices, the memory pool,
out-of-memory recovery and the on-disk kernel cache. GPU tests skip where copper finds
no usable GPU; the CPU-only behaviour (streams, events and device 0 acting on the CPU
device, clear RuntimeErrors for GPU-only calls) is tested there instead."""
import ast
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import copper as cp

HAVE_GPU = cp.cuda.is_available()
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="needs a GPU usable by copper")
cpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a usable GPU")

# What copper says when a GPU call is made without one: the runtime's own message, or the
# registry's ("device cuda:0 requested, but ..."); both name CUDA or the GPU.
NO_GPU_MESSAGE = r"(?i)cuda|gpu"
MiB = 1 << 20
GiB = 1 << 30


@pytest.fixture
def gpu():
    """GPU 0 as the default device, with the pool's limit restored afterwards."""
    previous = cp.get_default_device()
    cp.set_default_device("cuda:0")
    stats = cp.cuda.memory_stats()
    saved_limit = stats["limit"] if stats["limit"] != stats["total"] else 0
    try:
        yield
    finally:
        cp.cuda.set_memory_limit(saved_limit)
        cp.set_default_device(previous)


@pytest.fixture
def no_gc():
    """Exact byte counts: arrays that earlier tests left in reference cycles (tracebacks)
    are collected first, and the collector stays off while the test counts bytes."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# ---------------------------------------------------------------- API surface (any machine)

def test_out_of_memory_error_is_a_memory_error_everywhere():
    assert cp.cuda.OutOfMemoryError is cp.OutOfMemoryError
    assert issubclass(cp.OutOfMemoryError, MemoryError)


def test_device_count_and_runtime_alias():
    n = cp.cuda.device_count()
    assert isinstance(n, int) and n >= 0
    assert cp.cuda.runtime.getDeviceCount() == n
    if HAVE_GPU:
        assert n >= 1


def test_device_objects_need_no_gpu_to_be_named():
    d = cp.cuda.Device(3)
    assert d.id == 3 and int(d) == 3
    assert d == cp.cuda.Device("cuda:3") == cp.cuda.Device(cp.Device("cuda:3")) == cp.cuda.Device(d)
    assert d != cp.cuda.Device(2)
    assert len({d, cp.cuda.Device(3)}) == 1
    assert repr(d) == "<CUDA Device 3>"


@pytest.mark.parametrize("bad, error, message", [
    ("cpu", ValueError, "device cpu is not a CUDA device"),
    (-2, ValueError, "invalid CUDA device index -2"),
    (1.5, TypeError, "device must be"),
    (True, TypeError, "device must be"),
    ("tpu", ValueError, "invalid device 'tpu'"),
])
def test_device_rejects_what_is_not_a_gpu(bad, error, message):
    with pytest.raises(error, match=message):
        cp.cuda.Device(bad)


def test_memory_pool_is_one_object_and_checks_arguments_first():
    pool = cp.get_default_memory_pool()
    assert pool is cp.cuda.get_default_memory_pool()
    with pytest.raises(ValueError, match="size and fraction cannot be specified at the same time"):
        pool.set_limit(size=1, fraction=0.5)
    with pytest.raises(ValueError, match="fraction must be between 0 and 1"):
        pool.set_limit(fraction=1.5)


# ---------------------------------------------------------------- without a GPU

# Calls that mean something on any device act on the CPU device (device 0) without a GPU.
CPU_DEVICE_CALLS = {
    "Stream()": lambda: cp.cuda.Stream(),
    "Stream(non_blocking=True)": lambda: cp.cuda.Stream(non_blocking=True),
    "Stream.null": lambda: cp.cuda.Stream.null,
    "Stream.null.synchronize": lambda: cp.cuda.Stream.null.synchronize(),
    "get_current_stream": lambda: cp.cuda.get_current_stream(),
    "Event()": lambda: cp.cuda.Event(),
    "synchronize": lambda: cp.cuda.synchronize(),
    "current_device": lambda: cp.cuda.current_device(),
    "Device()": lambda: cp.cuda.Device(),
    "Device(0).synchronize": lambda: cp.cuda.Device(0).synchronize(),
    "Device().synchronize": lambda: cp.cuda.Device().synchronize(),
    "free_all_blocks": lambda: cp.cuda.free_all_blocks(),
    "runtime.deviceSynchronize": lambda: cp.cuda.runtime.deviceSynchronize(),
}

# GPU-only requests keep raising RuntimeError that names CUDA or the GPU.
NO_GPU_CALLS = {
    "memory_stats": lambda: cp.cuda.memory_stats(),
    "set_memory_limit": lambda: cp.cuda.set_memory_limit(MiB),
    "reset_peak_memory": lambda: cp.cuda.reset_peak_memory(),
    "pool.used_bytes": lambda: cp.get_default_memory_pool().used_bytes(),
    "Device(1).use": lambda: cp.cuda.Device(1).use(),
    "Device(1).synchronize": lambda: cp.cuda.Device(1).synchronize(),
    "Stream(device=1)": lambda: cp.cuda.Stream(device=1),
    "Event(device=1)": lambda: cp.cuda.Event(device=1),
    "begin_capture": lambda: cp.cuda.Stream().begin_capture(),
    "compute_capability": lambda: cp.cuda.Device(0).compute_capability,
    "getDeviceProperties": lambda: cp.cuda.runtime.getDeviceProperties(0),
    "RawKernel launch": lambda: cp.RawKernel('extern "C" __global__ void k() {}', "k")((1,), (1,), ()),
}


@cpu_only
@pytest.mark.parametrize("name", list(CPU_DEVICE_CALLS))
def test_without_gpu_runtime_calls_act_on_the_cpu(name):
    assert cp.cuda.is_available() is False
    CPU_DEVICE_CALLS[name]()


@cpu_only
@pytest.mark.parametrize("name", list(NO_GPU_CALLS))
def test_without_gpu_gpu_only_calls_raise(name):
    with pytest.raises(RuntimeError, match=NO_GPU_MESSAGE):
        NO_GPU_CALLS[name]()


@cpu_only
def test_without_gpu_streams_and_events_time_cpu_work():
    null = cp.cuda.Stream.null
    assert null.ptr == 0 and null == cp.cuda.Stream.null and null.device_id == 0
    assert cp.cuda.get_current_stream() == null
    s = cp.cuda.Stream(non_blocking=True)
    assert s.ptr != 0 and s != null and s.done
    with s:
        assert cp.cuda.get_current_stream() == s
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        x = cp.arange(200_000, dtype=cp.float64)
        y = (x * x).sum()
        end.record()
    assert cp.cuda.get_current_stream() == null
    end.synchronize()
    assert start.done and end.done
    ms = cp.cuda.get_elapsed_time(start, end)
    assert isinstance(ms, float) and ms >= 0
    assert float(y) == float(np.sum(np.arange(200_000, dtype=np.float64) ** 2))
    assert s.record() is not None
    s.wait_event(start)
    with pytest.raises(ValueError, match="recorded"):
        cp.cuda.get_elapsed_time(cp.cuda.Event(), end)


@cpu_only
def test_without_gpu_device_zero_is_the_cpu():
    before = cp.get_default_device()
    assert cp.cuda.Device().id == 0
    with cp.cuda.Device(0) as d:
        assert d.id == 0
        assert cp.zeros(2).device == cp.Device("cpu")
        d.synchronize()
    assert cp.get_default_device() == before
    with pytest.raises(RuntimeError, match=r"CUDA device 1 requested"):
        with cp.cuda.Device(1):
            pass  # pragma: no cover
    assert cp.get_default_device() == before


# ---------------------------------------------------------------- streams

@requires_gpu
def test_null_stream_is_the_legacy_default_stream(gpu):
    assert cp.cuda.Stream.null.ptr == 0
    assert cp.cuda.Stream(null=True).ptr == 0
    assert cp.cuda.get_current_stream().ptr == 0  # nothing entered yet on this thread
    x = cp.ones(1000)
    cp.cuda.Stream.null.synchronize()
    assert cp.cuda.Stream.null.done
    assert float(x.sum()) == 1000.0


@requires_gpu
def test_stream_contexts_nest_and_restore(gpu):
    outer = cp.cuda.get_current_stream().ptr
    s1 = cp.cuda.Stream()
    s2 = cp.cuda.Stream(non_blocking=True)
    assert s1.ptr != 0 and s2.ptr != 0 and s1.ptr != s2.ptr
    assert s1.device_id == 0 and s2.device_id == 0
    assert s1 == s1 and s1 != s2
    with s1 as entered:
        assert entered is s1
        assert cp.cuda.get_current_stream().ptr == s1.ptr
        with s2:
            assert cp.cuda.get_current_stream().ptr == s2.ptr
            with s1:  # the same stream entered twice
                assert cp.cuda.get_current_stream().ptr == s1.ptr
            assert cp.cuda.get_current_stream().ptr == s2.ptr
        assert cp.cuda.get_current_stream().ptr == s1.ptr
    assert cp.cuda.get_current_stream().ptr == outer


@requires_gpu
def test_stream_context_restores_after_an_exception(gpu):
    outer = cp.cuda.get_current_stream().ptr
    s = cp.cuda.Stream()
    with pytest.raises(ZeroDivisionError):
        with s:
            1 / 0
    assert cp.cuda.get_current_stream().ptr == outer


@requires_gpu
def test_stream_use_makes_it_current_until_replaced(gpu):
    s = cp.cuda.Stream()
    try:
        assert s.use() is s
        assert cp.cuda.get_current_stream().ptr == s.ptr
    finally:
        cp.cuda.Stream.null.use()
    assert cp.cuda.get_current_stream().ptr == 0


@requires_gpu
def test_work_on_a_non_blocking_stream_is_right_after_sync(gpu, rng):
    n = rng.uniform(-10, 10, (1000, 1000))
    x = cp.asarray(n)
    # A non-blocking stream does not wait for the legacy stream the upload used.
    cp.cuda.Stream.null.synchronize()
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        y = cp.sqrt(x * x + 1.0)
        t = cp.sum(y, axis=1)
    s.synchronize()
    assert s.done
    # Each elementwise op is its own kernel and rounds once, as NumPy's (sqrt is correctly
    # rounded in f64 on both). The row sums of 1000 positive terms differ only by summation
    # order: under 1000 * 2**-53 ~ 1.1e-13 relative even in the worst order.
    np.testing.assert_array_equal(y.get(), np.sqrt(n * n + 1.0))
    np.testing.assert_allclose(t.get(), np.sqrt(n * n + 1.0).sum(axis=1), rtol=2e-13)


@requires_gpu
def test_blocking_stream_orders_after_the_legacy_stream_and_host_reads_wait(gpu, rng):
    n = rng.uniform(-10, 10, 1 << 20).astype(np.float32)
    x = cp.asarray(n)  # on the legacy stream; a blocking stream waits for it
    with cp.cuda.Stream():
        y = x * np.float32(3) - np.float32(1)
        got = y.get()  # a host read waits for the current stream
    np.testing.assert_array_equal(got, n * np.float32(3) - np.float32(1))


@requires_gpu
def test_streams_order_through_events(gpu, rng):
    n = rng.uniform(-10, 10, 1 << 22)
    x = cp.asarray(n)
    cp.cuda.Stream.null.synchronize()
    s1 = cp.cuda.Stream(non_blocking=True)
    s2 = cp.cuda.Stream(non_blocking=True)
    expected = n
    with s1:
        y = x
        for _ in range(10):
            y = y * 1.5
            expected = expected * 1.5
        ready = s1.record()
    assert isinstance(ready, cp.cuda.Event)
    s2.wait_event(ready)
    with s2:
        z = y + 1.0
        got = z.get()
    np.testing.assert_array_equal(got, expected + 1.0)
    del y  # only now: y's memory is freed in s1's order, after s2 read it


# ---------------------------------------------------------------- events

@requires_gpu
def test_event_timing_is_positive_and_ordered(gpu):
    x = cp.ones(1 << 24, dtype=np.float32)
    e0, e1, e2 = cp.cuda.Event(), cp.cuda.Event(), cp.cuda.Event()
    e0.record()
    for _ in range(20):
        x *= np.float32(1.0001)
    e1.record()
    for _ in range(20):
        x *= np.float32(1.0001)
    e2.record(stream=cp.cuda.get_current_stream())
    e2.synchronize()
    assert e0.done and e1.done and e2.done
    t01 = cp.cuda.get_elapsed_time(e0, e1)
    t12 = cp.cuda.get_elapsed_time(e1, e2)
    t02 = cp.cuda.get_elapsed_time(e0, e2)
    assert isinstance(t02, float)
    assert t01 > 0 and t12 > 0
    assert t02 >= t01 and t02 >= t12
    # The three spans come from the same timestamps; only float rounding separates them.
    assert abs((t01 + t12) - t02) <= 1e-2 + 1e-3 * t02


@requires_gpu
def test_events_on_an_explicit_stream(gpu):
    s = cp.cuda.Stream(non_blocking=True)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    with s:
        x = cp.arange(1 << 22, dtype=np.float64)
        start.record(s)
        y = x * 2.0
        end.record(s)
    end.synchronize()
    assert end.done
    assert cp.cuda.get_elapsed_time(start, end) > 0
    marker = cp.cuda.Event(disable_timing=True)
    assert s.record(marker) is marker  # as CuPy: the event passed in comes back
    marker.synchronize()
    assert marker.done
    assert float(y[-1].item()) == 2.0 * ((1 << 22) - 1)


# ---------------------------------------------------------------- devices

@requires_gpu
def test_device_context_sends_new_arrays_to_that_gpu():
    previous = cp.get_default_device()
    cp.set_default_device("cpu")
    try:
        with cp.cuda.Device(0) as d:
            assert d.id == 0
            assert str(cp.get_default_device()) == "cuda:0"
            a = cp.zeros(3)
            with cp.cuda.Device(0):
                b = cp.arange(4.0)
            assert str(cp.get_default_device()) == "cuda:0"
            assert cp.cuda.Device().id == 0 == cp.cuda.current_device()
        assert str(a.device) == "cuda:0" and str(b.device) == "cuda:0"
        assert str(cp.get_default_device()) == "cpu"
        assert str(cp.zeros(2).device) == "cpu"
        with pytest.raises(KeyError):
            with cp.cuda.Device(0):
                raise KeyError("boom")
        assert str(cp.get_default_device()) == "cpu"
    finally:
        cp.set_default_device(previous)
    np.testing.assert_array_equal(b.get(), np.arange(4.0))


@requires_gpu
def test_device_synchronize_and_missing_device(gpu):
    x = cp.ones(1 << 20) * 2.0
    cp.cuda.Device(0).synchronize()
    cp.cuda.synchronize()
    cp.cuda.synchronize(0)
    assert float(x.sum()) == 2.0 * (1 << 20)
    missing = cp.cuda.device_count()
    before = cp.get_default_device()
    with pytest.raises(RuntimeError, match=rf"(cuda:|device ){missing}\b"):
        with cp.cuda.Device(missing):
            pass  # pragma: no cover
    assert cp.get_default_device() == before


# ---------------------------------------------------------------- memory

@requires_gpu
def test_used_memory_follows_allocations(gpu, no_gc):
    cp.cuda.synchronize()
    before = cp.cuda.memory_stats()
    assert set(before) == {"used", "cached", "peak", "limit", "total"}
    assert before["total"] > 0 and before["limit"] > 0
    if "COPPER_GPU_MEMORY_LIMIT" not in os.environ:
        assert before["limit"] == before["total"]
    x = cp.empty(MiB, dtype=np.float32)
    during = cp.cuda.memory_stats()
    assert during["used"] - before["used"] == x.nbytes == 4 * MiB
    assert during["peak"] >= during["used"]
    empty = cp.empty((0, 5), dtype=np.float64)
    assert cp.cuda.memory_stats()["used"] == during["used"]  # nothing to hold
    del x, empty
    after = cp.cuda.memory_stats()
    assert after["used"] == before["used"]
    assert after["peak"] >= during["used"]
    cp.cuda.reset_peak_memory()
    assert cp.cuda.memory_stats()["peak"] == after["used"]


@requires_gpu
def test_memory_pool_reports_and_frees(gpu):
    pool = cp.get_default_memory_pool()
    x = cp.ones(8 * MiB, dtype=np.uint8)
    assert pool.used_bytes() == cp.cuda.memory_stats()["used"]
    assert pool.total_bytes() >= pool.used_bytes() >= x.nbytes
    del x
    cached_before = pool.free_bytes()
    pool.free_all_blocks()
    assert pool.free_bytes() <= cached_before
    cp.cuda.free_all_blocks(0)
    assert float(cp.ones(10).sum()) == 10.0  # still usable after returning blocks


@requires_gpu
def test_memory_limit_is_enforced_then_lifted(gpu, no_gc):
    pool = cp.get_default_memory_pool()
    cp.cuda.synchronize()
    used = cp.cuda.memory_stats()["used"]
    cp.cuda.set_memory_limit(used + MiB)
    assert cp.cuda.memory_stats()["limit"] == used + MiB
    asked = 8 * MiB
    with pytest.raises(cp.cuda.OutOfMemoryError, match=rf"\b{asked} bytes") as info:
        cp.empty(asked // 8, dtype=np.float64)
    assert isinstance(info.value, MemoryError)
    assert "in use" in str(info.value)
    small = cp.full(1000, 2.5)  # 8000 bytes fit under the limit
    assert float(small.sum()) == 2500.0
    cp.cuda.set_memory_limit(0)
    assert cp.cuda.memory_stats()["limit"] == cp.cuda.memory_stats()["total"]
    big = cp.ones(asked // 8)
    assert float(big.sum()) == asked // 8

    pool.set_limit(size=used + 3 * MiB)
    assert pool.get_limit() == used + 3 * MiB
    pool.set_limit(fraction=0.5)
    assert pool.get_limit() == int(cp.cuda.memory_stats()["total"] * 0.5)
    pool.set_limit()
    assert pool.get_limit() == cp.cuda.memory_stats()["total"]


@requires_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_in_place_multiply_allocates_nothing(gpu, no_gc, rng, dtype):
    n = rng.uniform(-100, 100, 1 << 22).astype(dtype)
    x = cp.asarray(n)
    where = x.data_ptr
    cp.cuda.synchronize()
    cp.cuda.reset_peak_memory()
    before = cp.cuda.memory_stats()
    assert before["peak"] == before["used"]
    x *= 5
    assert x.data_ptr == where
    cp.cuda.synchronize()
    after = cp.cuda.memory_stats()
    assert after["peak"] == before["peak"]
    assert after["used"] == before["used"]
    np.testing.assert_array_equal(x.get(), n * dtype(5))


@requires_gpu
def test_out_of_memory_then_keeps_computing(gpu):
    gc.collect()  # arrays left in reference cycles by earlier tests give their memory back
    total = cp.cuda.memory_stats()["total"]
    asked = total + GiB
    with pytest.raises(cp.cuda.OutOfMemoryError, match=rf"\b{asked} bytes") as info:
        cp.empty(asked, dtype=np.uint8)
    assert "in use" in str(info.value)
    # Fill the card in 1 GiB pieces until it refuses, then give everything back.
    chunks = []
    with pytest.raises(cp.cuda.OutOfMemoryError):
        for _ in range(total // GiB + 2):
            chunks.append(cp.empty(GiB, dtype=np.uint8))
    assert len(chunks) >= total // GiB // 2
    del chunks
    cp.cuda.free_all_blocks()
    x = cp.arange(1_000_000, dtype=np.int64)
    assert int(x.sum()) == 499_999_500_000
    half = cp.zeros(total // 2, dtype=np.uint8)  # the memory really came back
    assert int(half[-1000:].sum()) == 0
    del half


# ---------------------------------------------------------------- disk kernel cache

CACHE_SCRIPT = """
import copper as cp
x = cp.arange(24, dtype="float64").reshape(4, 6)
y = cp.sum(x * 3.5 - 2.0, axis=0) + cp.sqrt(x[1])
print(repr(y.get().tolist()))
"""


def _expected_cache_result():
    x = np.arange(24, dtype=np.float64).reshape(4, 6)
    return (np.sum(x * 3.5 - 2.0, axis=0) + np.sqrt(x[1])).tolist()


def _run_cache_script(cache_dir):
    env = dict(os.environ, COPPER_CACHE_DIR=str(cache_dir), COPPER_DEVICE="cuda:0")
    done = subprocess.run([sys.executable, "-c", CACHE_SCRIPT], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    # Exact: the inputs are small integers, so the products and the 4-term sums are exact,
    # and sqrt rounds correctly on both sides.
    assert ast.literal_eval(done.stdout.strip().splitlines()[-1]) == _expected_cache_result()


def _cache_files(cache_dir):
    return {p: p.read_bytes() for p in sorted(cache_dir.rglob("*")) if p.is_file()}


def _truncate_half(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


def _truncate_empty(path):
    with open(path, "r+b") as f:
        f.truncate(0)


def _flip_bytes(path):
    data = bytearray(path.read_bytes())
    for at in {len(data) // 3, len(data) // 2, len(data) - 1}:
        data[at] ^= 0xFF
    path.write_bytes(bytes(data))


@requires_gpu
@pytest.mark.parametrize("damage", [_truncate_half, _truncate_empty, _flip_bytes],
                         ids=["truncated", "emptied", "corrupted"])
def test_damaged_disk_cache_entries_are_recompiled(tmp_path, damage):
    cache = tmp_path / "kernels"
    _run_cache_script(cache)  # empty cache: compiles and writes every kernel it needs
    written = _cache_files(cache)
    assert written, "no kernel cache entries were written under COPPER_CACHE_DIR"
    for path in written:
        damage(path)
    damaged = _cache_files(cache)
    _run_cache_script(cache)  # fresh process: must detect the damage, recompile, rewrite
    rewritten = _cache_files(cache)
    assert set(rewritten) == set(written)
    for path, data in rewritten.items():
        assert len(data) == len(written[path]), path
        assert data != damaged[path], path
    _run_cache_script(cache)  # the rewritten entries are valid: used as they are
    assert _cache_files(cache) == rewritten
