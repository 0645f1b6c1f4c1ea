"""Argument shaping for the numerical routines whose work is in copper._core: polyfit's
optional outputs and RankWarning, the gufunc keywords of vecdot, matvec and vecmat (NumPy
2's axes=, axis=, keepdims=, out=, dtype=), row_stack's deprecation."""
import warnings

import numpy as _np

from copper import _core

__all__ = ["polyfit", "vecdot", "matvec", "vecmat", "row_stack"]


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    mode = "" if not cov else ("unscaled" if isinstance(cov, str) and cov == "unscaled" else "scaled")
    c, resids, rank, s, rc, covariance = _core._polyfit(x, y, int(deg), rcond, w, mode)
    if full:
        return c, resids, rank, s, rc
    if rank != int(deg) + 1:
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    return (c, covariance) if cov else c


def _gufunc_result(r, out, dtype):
    if dtype is not None:
        r = r.astype(dtype)
    if out is None:
        return r
    if isinstance(out, tuple):
        (out,) = out
    _core.copyto(out, r)
    return out


def _axis_list(entry):
    return (entry,) if hasattr(entry, "__index__") else tuple(entry)


def _gufunc_call(name, signature, core, operands, in_core, out_core, axes, axis, keepdims):
    """core(*operands) with each operand's core dimensions last, as NumPy's gufunc machinery
    calls a loop: axes= names every operand's core axes (and the output's, last), axis= the
    one shared core axis, keepdims= leaves a reduced-away core dimension of length one."""
    if axis is not None and axes is not None:
        raise TypeError("cannot specify both 'axis' and 'axes'")
    same_in = all(n == in_core[0] for n in in_core)
    if keepdims and not (same_in and out_core == 0):
        raise TypeError(f"{name} does not support keepdims: its signature {signature} requires output 0 to have "
                        f"{out_core} core dimensions, but keepdims can only be used when all inputs have the same "
                        "number of core dimensions and all outputs have no core dimensions.")
    if axis is not None:
        if not (same_in and in_core[0] == 1 and out_core == 0):
            distinct = len({c for c in signature if c.isalpha()})  # the core dimensions' names
            raise TypeError(f"{name}: axis can only be used with a single shared core dimension, not with the "
                            f"{distinct} distinct ones implied by signature {signature}.")
        axes = [(axis,)] * len(operands) + ([(axis,)] if keepdims else [])
    out_axes = None
    if axes is not None:
        axes = [_axis_list(e) for e in axes]
        if len(axes) not in (len(operands), len(operands) + 1):
            raise ValueError(f"{name}: axes should be a list with an entry for all {len(operands) + 1} inputs and "
                             f"outputs; entries for outputs can only be omitted if none of them has core axes.")
        moved = []
        for k, (a, want) in enumerate(zip(operands, axes)):
            if len(want) != in_core[k]:
                raise _np.exceptions.AxisError(f"{name}: operand {k} has {in_core[k]} core dimensions, but "
                                               f"{len(want)} dimensions are specified by axes tuple.")
            a = _core.asarray(a) if not isinstance(a, _core.ndarray) else a
            moved.append(_core.moveaxis(a, list(want), list(range(-len(want), 0))) if want else a)
        operands = moved
        if len(axes) > len(operands):
            out_axes = axes[-1]
            if len(out_axes) != out_core + bool(keepdims):
                raise _np.exceptions.AxisError(f"{name}: operand {len(operands)} has {out_core + bool(keepdims)} core "
                                               f"dimensions, but {len(out_axes)} dimensions are specified by axes tuple.")
    r = core(*operands)
    if keepdims:
        r = _core.expand_dims(r, -1)
    if out_axes:
        r = _core.moveaxis(r, list(range(-len(out_axes), 0)), list(out_axes))
    return r


def vecdot(x1, x2, /, out=None, *, axes=None, axis=None, keepdims=False, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """sum(conj(x1) * x2) over the core axis (the last by default), NumPy 2's gufunc
    (n),(n)->(); copper.linalg.vecdot is the array API's form."""
    r = _gufunc_call("vecdot", "(n),(n)->()", lambda a, b: _core.vecdot(a, b, axis=-1), (x1, x2), (1, 1), 0, axes,
                     axis, keepdims)
    return _gufunc_result(r, out, dtype)


def matvec(x1, x2, /, out=None, *, axes=None, axis=None, keepdims=False, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """(..., m, n) @ (..., n) -> (..., m), NumPy 2.2's gufunc."""
    r = _gufunc_call("matvec", "(m,n),(n)->(m)", _core._matvec, (x1, x2), (2, 1), 1, axes, axis, keepdims)
    return _gufunc_result(r, out, dtype)


def vecmat(x1, x2, /, out=None, *, axes=None, axis=None, keepdims=False, casting="same_kind", order="K", dtype=None,
           subok=True, signature=None):
    """conj((..., n)) @ (..., n, m) -> (..., m), NumPy 2.2's gufunc."""
    r = _gufunc_call("vecmat", "(n),(n,m)->(m)", _core._vecmat, (x1, x2), (1, 2), 1, axes, axis, keepdims)
    return _gufunc_result(r, out, dtype)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return _core.vstack(tup, dtype=dtype, casting=casting)
