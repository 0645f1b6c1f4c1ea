"""Timing and the libraries under test, for bench/run_benchmarks.py.

Each library is wrapped in a `Lib`, which gives the handful of calls whose spelling
differs between NumPy-like modules (NumPy, copper, CuPy) and PyTorch, plus how to wait
for queued device work. The workloads themselves are written once against `Lib`.
"""
import gc
import importlib
import math
import statistics
import time

import numpy as np


class Lib:
    """A NumPy-like module (NumPy, copper, CuPy): the same spelling everywhere."""

    def __init__(self, name, xp, sync=lambda: None, to_numpy=np.asarray, release=lambda: None, label=None):
        self.name = name
        self.label = label or name
        self.xp = xp
        self.sync = sync
        self.to_numpy = to_numpy
        self._release = release

    def asarray(self, host):
        return self.xp.asarray(host)

    def ones(self, shape, dtype=np.float64):
        return self.xp.ones(shape, dtype=dtype)

    def sqrt(self, x):
        return self.xp.sqrt(x)

    def sum(self, x, axis):
        return self.xp.sum(x, axis=axis)

    def small_pipeline(self):
        return self.xp.arange(6).reshape(2, 3).astype("f").sum(axis=1)

    def release(self):
        """Frees cached device memory between workloads, so one library's cache can't starve the next."""
        gc.collect()
        self._release()


class TorchLib(Lib):
    """PyTorch: the same workloads in torch's spelling, on its GPU when it has one."""

    def __init__(self, torch):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        cuda = self.device == "cuda"
        super().__init__("torch", torch, sync=torch.cuda.synchronize if cuda else (lambda: None),
                         to_numpy=lambda t: t.cpu().numpy(),
                         release=torch.cuda.empty_cache if cuda else (lambda: None),
                         label=f"torch ({self.device})")
        self._dtypes = {np.dtype(np.float64): torch.float64, np.dtype(np.float32): torch.float32}

    def asarray(self, host):
        return self.xp.from_numpy(np.ascontiguousarray(host)).to(self.device)

    def ones(self, shape, dtype=np.float64):
        return self.xp.ones(shape, dtype=self._dtypes[np.dtype(dtype)], device=self.device)

    def sum(self, x, axis):
        return self.xp.sum(x, dim=axis)

    def small_pipeline(self):
        return self.xp.arange(6, device=self.device).reshape(2, 3).float().sum(dim=1)


def available_libraries(wanted):
    """The libraries of `wanted` that import (and, for GPU ones, find a device), by name."""
    libs = {}
    for name in wanted:
        try:
            if name == "numpy":
                libs[name] = Lib("numpy", np)
            elif name == "copper":
                import copper as cp
                libs[name] = Lib("copper", cp, sync=cp.synchronize, to_numpy=cp.asnumpy,
                                 label=f"copper ({cp.get_default_device()})")
            elif name == "cupy":
                cupy = importlib.import_module("cupy")
                cupy.cuda.runtime.getDeviceCount()  # raises without a GPU
                pool = cupy.get_default_memory_pool()
                libs[name] = Lib("cupy", cupy, sync=cupy.cuda.Device().synchronize, to_numpy=cupy.asnumpy,
                                 release=pool.free_all_blocks)
            elif name == "torch":
                libs[name] = TorchLib(importlib.import_module("torch"))
        except Exception as err:  # not installed, or no device: skip it, say why
            print(f"skipping {name}: {type(err).__name__}: {err}")
    return libs


def median_ms(fn, sync, repeats=5, min_batch_s=0.02, max_loops=100_000):
    """Median time of one call of fn in ms.

    One warm-up call first (it also sizes the batch); then `repeats` batches of enough
    calls to last about min_batch_s each, so microsecond calls are measured as well as
    second-long ones. `sync` waits for queued device work inside every timed batch.
    """
    start = time.perf_counter()
    fn()
    sync()
    first = time.perf_counter() - start
    loops = int(min(max_loops, max(1, math.ceil(min_batch_s / max(first, 1e-9)))))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        sync()
        samples.append((time.perf_counter() - start) / loops * 1e3)
    return statistics.median(samples)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform
    return platform.processor() or "unknown"


def available_memory_bytes():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import os
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
