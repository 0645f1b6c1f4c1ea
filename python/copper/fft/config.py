"""CuPy's ``cupy.fft.config``: the FFT plan caches.

Each device keeps one cache (shared by every thread; CuPy keeps one per thread):
cuFFT plans on a GPU, FFTW plans on the CPU. A plan is found again by its transform
type, sizes, strides and batch, so a repeated call never plans twice. Least recently
used plans go first when the count limit (default 16; 0 turns caching off) or the byte
limit on work areas (-1: none) is reached. Work areas come from the memory pool per
execution, so a cached plan holds no work-area memory; memsize counts what executions ask.
"""
import contextvars
import sys
import types
import warnings

from copper import _core

_f = _core._fft
_nd_planning = [True]


class _Node:
    """One cached plan: ``key``, ``plan`` (Plan1d / PlanNd) and ``memsize``."""

    __slots__ = ("key", "plan", "memsize", "_text")

    def __init__(self, key, plan, text):
        self.key, self.plan, self.memsize, self._text = key, plan, plan.work_size, text

    def __repr__(self):
        return self._text


class PlanCache:
    """The plan cache of one device (the default device's unless given)."""

    def __init__(self, device=None):
        self._c = _f.get_plan_cache(device)

    def get_size(self):
        return self._c.get_size()

    def set_size(self, size):
        self._c.set_size(size)

    def get_curr_size(self):
        return self._c.get_curr_size()

    def get_memsize(self):
        return self._c.get_memsize()

    def set_memsize(self, size):
        self._c.set_memsize(size)

    def get_curr_memsize(self):
        return self._c.get_curr_memsize()

    def get_hits(self):
        return self._c.get_hits()

    def get_misses(self):
        return self._c.get_misses()

    def clear(self):
        self._c.clear()

    def show_info(self):
        print(self._c.info())

    def __iter__(self):  # most recently used first; iterating does not reorder
        for key, plan, text in self._c.entries():
            yield key, _Node(key, plan, text)

    def __len__(self):
        return self._c.get_curr_size()

    def __contains__(self, key):
        return any(k == tuple(key) for k, _, _ in self._c.entries())

    def get(self, key, default=None):
        if self._c.get(key) is None:  # a hit moves the plan to the front
            return default
        for k, plan, text in self._c.entries():
            if k == tuple(key):
                return _Node(k, plan, text)
        return default

    def __getitem__(self, key):
        node = self.get(key)
        if node is None:
            raise KeyError(key)
        return node

    def __delitem__(self, key):
        if not self._c.erase(key):
            raise KeyError(key)

    def __repr__(self):
        return f"<copper.fft.config.PlanCache of {self._c.device}: {self.get_curr_size()} / {self.get_size()} plans>"


def get_plan_cache():
    """The plan cache of the default device (``copper.cuda.Device(i)`` selects a GPU)."""
    return PlanCache()


def get_plan_cache_size():
    return get_plan_cache().get_size()


def set_plan_cache_size(size):
    get_plan_cache().set_size(size)


def get_plan_cache_max_memsize():
    return get_plan_cache().get_memsize()


def set_plan_cache_max_memsize(size):
    get_plan_cache().set_memsize(size)


def clear_plan_cache():
    get_plan_cache().clear()


def show_plan_cache_info():
    """Prints every device's cache: the CPU's, then each GPU's."""
    print(PlanCache("cpu")._c.info())
    count = _core._cuda.device_count() if hasattr(_core, "_cuda") else 0
    for i in range(count):
        print(PlanCache(f"cuda:{i}")._c.info())


# CuPy's multi-GPU FFT switches (per context, as CuPy's). copper records them but runs
# every transform on its array's own device: results are the same, on one GPU.
_use_multi_gpus = contextvars.ContextVar("_use_multi_gpus", default=False)
_devices = contextvars.ContextVar("_devices", default=None)


def set_cufft_gpus(gpus):
    """Names the GPUs (a count, or a list of at least two device ids) for multi-GPU FFTs."""
    gpus = list(range(gpus)) if isinstance(gpus, int) else [int(g) for g in gpus]
    if len(gpus) < 2:
        raise ValueError("Must use at least 2 GPUs.")
    count = _core._cuda.device_count()
    for g in gpus:
        if not 0 <= g < count:
            raise ValueError(f"GPU {g} does not exist (this process sees {count})")
    _devices.set(tuple(gpus))


class _Config(types.ModuleType):
    @property
    def use_multi_gpus(self):
        return _use_multi_gpus.get()

    @use_multi_gpus.setter
    def use_multi_gpus(self, value):
        _use_multi_gpus.set(bool(value))

    @property
    def enable_nd_planning(self):
        warnings.warn("enable_nd_planning is deprecated: copper transforms several axes with one "
                      "multi-dimensional plan wherever the layout allows", DeprecationWarning, stacklevel=2)
        return _nd_planning[0]

    @enable_nd_planning.setter
    def enable_nd_planning(self, value):
        warnings.warn("enable_nd_planning is deprecated: copper transforms several axes with one "
                      "multi-dimensional plan wherever the layout allows", DeprecationWarning, stacklevel=2)
        _nd_planning[0] = bool(value)


sys.modules[__name__].__class__ = _Config
