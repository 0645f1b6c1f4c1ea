"""copper.fft.config's plan caches (CuPy's interface): a repeated transform finds its
plan again, the count and byte limits evict the least recently used plan."""
import contextlib
import io

import numpy as np
import pytest

import copper as cp
from copper.fft import config


@pytest.fixture
def cache(device):
    c = config.get_plan_cache()
    old_size, old_memsize = c.get_size(), c.get_memsize()
    c.clear()
    c.set_memsize(-1)
    c.set_size(2)
    yield c
    c.clear()
    c.set_size(old_size)
    c.set_memsize(old_memsize)


def test_repeated_shape_is_a_hit(cache):
    a = cp.asarray(np.arange(10, dtype=np.float32))
    misses, hits = cache.get_misses(), cache.get_hits()
    cp.fft.fft(a)
    assert cache.get_curr_size() == 1 and cache.get_misses() == misses + 1
    plan0 = next(iter(cache))[1].plan
    for _ in range(3):
        cp.fft.fft(a)
    assert cache.get_curr_size() == 1
    assert cache.get_hits() == hits + 3
    assert next(iter(cache))[1].plan is plan0
    # Another array of the same shape, dtype and layout uses the same plan.
    cp.fft.fft(cp.asarray(np.ones(10, np.float32)))
    assert cache.get_curr_size() == 1 and cache.get_hits() == hits + 4


def test_eviction_at_the_size_limit(cache):
    cp.fft.fft(cp.ones(10, np.complex64))
    first = next(iter(cache))[1].plan
    cp.fft.fft(cp.ones(20, np.complex64))
    cp.fft.fft(cp.ones(30, np.complex64))
    assert cache.get_curr_size() == 2 == len(cache)
    assert all(node.plan is not first for _, node in cache)


def test_most_recently_used_first_and_plan_types(cache, device):
    # the classes the caches hold (cp.cuda.cufft.Plan1d / PlanNd cover them and held plans)
    if device == "cpu":  # the CPU backend runs fftn one axis at a time: 1-D plans only
        cp.fft.fft(cp.ones(10, np.float32))
        cp.fft.fftn(cp.ones((10, 20), np.complex64), axes=(1,))
        assert [type(node.plan) for _, node in cache] == [cp._core._fft.Plan1d] * 2
        cp.fft.fft(cp.ones(10, np.float32))  # a hit moves it to the front
        assert "n=(10)" in next(iter(cache))[1].plan.description
        return
    cp.fft.fft(cp.ones(10, np.float32))
    cp.fft.fftn(cp.ones((10, 20), np.float32))
    kinds = [type(node.plan) for _, node in cache]
    assert kinds == [cp._core._fft.PlanNd, cp._core._fft.Plan1d]
    cp.fft.fft(cp.ones(10, np.float32))  # a hit moves it to the front
    assert [type(node.plan) for _, node in cache] == [cp._core._fft.Plan1d, cp._core._fft.PlanNd]
    keys = [k for k, _ in cache]
    for _ in range(10):
        cache[keys[1]]
    assert len(cache) == 2


def test_delete_get_and_show_info(cache):
    cp.fft.fft2(cp.ones((16, 16), np.float32))
    cp.fft.ifft(cp.ones(1024, np.complex64))
    (key2, node2), (key1, node1) = list(cache)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        cache.show_info()
    text = buf.getvalue()
    memsize = node1.plan.work_area.mem.size + node2.plan.work_area.mem.size
    assert cache.get_curr_memsize() == memsize
    assert f"2 / 2 (counts)" in text and f"{memsize} / (unlimited) (bytes)" in text
    assert str(node2) + "\n" + str(node1) in text
    assert cache.get(key1).plan is node1.plan and key1 in cache
    del cache[key2]
    assert len(cache) == 1 and cache.get(key2) is None
    with pytest.raises(KeyError):
        del cache[key2]


def test_size_zero_turns_caching_off(cache):
    cache.set_size(0)
    cp.fft.fft(cp.ones(12))
    assert cache.get_curr_size() == 0
    cache.set_size(3)
    cp.fft.fft(cp.ones(12))
    assert cache.get_curr_size() == 1
    with pytest.raises(ValueError):
        cache.set_size(-1)


def test_memsize_limit(cache):
    cache.set_size(8)
    cp.fft.fft(cp.ones(1000, np.complex128))
    cp.fft.fft(cp.ones(1001, np.complex128))
    used = cache.get_curr_memsize()
    cache.set_memsize(used)
    assert cache.get_curr_memsize() <= used
    cache.set_memsize(0)  # nothing fits that needs a work area
    assert all(node.memsize == 0 for _, node in cache)


def test_module_functions(cache):
    config.set_plan_cache_size(5)
    assert config.get_plan_cache_size() == 5
    config.set_plan_cache_max_memsize(1 << 20)
    assert config.get_plan_cache_max_memsize() == 1 << 20
    cp.fft.fft(cp.ones(8))
    config.clear_plan_cache()
    assert cache.get_curr_size() == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        config.show_plan_cache_info()
    assert "plan cache" in buf.getvalue()


def test_enable_nd_planning_is_deprecated():
    with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
        state = config.enable_nd_planning
    with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
        config.enable_nd_planning = state


def test_a_plan_is_built_once_per_layout(cache, rng, device):
    cache.set_size(16)
    x = cp.asarray(rng.random((8, 16)) + 1j)
    cp.fft.fft(x, axis=0)
    cp.fft.fft(x, axis=1)
    cp.fft.fft(x.T, axis=0)  # the same memory walk as axis=1
    misses = cache.get_misses()
    for _ in range(3):
        cp.fft.fft(x, axis=0)
        cp.fft.fft(x, axis=1)
        cp.fft.fft2(x)
    # fft2 once, the rest hits (the CPU runs fft2 axis by axis through the two 1-D plans)
    assert cache.get_misses() == misses + (0 if device == "cpu" else 1)


def test_multi_gpu_settings_are_checked():
    assert config.use_multi_gpus is False
    with pytest.raises(ValueError, match="at least 2"):
        config.set_cufft_gpus([0])
    if cp.cuda.device_count() < 2:
        with pytest.raises(ValueError, match="does not exist"):
            config.set_cufft_gpus([0, 1])
