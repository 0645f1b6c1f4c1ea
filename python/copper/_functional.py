"""apply_along_axis, apply_over_axes and piecewise: they call user Python functions on
pieces of an array, so they are Python by nature; each composes copper operations
(views, transposes, boolean indexing) and runs on the array's device."""
import itertools

from numpy.exceptions import AxisError

from copper import _core

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise"]


def _asarray(a):
    return a if isinstance(a, _core.ndarray) else _core.asarray(a)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = _asarray(arr)
    nd = arr.ndim
    if not -nd <= axis < nd:
        raise AxisError(axis, nd)
    axis %= nd
    # The chosen axis last; every other index picks one 1-d slice.
    view = _core.moveaxis(arr, axis, -1)
    outer = view.shape[:-1]
    indices = itertools.product(*(range(n) for n in outer))
    try:
        first = next(indices)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _asarray(func1d(view[first + (Ellipsis,)], *args, **kwargs))
    buff = _core.zeros(outer + res.shape, dtype=res.dtype)
    buff[first + (Ellipsis,)] = res
    for ind in indices:
        buff[ind + (Ellipsis,)] = _asarray(func1d(view[ind + (Ellipsis,)], *args, **kwargs))
    # The result's own axes go where the consumed axis was.
    dims = list(range(buff.ndim))
    k = res.ndim
    permute = dims[:axis] + dims[buff.ndim - k:] + dims[axis:buff.ndim - k]
    return _core.transpose(buff, permute)


def apply_over_axes(func, a, axes):
    val = _asarray(a)
    n = val.ndim
    if isinstance(axes, int) or getattr(axes, "ndim", 1) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = _core.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    x = _asarray(x)
    n_funcs = len(funclist)
    first = None if isinstance(condlist, (bool, int, float)) else condlist[0]
    # One condition (not a list of them) when its first item is a scalar (a 0-d copper array counts).
    single = first is None or (
        not (isinstance(first, list) or (hasattr(first, "ndim") and first.ndim > 0)) and x.ndim != 0)
    if single:
        condlist = [condlist]
    conds = [_core.asarray(c).astype(bool) if isinstance(c, _core.ndarray) else _core.asarray(c, dtype=bool)
             for c in condlist]
    n = len(conds)
    if n == n_funcs - 1:  # the "otherwise" condition
        stacked = _core.stack(conds) if n else _core.zeros((0,) + x.shape, dtype=bool)
        conds.append(_core.logical_not(_core.any(stacked, axis=0)))
        n += 1
    elif n != n_funcs:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _core.zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y
