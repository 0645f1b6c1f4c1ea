"""copper.jit.rawkernel: a Python function translated to a CUDA C++ __global__ function,
specialised per argument signature (dtypes, ndims, C-contiguity) and compiled through
copper.RawKernel (NVRTC, its memory and disk caches). GPU only, as RawKernel."""
import re

import numpy as np

from copper import _core
from copper.jit import _cache, _prelude
from copper.jit._translate import Module, translate
from copper.jit._types import ArrayT, dname, BOOL, FLOAT64, INT64, Val, c_name

_ndarray = _core.ndarray


def _arg_type(arg, i, name):
    """The translation type of one launch argument (copper or NumPy arrays: their dtype,
    ndim and C-contiguity; numbers: NumPy's scalar types)."""
    if isinstance(arg, (_ndarray, np.ndarray)):
        dt = arg.dtype
        if dt.kind not in "biuf" or dname(dt) == "float16":
            raise TypeError(f"copper.jit kernel {name!r}: argument {i} has dtype {dt}, which copper.jit "
                            f"does not support (bool, integers, float32, float64)")
        return ArrayT(dt, arg.ndim, "c" if arg.flags.c_contiguous else "strided")
    if isinstance(arg, (bool, np.bool_)):
        return BOOL
    if isinstance(arg, int):
        return INT64
    if isinstance(arg, float):
        return FLOAT64
    if isinstance(arg, np.generic) and arg.dtype.kind in "iuf" and dname(arg.dtype) != "float16":
        return arg.dtype
    raise TypeError(f"copper.jit kernel {name!r}: argument {i} has unsupported type {type(arg).__name__} "
                    f"(expected a copper array, a bool, int, float or a NumPy scalar)")


def _key_of(t):
    return (t.dtype, t.ndim, t.layout) if isinstance(t, ArrayT) else t


class Specialization:
    """One translation: `code` (CUDA C++), `name` and the `kernel` (a copper.RawKernel)."""

    def __init__(self, func, types, key):
        cache_key = ("rawkernel", key)
        payload = _cache.load(func, cache_key)
        if payload is None:
            module = Module(device=True)
            tr, params, lines = translate(func, module, [Val("", t) for t in types])
            name = "jit_" + re.sub(r"\W", "_", func.__name__)
            code = "\n".join([
                f"// copper.jit translation of {func.__qualname__} ({tr.file}:{tr.first_line})",
                _prelude.SCALAR, _prelude.DEVICE, *module.functions,
                f'extern "C" __global__ void {name}({", ".join(params)}) {{', *lines, "}", ""])
            payload = {"code": code, "name": name}
            _cache.store(func, cache_key, module.recorder, payload)
        self.code, self.name = payload["code"], payload["name"]
        self.kernel = _core.RawKernel(self.code, self.name)
        self.strided = [isinstance(t, ArrayT) and t.layout == "strided" for t in types]


class JitKernel:
    """A kernel written in Python (``cupyx.jit.rawkernel``): launch as ``k[grid, block](*args)``
    or ``k(grid, block, args, shared_mem=0, stream=None)``."""

    def __init__(self, func, device=False):
        self._func = func
        self._device = device
        self._specializations = {}
        self._last = None
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func

    @property
    def _jit_device_function(self):
        return self._func  # called from another kernel: a __device__ function

    def specialize(self, *args):
        """The Specialization for these arguments (arrays may be NumPy arrays: only their
        dtype, ndim and layout are used), translating on first use."""
        types = [_arg_type(a, i, self.__name__) for i, a in enumerate(args)]
        key = tuple(_key_of(t) for t in types)
        spec = self._specializations.get(key)
        if spec is None:
            spec = self._specializations[key] = Specialization(self._func, types, key)
        self._last = spec
        return spec

    @property
    def cached_codes(self):
        """CUDA C++ source of every specialization so far, by argument signature (CuPy's name)."""
        return {k: s.code for k, s in self._specializations.items()}

    @property
    def cached_code(self):
        """CUDA C++ source of the latest specialization."""
        if self._last is None:
            raise RuntimeError(f"copper.jit kernel {self.__name__!r} has not been specialized yet")
        return self._last.code

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        if self._device:
            raise RuntimeError(f"{self.__name__} is a device function: call it from a kernel")
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"copper.jit kernel {self.__name__!r}: args must be a tuple, not {type(args).__name__}")
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                raise TypeError(f"copper.jit kernel {self.__name__!r}: argument {i} is a numpy.ndarray in host "
                                f"memory; kernel arguments must be arrays on the GPU (copper.asarray(x))")
            if isinstance(a, _ndarray) and a.device.type != "cuda":
                raise RuntimeError(f"copper.jit kernel {self.__name__!r} runs only on NVIDIA GPUs: argument {i} "
                                   f"is an array on {a.device} (copper.asarray(x, device='cuda'))")
        spec = self.specialize(*args)
        packed = []
        for a, strided in zip(args, spec.strided):
            packed.append(a)
            if isinstance(a, _ndarray):
                packed += [np.int64(s) for s in a.shape]
                if strided:
                    packed += [np.int64(s) for s in a.strides]
        spec.kernel(grid, block, tuple(packed), shared_mem=shared_mem, stream=stream)

    def __getitem__(self, config):
        """``k[grid, block]``, ``k[grid, block, shared_mem]`` (CuPy) or ``k[grid, block, stream,
        shared_mem]`` (Numba)."""
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("launch configuration must be [grid, block], [grid, block, shared_mem] or "
                            "[grid, block, stream, shared_mem]")
        grid, block, rest = config[0], config[1], list(config[2:])
        stream, shared_mem = None, 0
        if len(rest) == 1 and isinstance(rest[0], (int, np.integer)):
            shared_mem = rest[0]
        elif rest:
            stream = rest[0] or None
            shared_mem = rest[1] if len(rest) > 1 else 0
        return lambda *args: self(grid, block, args, shared_mem=shared_mem, stream=stream)

    def __repr__(self):
        return f"<copper.jit kernel {self.__name__!r}>"


def rawkernel(*, mode="cuda", device=False):
    """Decorator: ``@copper.jit.rawkernel()`` turns a Python function into a GPU kernel
    (``device=True``: a function other kernels call)."""
    if mode != "cuda":
        raise ValueError(f"copper.jit.rawkernel supports mode='cuda' only, not {mode!r}")

    def wrap(func):
        return JitKernel(func, device=device)
    return wrap


__all__ = ["rawkernel", "JitKernel", "Specialization", "c_name"]
