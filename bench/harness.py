"""Timing and the libraries under test, for bench/run_benchmarks.py and bench/gpu_bench.py.

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


# ---- GPU timing and memory (bench/gpu_bench.py) ---------------------------------------------
# Device work is asynchronous, so GPU libraries are timed with their own CUDA events around
# a batch of calls; the CPU (and a GPU library without usable events) with the host clock
# around a synchronize.

class WallClock:
    """perf_counter around a batch of calls, with `sync` before and after."""
    kind = "host clock"

    def __init__(self, sync):
        self.sync = sync

    def batch_ms(self, fn, loops):
        self.sync()
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        self.sync()
        return (time.perf_counter() - start) * 1e3


class EventClock:
    """Two events of the library's own kind recorded around a batch; the GPU's time between them."""
    kind = "CUDA events"

    def __init__(self, new_event, elapsed_ms, sync):
        self.new_event = new_event
        self.elapsed_ms = elapsed_ms
        self.sync = sync

    def batch_ms(self, fn, loops):
        start, end = self.new_event(), self.new_event()
        start.record()
        for _ in range(loops):
            fn()
        end.record()
        end.synchronize()
        return self.elapsed_ms(start, end)


def bench_ms(fn, clock, repeats=7, target_ms=5.0, max_loops=1000, slow_ms=200.0):
    """Median ms of one call of fn, and the samples.

    Warm-up first (two calls, or one when a call takes over slow_ms: NumPy on gigabytes);
    the last warm-up sizes a batch to last about target_ms, so microsecond calls are timed
    as batches. Calls over slow_ms get at most 3 timed repeats, to keep the run short.
    A clock with a `flush` (copper's: run_deferred) runs each call's deferred work while
    its result is still held: with automatic fusion a discarded result is never computed,
    and a batch of calls would fuse into one pass, so neither would time one call.
    """
    flush = getattr(clock, "flush", None)
    if flush is not None:
        call = fn

        def fn():
            kept = call()
            flush()
            return kept

    one = clock.batch_ms(fn, 1)
    if one < slow_ms:
        one = clock.batch_ms(fn, 1)
    else:
        repeats = min(repeats, 3)
    loops = int(min(max_loops, max(1, math.ceil(target_ms / max(one, 1e-6)))))
    samples = [clock.batch_ms(fn, loops) / loops for _ in range(repeats)]
    return statistics.median(samples), samples


class MemoryProbe:
    """Peak and in-use device bytes of one library; every method answers None where unknown."""

    def reset_peak(self):
        pass

    def peak(self):
        return None

    def used(self):
        return None

    def free_cache(self):
        pass

    note = "no device memory statistics"


class CopperMemory(MemoryProbe):
    note = "copper.cuda.memory_stats()['peak'] after reset_peak_memory()"

    def __init__(self, cuda):
        self.cuda = cuda

    def reset_peak(self):
        self.cuda.reset_peak_memory()

    def peak(self):
        return int(self.cuda.memory_stats()["peak"])

    def used(self):
        return int(self.cuda.memory_stats()["used"])

    def free_cache(self):
        self.cuda.free_all_blocks()


class CupyMemory(MemoryProbe):
    # CuPy's pool keeps no peak: after free_all_blocks it holds only live arrays, and it grows
    # only when a request finds no free block, so its size afterwards is the high-water mark
    # (rounded up to its block sizes).
    note = "cupy pool total_bytes() after free_all_blocks() before the workload (high-water)"

    def __init__(self, cupy):
        self.pool = cupy.get_default_memory_pool()
        self.pinned = cupy.get_default_pinned_memory_pool()

    def reset_peak(self):
        self.pool.free_all_blocks()

    def peak(self):
        return int(self.pool.total_bytes())

    def used(self):
        return int(self.pool.used_bytes())

    def free_cache(self):
        self.pool.free_all_blocks()
        self.pinned.free_all_blocks()


class TorchMemory(MemoryProbe):
    note = "torch.cuda.max_memory_allocated() after reset_peak_memory_stats()"

    def __init__(self, torch):
        self.cuda = torch.cuda

    def reset_peak(self):
        self.cuda.reset_peak_memory_stats()

    def peak(self):
        return int(self.cuda.max_memory_allocated())

    def used(self):
        return int(self.cuda.memory_allocated())

    def free_cache(self):
        self.cuda.empty_cache()


def _copper_gpu(cp, notes):
    """copper's GPU pieces: (cuda module or None, sync, clock, memory probe), or None without a GPU."""
    try:
        cuda = importlib.import_module("copper.cuda")
    except ImportError:
        cuda = getattr(cp, "cuda", None)
    try:
        cp.Device("cuda:0")
        cp.zeros(1, device="cuda:0")
    except Exception as err:
        notes.append(f"copper: no GPU ({type(err).__name__}: {err}); runs on the CPU")
        return None
    cp.set_default_device("cuda:0")
    sync = cp.synchronize
    for candidate in (lambda: cuda.Device(0).synchronize, lambda: cuda.Stream.null.synchronize):
        try:  # CuPy-style device sync where copper.cuda has it
            found = candidate()
            found()
            sync = found
            break
        except Exception:
            pass
    clock = WallClock(sync)
    try:
        probe = EventClock(cuda.Event, cuda.get_elapsed_time, sync)
        probe.batch_ms(lambda: None, 1)
        clock = probe
    except Exception as err:
        notes.append(f"copper: timed with synchronize + perf_counter (copper.cuda.Event/get_elapsed_time "
                     f"unusable: {type(err).__name__}: {err})")
    memory = MemoryProbe()
    try:
        memory = CopperMemory(cuda)
        memory.reset_peak()
        memory.peak(), memory.used()
        memory.free_cache()
    except Exception as err:
        memory = MemoryProbe()
        notes.append(f"copper: no memory statistics (copper.cuda.memory_stats/reset_peak_memory/"
                     f"free_all_blocks: {type(err).__name__}: {err})")
    return cuda, sync, clock, memory


def gpu_libraries(wanted, notes):
    """NumPy plus the libraries of `wanted` that import, each a Lib with .clock, .memory, .on_gpu,
    .version. CuPy and PyTorch are kept only with a GPU (on the CPU they measure nothing this
    benchmark is about); copper runs on the CPU when it finds none. `notes` collects why."""
    libs = {"numpy": Lib("numpy", np)}
    libs["numpy"].clock, libs["numpy"].memory, libs["numpy"].on_gpu = WallClock(lambda: None), MemoryProbe(), False
    libs["numpy"].version = np.__version__
    for name in wanted:
        try:
            if name == "copper":
                import copper as cp
                gpu = _copper_gpu(cp, notes)
                if gpu:
                    cuda, sync, clock, memory = gpu
                    L = Lib("copper", cp, sync=sync, to_numpy=cp.asnumpy, release=memory.free_cache,
                            label="copper (cuda:0)")
                    L.clock, L.memory, L.on_gpu, L.cuda = clock, memory, True, cuda
                else:
                    L = Lib("copper", cp, sync=cp.synchronize, to_numpy=cp.asnumpy,
                            label=f"copper ({cp.get_default_device()})")
                    L.clock, L.memory, L.on_gpu, L.cuda = WallClock(cp.synchronize), MemoryProbe(), False, None
                L.clock.flush = cp.run_deferred  # see bench_ms
                L.version = cp.__version__
            elif name == "cupy":
                cupy = importlib.import_module("cupy")
                cupy.cuda.runtime.getDeviceCount()  # raises without a GPU
                memory = CupyMemory(cupy)
                sync = cupy.cuda.Device(0).synchronize
                L = Lib("cupy", cupy, sync=sync, to_numpy=cupy.asnumpy, release=memory.free_cache)
                L.clock = EventClock(cupy.cuda.Event, cupy.cuda.get_elapsed_time, sync)
                L.memory, L.on_gpu, L.version = memory, True, cupy.__version__
            elif name == "torch":
                torch = importlib.import_module("torch")
                if not torch.cuda.is_available():
                    raise RuntimeError("torch finds no CUDA device")
                L = TorchLib(torch)
                L._dtypes = _TorchDtypes(torch)
                L.clock = EventClock(lambda: torch.cuda.Event(enable_timing=True),
                                     lambda s, e: s.elapsed_time(e), torch.cuda.synchronize)
                L.memory, L.on_gpu, L.version = TorchMemory(torch), True, torch.__version__
            else:
                continue
            libs[name] = L
        except Exception as err:  # not installed, or no device: skip it, say why
            notes.append(f"skipping {name}: {type(err).__name__}: {err}")
    return libs


class _TorchDtypes(dict):
    """NumPy dtype -> torch dtype, for any dtype torch shares with NumPy."""

    def __init__(self, torch):
        super().__init__()
        self.torch = torch

    def __missing__(self, dtype):
        value = self.torch.from_numpy(np.empty(0, dtype=dtype)).dtype
        self[dtype] = value
        return value
