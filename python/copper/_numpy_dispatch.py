"""NumPy's dispatch protocols on copper arrays: ``np.add(x, 1)``, ``np.sum(x)``,
``np.linalg.norm(x)`` run in copper and return copper arrays (NEP 13 ``__array_ufunc__``,
NEP 18 ``__array_function__``). Functions copper lacks, and calls mixing copper and NumPy
arrays, return NotImplemented, so NumPy raises TypeError; implicit conversion
(``np.asarray(x)``) stays refused, as in CuPy. Only name lookups here: the work is copper's.
"""
import numbers

import numpy as _np

from copper import _core

_ndarray = _core.ndarray

# Where a copper ufunc has no method of its own yet, the copper function that computes
# the same thing (same defaults once axis=0 is filled in, and the same dtype rules:
# add.reduce upcasts small integers and bool as sum does).
_REDUCE = {
    "add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
    "logical_and": "all", "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin",
}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}


def _copper():
    import copper
    return copper


def _operand_ok(x):
    """Anything but another library's array (NumPy's included, as in CuPy: `np.add(x, a)`
    and `a - x` raise TypeError): copper never converts those implicitly. Scalars and
    sequences (ufunc.reduceat's indices) pass."""
    if isinstance(x, (_ndarray, numbers.Number, _np.generic, list, tuple)):
        return True
    return not (isinstance(x, _np.ndarray) or hasattr(x, "__array_ufunc__") or hasattr(x, "__array_function__")
                or hasattr(x, "__array__"))


def _outer(cp, fn, a, b, kwargs):
    a = a if isinstance(a, _ndarray) else cp.asarray(a)
    b = b if isinstance(b, _ndarray) else cp.asarray(b)
    return fn(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def _scalar_if_0d(x):
    """NumPy turns its scalar operand into a 0-d array before dispatching
    (`np.int16(3) < x` arrives as `less(array(3, dtype=int16), x)`): take it back as the
    NumPy scalar it was, as copper's operators take NumPy scalars (CuPy does the same)."""
    if isinstance(x, _np.ndarray) and x.ndim == 0 and type(x) is _np.ndarray:
        return x[()]
    return x


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    out = kwargs.get("out", ())
    inputs = tuple(_scalar_if_0d(x) for x in inputs)
    if not all(_operand_ok(x) for x in inputs + tuple(o for o in out if o is not None)):
        return NotImplemented
    cp = _copper()
    fn = getattr(cp, ufunc.__name__, None)
    if fn is None:
        return NotImplemented
    if out:
        if ufunc.nout == 1:
            kwargs["out"] = out[0]
        elif all(o is None for o in out):
            del kwargs["out"]
    if method == "__call__":
        return fn(*inputs, **kwargs)
    own = getattr(fn, method, None)  # copper ufunc objects with methods, where they exist
    if callable(own):
        return own(*inputs, **kwargs)
    if method == "reduce" and ufunc.__name__ in _REDUCE:
        kwargs.setdefault("axis", 0)
        return getattr(cp, _REDUCE[ufunc.__name__])(*inputs, **kwargs)
    if method == "accumulate" and ufunc.__name__ in _ACCUMULATE:
        kwargs.setdefault("axis", 0)
        return getattr(cp, _ACCUMULATE[ufunc.__name__])(*inputs, **kwargs)
    if method == "outer" and len(inputs) == 2:
        return _outer(cp, fn, inputs[0], inputs[1], kwargs)
    # at, reduceat, and reductions copper has no equivalent for. Raised here rather than
    # returning NotImplemented: NumPy's error path for ufunc methods leaks the operands.
    raise TypeError(f"copper has no implementation of numpy.{ufunc.__name__}.{method} yet")


_function_cache = {}


def _implementation(func):
    """copper's function of the same module path and name as NumPy's `func`, or None."""
    try:
        return _function_cache[func]
    except (KeyError, TypeError):
        pass
    target = _copper()
    for part in (getattr(func, "__module__", None) or "numpy").split(".")[1:]:
        target = getattr(target, part, None)
        if target is None:
            break
    impl = getattr(target, getattr(func, "__name__", ""), None) if target is not None else None
    if impl is func or not callable(impl):  # a NumPy function re-exported as is would recurse
        impl = None
    try:
        _function_cache[func] = impl
    except TypeError:
        pass
    return impl


def _array_function(self, func, types, args, kwargs):
    if not all(issubclass(t, _ndarray) for t in types):
        return NotImplemented  # NumPy arrays mixed in: no implicit conversion
    impl = _implementation(func)
    if impl is None:
        return NotImplemented
    return impl(*args, **kwargs)


def get_array_module(*args):
    """copper if any argument is a copper array, else numpy (CuPy's get_array_module), so
    one function body serves both."""
    for a in args:
        if isinstance(a, _ndarray) or hasattr(type(a), "__copper_fusion_proxy__"):  # copper.fuse traces too
            return _copper()
    return _np


_ndarray.__array_ufunc__ = _array_ufunc
_ndarray.__array_function__ = _array_function

__all__ = ["get_array_module"]
