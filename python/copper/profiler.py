"""Timing utilities, as CuPy's ``cupyx.profiler``.

    from copper.profiler import benchmark
    print(benchmark(lambda a: a * 2, (x,), n_repeat=1000))

Each repeat records an event on the current stream of every timed GPU, calls the function,
records another and waits for it: ``gpu_times`` is the device time of that call's work and
``cpu_times`` the host time the call took. Without a GPU (or with the CPU as the default
device) only CPU times are taken and ``gpu_times`` has no rows.
"""
import math

import numpy

from copper import _core

__all__ = ["benchmark"]


class _PerfCaseResult:
    """Timings recorded by :func:`benchmark`; ``str()`` gives mean, std, min and max per
    device, in microseconds."""

    def __init__(self, raw):
        self._raw = raw
        self.name = raw.name
        self.devices = tuple(raw.devices)
        self.cpu_times = numpy.asarray(raw.cpu_times, dtype=numpy.float64)
        gpu = numpy.asarray(raw.gpu_times, dtype=numpy.float64)
        self.gpu_times = gpu.reshape(len(self.devices), len(self.cpu_times))  # (devices, runs), as CuPy's

    def to_str(self, show_gpu=False):
        return self._raw.to_str(show_gpu)

    def __str__(self):
        return self.to_str(show_gpu=True)

    def __repr__(self):
        return f"<copper.profiler benchmark result {self.name!r}: {len(self.cpu_times)} runs>"


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
    """Calls ``func(*args, **kwargs)`` ``n_warmup`` times untimed, then up to ``n_repeat`` times
    timed (stopping once ``max_duration`` seconds have been spent), on the CPU and on each GPU
    in ``devices`` (default: the default device's GPU, none for the CPU)."""
    if not callable(func):
        raise TypeError("func must be callable")
    if name is None:
        name = getattr(func, "__name__", type(func).__name__)
    if devices is not None:
        devices = [int(d) for d in devices]
    raw = _core._profiler.benchmark(func, tuple(args), dict(kwargs or {}), int(n_repeat), str(name), int(n_warmup),
                                    float(max_duration), devices)
    return _PerfCaseResult(raw)
