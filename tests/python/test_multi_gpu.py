"""Several GPUs, as CuPy's: copper.cuda.Device(i) picks where new arrays and kernels go,
arrays keep their device, asarray(a, device=...) copies between GPUs (peer access where
the GPUs have it), ops mixing two GPUs raise ValueError, and copper.cuda.runtime answers
device queries. Tests needing two GPUs skip cleanly with fewer."""
import numpy as np
import pytest

import copper as cp

HAVE_GPU = cp.cuda.is_available()
N_GPUS = cp.cuda.runtime.getDeviceCount()
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="needs a GPU usable by copper")
requires_two = pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs")
MIXED = r"arrays are on different devices \(cuda:0 and cuda:1\); move one with asarray\(x, device=\.\.\.\) first"


@pytest.fixture
def restore_device():
    previous = cp.get_default_device()
    yield
    cp.set_default_device(previous)


# ---------------------------------------------------------------- one GPU or none

def test_device_count_never_raises():
    assert isinstance(N_GPUS, int) and N_GPUS >= 0
    assert N_GPUS == cp.cuda.device_count()


@requires_gpu
def test_device_properties_have_cupys_keys():
    props = cp.cuda.runtime.getDeviceProperties(0)
    for key in ("name", "totalGlobalMem", "multiProcessorCount", "major", "minor", "warpSize", "maxThreadsPerBlock",
                "sharedMemPerBlock", "clockRate", "l2CacheSize"):
        assert key in props, key
    assert isinstance(props["name"], bytes) and props["name"]
    assert props["warpSize"] == 32
    assert props["maxThreadsPerBlock"] >= 1024
    assert props["totalGlobalMem"] >= cp.cuda.memory_stats(0)["total"] * 0.99
    assert props["multiProcessorCount"] > 0 and props["l2CacheSize"] > 0
    assert cp.cuda.Device(0).compute_capability == f"{props['major']}{props['minor']}"
    with pytest.raises(RuntimeError, match=rf"(cuda:|device ){N_GPUS}\b"):
        cp.cuda.runtime.getDeviceProperties(N_GPUS)


@requires_gpu
def test_device_context_manager_use_and_runtime_set_device(restore_device):
    cp.set_default_device("cpu")
    with cp.cuda.Device(0) as d:
        assert d.id == 0
        assert str(cp.zeros(2).device) == "cuda:0"
        assert cp.cuda.runtime.getDevice() == 0
    assert str(cp.get_default_device()) == "cpu"
    cp.cuda.Device(0).use()
    assert str(cp.zeros(2).device) == "cuda:0"
    cp.set_default_device("cpu")
    cp.cuda.runtime.setDevice(0)
    assert str(cp.get_default_device()) == "cuda:0"
    cp.cuda.Device(0).synchronize()
    with pytest.raises(RuntimeError, match=rf"(cuda:|device ){N_GPUS}\b"):
        cp.cuda.runtime.setDevice(N_GPUS)


@pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a usable GPU")
def test_without_a_gpu_device_queries_refuse():
    with pytest.raises(RuntimeError, match=r"(?i)cuda|gpu"):
        cp.cuda.runtime.getDeviceProperties(0)
    with pytest.raises(RuntimeError, match=r"(?i)cuda|gpu"):
        cp.cuda.runtime.setDevice(1)  # device 0 stands for the CPU without a GPU


@requires_gpu
def test_asarray_to_the_same_gpu_is_the_array_itself(rng):
    a = cp.asarray(rng.standard_normal(5), device="cuda:0")
    assert cp.asarray(a, device="cuda:0") is a or np.array_equal(cp.asarray(a, device="cuda:0").get(), a.get())


# ---------------------------------------------------------------- two GPUs

@requires_two
def test_arrays_and_kernels_follow_the_device(restore_device, rng):
    xn = rng.standard_normal((30, 7))
    with cp.cuda.Device(1):
        x = cp.asarray(xn)
        y = cp.sin(x) * 2 + x.sum(axis=0)
    assert str(x.device) == str(y.device) == "cuda:1"
    # Ops run where their arrays are, whatever the default device is now.
    with cp.cuda.Device(0):
        z = y - 1
    assert str(z.device) == "cuda:1"
    np.testing.assert_allclose(z.get(), np.sin(xn) * 2 + xn.sum(axis=0) - 1, rtol=1e-12, atol=1e-12)


@requires_two
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.complex128])
def test_copies_between_gpus(rng, dtype):
    xn = (rng.standard_normal((33, 65)) * 100).astype(dtype)
    a0 = cp.asarray(xn, device="cuda:0")
    a1 = cp.asarray(a0, device="cuda:1")
    assert str(a1.device) == "cuda:1"
    np.testing.assert_array_equal(a1.get(), xn)
    back = cp.asarray(a1[::2, ::-3], device="cuda:0")  # non-contiguous source
    assert str(back.device) == "cuda:0"
    np.testing.assert_array_equal(back.get(), xn[::2, ::-3])
    cast = cp.asarray(a0, dtype=np.float64, device="cuda:1")
    np.testing.assert_array_equal(cast.get(), xn.astype(np.float64))


@requires_two
def test_copy_is_ordered_after_pending_work_and_before_frees(rng):
    # A long queue of work on GPU 0 writes the source; the copy must see the final values,
    # and the source may be freed right after without harm to the copy.
    n = 1 << 22
    x = cp.zeros(n, device="cuda:0")
    for _ in range(50):
        x += 1
    moved = cp.asarray(x, device="cuda:1")
    del x
    np.testing.assert_array_equal(moved.get(), np.full(n, 50.0))


@requires_two
def test_mixing_gpus_raises_value_error_and_leaves_arrays_untouched(rng):
    xn = rng.standard_normal(10)
    a, b = cp.asarray(xn, device="cuda:0"), cp.asarray(xn, device="cuda:1")
    with pytest.raises(ValueError, match=MIXED):
        a + b
    with pytest.raises(ValueError, match=MIXED):
        cp.add(a, a, out=b)
    with pytest.raises(ValueError, match=MIXED):
        a += b
    with pytest.raises(ValueError, match=r"different devices"):
        cp.matmul(a, b)
    np.testing.assert_array_equal(a.get(), xn)
    np.testing.assert_array_equal(b.get(), xn)


@requires_two
def test_peer_access_query_and_streams_per_device():
    assert isinstance(cp.cuda.runtime.deviceCanAccessPeer(0, 1), int)
    assert cp.cuda.Device(0).can_access_peer(1) == bool(cp.cuda.runtime.deviceCanAccessPeer(0, 1))
    s1 = cp.cuda.Stream(device=1)
    assert s1.device_id == 1
    with s1:
        x = cp.ones(100, device="cuda:1") * 3
    s1.synchronize()
    np.testing.assert_array_equal(x.get(), np.full(100, 3.0))


@requires_two
def test_profiler_times_several_devices():
    a, b = cp.ones(1000, device="cuda:0"), cp.ones(1000, device="cuda:1")
    r = cp.profiler.benchmark(lambda: (a + 1, b + 1), n_repeat=5, n_warmup=1, devices=(0, 1))
    assert r.gpu_times.shape == (2, 5)
    assert "GPU-0" in str(r) and "GPU-1" in str(r)


@requires_two
def test_large_transfers_alternate_between_gpus(rng):
    # Over 1 MiB, copies go through the shared pinned ring; each GPU must record its own
    # events there (an event of GPU 1's context cannot be recorded on GPU 0's stream).
    xn = rng.standard_normal(3 << 20)  # 24 MiB: two ring chunks
    for device in ("cuda:1", "cuda:0", "cuda:1", "cuda:0"):
        a = cp.asarray(xn, device=device)
        np.testing.assert_array_equal(a.get(), xn)
    s = cp.cuda.Stream(non_blocking=True, device=0)
    assert isinstance(s.record(), cp.cuda.Event)
