"""copper.vectorize (NumPy's and CuPy's ``vectorize``): a Python scalar function becomes an
elementwise kernel on both devices. The function is translated to C++ by copper.jit's
translator (Python's semantics, as numpy.vectorize calls it on NumPy scalars: literals
weak, ``math`` results Python floats) and runs as a copper.ElementwiseKernel (NVRTC on a
GPU, the system compiler on the CPU, both disk-cached), one kernel per input dtypes."""
import inspect
import re

import numpy as np

from copper import _core
from copper._kernels import ElementwiseKernel

__all__ = ["vectorize"]

_NO_VALUE = object()


def _asarray(a, **kwargs):
    import copper
    return copper.asarray(a, **kwargs)


def _dtype_of(arg):
    if isinstance(arg, _core.ndarray):
        return arg.dtype
    if isinstance(arg, np.generic):
        return arg.dtype
    if isinstance(arg, (bool, int, float, complex)):
        return np.asarray(arg).dtype  # as numpy.vectorize's asanyarray: int64, float64, bool
    return None


class vectorize:
    """``vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None)``:
    calls broadcast their arguments and run ``pyfunc`` on every element in one kernel. The
    output dtype is NumPy's result type of what ``pyfunc`` returns for the input dtypes
    (``otypes`` fixes it); a tuple return gives several outputs."""

    def __init__(self, pyfunc=_NO_VALUE, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if excluded:
            raise NotImplementedError("copper.vectorize does not support excluded=")
        if signature is not None:
            raise NotImplementedError("copper.vectorize does not support signature= (generalized ufuncs)")
        if isinstance(otypes, str):
            otypes = list(otypes)
        self.otypes = None if otypes is None else [np.dtype(t) for t in otypes]
        self.excluded = set()
        self.cache = cache
        self.signature = None
        self._kernels = {}
        self.pyfunc = None
        self._doc = doc
        if pyfunc is not _NO_VALUE:
            self._set(pyfunc)

    def _set(self, pyfunc):
        if not callable(pyfunc):
            raise TypeError("vectorize needs a callable")
        self.pyfunc = pyfunc
        self.__doc__ = pyfunc.__doc__ if self._doc is None else self._doc
        self.__name__ = getattr(pyfunc, "__name__", "vectorized")

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:  # @vectorize(otypes=...) as a decorator
            if len(args) != 1 or kwargs:
                raise TypeError("vectorize() used as a decorator takes the function only")
            self._set(args[0])
            return self
        if kwargs:
            bound = inspect.signature(self.pyfunc).bind(*args, **kwargs)
            args = bound.args
        if not args:
            raise TypeError("copper.vectorize needs at least one argument")
        args = list(args)
        device = next((a.device for a in args if isinstance(a, _core.ndarray)), None)
        for i, a in enumerate(args):
            if _dtype_of(a) is None:  # lists, NumPy arrays
                args[i] = _asarray(a) if device is None else _asarray(a, device=device)
        if not any(isinstance(a, _core.ndarray) for a in args):
            args[0] = _asarray(args[0], dtype=_dtype_of(args[0]))  # all scalars: a 0-d result
        dtypes = tuple(_dtype_of(a) for a in args)
        kernel = self._kernels.get(dtypes)
        if kernel is None:
            kernel = self._kernels[dtypes] = self._build(dtypes)
        return kernel(*args)

    def _build(self, dtypes):
        from copper.jit import _cache
        for dt in dtypes:
            if dt.kind not in "biuf":
                raise TypeError(f"copper.vectorize does not support dtype {dt}")
        key = ("vectorize", tuple(dt.str for dt in dtypes),
               None if self.otypes is None else tuple(dt.str for dt in self.otypes))
        source = _cache.load(self.pyfunc, key)
        if source is None:
            recorder = _cache.Recorder()
            source = self._translate(dtypes, recorder)
            _cache.store(self.pyfunc, key, recorder, source)
        kernel = ElementwiseKernel(source["in_params"], source["out_params"], source["operation"],
                                   name=source["name"], preamble=source["preamble"],
                                   return_tuple=source["return_tuple"])
        kernel.jit_source = source["preamble"] + "\n// operation: " + source["operation"]
        return kernel

    def _translate(self, dtypes, recorder):
        """The ElementwiseKernel's arguments for these input dtypes (JSON, for the disk cache)."""
        from copper.jit import _prelude
        from copper.jit._translate import Module, translate
        from copper.jit._types import TUPLE, Val, c_name

        params = [Val("", dt) for dt in dtypes]
        module = Module(device=False)
        module.recorder = recorder
        probe = translate(self.pyfunc, module, params, python_math=True, device_function=True)[0]
        rets = probe.return_types
        if not rets:
            raise TypeError(f"{probe.where()}: {self.__name__} must return a value for copper.vectorize")
        nout = len(rets[0].code) if rets[0].type is TUPLE else None
        # A returned Python number is a NumPy scalar of its default dtype (numpy.vectorize
        # makes the output from it); several returns: their result type.
        if nout is None:
            out_types = [np.result_type(*(probe.scalar(r, None).type for r in rets))]
        else:
            if any(r.type is not TUPLE or len(r.code) != nout for r in rets):
                raise TypeError(f"{probe.where()}: every return of {self.__name__} must give {nout} values")
            out_types = [np.result_type(*(probe.scalar(r.code[k], None).type for r in rets)) for k in range(nout)]
        if self.otypes is not None:
            if len(self.otypes) != len(out_types):
                raise ValueError(f"otypes has {len(self.otypes)} types, but {self.__name__} returns "
                                 f"{len(out_types)} values")
            out_types = self.otypes
        for dt in out_types:
            c_name(dt, "copper.vectorize")
        module = Module(device=False)
        module.recorder = recorder
        real, plist, lines = translate(self.pyfunc, module, params, python_math=True,
                                       return_dtype=out_types[0] if nout is None else list(out_types),
                                       device_function=True)
        fname = "_jit_vec_" + re.sub(r"\W", "_", self.__name__)
        ins = [f"in{k}" for k in range(len(dtypes))]
        outs = [f"out{k}" for k in range(len(out_types))]
        if nout is None:
            header = f"__device__ inline {c_name(out_types[0])} {fname}({', '.join(plist)})"
            operation = f"out0 = {fname}({', '.join(ins)});"
        else:
            refs = [f"{c_name(dt)}& _jit_r{k}" for k, dt in enumerate(out_types)]
            header = f"__device__ inline void {fname}({', '.join(plist + refs)})"
            operation = f"{fname}({', '.join(ins + outs)});"
        return {
            "in_params": ", ".join(f"{dt.name} {n}" for dt, n in zip(dtypes, ins)),
            "out_params": ", ".join(f"{dt.name} {n}" for dt, n in zip(out_types, outs)),
            "operation": operation, "name": fname.lstrip("_"), "return_tuple": nout is not None,
            "preamble": "\n".join([_prelude.SCALAR, *module.functions, header + " {", *lines, "}"]),
        }

    def __repr__(self):
        return f"<copper.vectorize {self.__name__}>"
