"""copper.profiler.benchmark, as CuPy's cupyx.profiler.benchmark: CPU times always, GPU
times per timed device (none on the CPU backend), CuPy's text layout, warm-up and
max_duration. Runs on every device."""
import math
import re

import numpy as np
import pytest

import copper as cp
from copper.profiler import benchmark

NUMBER = r"\s*-?\d+\.\d{3}"
STATS = rf"{NUMBER} us   \+/- {NUMBER} \(min: {NUMBER} / max: {NUMBER}\) us"


def test_cpu_and_gpu_times_per_device(device, rng):
    x = cp.asarray(rng.uniform(-1, 1, 1000))
    calls = []

    def f(a, scale=1.0):
        calls.append(1)
        return a * scale

    r = benchmark(f, (x,), {"scale": 2.0}, n_repeat=7, n_warmup=3)
    assert len(calls) == 10  # warm-up calls are made but not timed
    assert r.name == "f"
    assert isinstance(r.cpu_times, np.ndarray) and r.cpu_times.shape == (7,)
    assert np.all(r.cpu_times >= 0)
    if device == "cpu":
        assert r.devices == ()
        assert r.gpu_times.shape == (0, 7)
    else:
        assert r.devices == (0,)
        assert r.gpu_times.shape == (1, 7)
        assert np.all(r.gpu_times > 0)


def test_text_layout_is_cupys(device):
    x = cp.ones(100)
    r = benchmark(lambda: x + 1, n_repeat=5, n_warmup=1, name="add_one")
    text = str(r)
    assert re.fullmatch(rf"add_one             :    CPU:{STATS}(     GPU-0:{STATS})?", text), text
    assert ("GPU-0" in text) == (device != "cpu")
    assert "GPU" not in r.to_str()  # show_gpu=False, as CuPy's default for to_str
    one = benchmark(lambda: None, n_repeat=1, n_warmup=0, name="once")
    assert "+/-" not in str(one)


def test_max_duration_stops_early(device):
    r = benchmark(lambda: None, n_repeat=1_000_000, n_warmup=0, max_duration=0.02)
    assert 1 <= len(r.cpu_times) < 1_000_000
    assert r.gpu_times.shape == (len(r.devices), len(r.cpu_times))


def test_zero_repeats_and_errors(device):
    r = benchmark(lambda: None, n_repeat=0, n_warmup=0)
    assert r.cpu_times.shape == (0,)
    with pytest.raises(ValueError, match="n_repeat must not be negative"):
        benchmark(lambda: None, n_repeat=-1)
    with pytest.raises(TypeError, match="func must be callable"):
        benchmark(3)

    def boom():
        raise KeyError("from the timed function")

    with pytest.raises(KeyError, match="from the timed function"):
        benchmark(boom, n_repeat=3)


def test_explicit_devices():
    # Without a GPU, device 0 stands for the CPU device (its events read the host clock).
    r = benchmark(lambda: None, n_repeat=2, n_warmup=0, devices=(0,))
    assert r.gpu_times.shape == (1, 2) and (r.gpu_times >= 0).all()
    if not cp.cuda.is_available():
        with pytest.raises(RuntimeError, match=r"(?i)cuda|gpu"):
            benchmark(lambda: None, n_repeat=2, devices=(1,))


def test_mean_matches_the_times():
    r = benchmark(lambda: sum(range(100)), n_repeat=20, n_warmup=2, name="s")
    mean_us = float(re.search(r"CPU:\s*(\S+) us", str(r)).group(1))
    assert math.isclose(mean_us, r.cpu_times.mean() * 1e6, abs_tol=1e-3)
