"""NumPy's small utilities: dtype and shape queries, memory sharing, number formatting.

dtype questions (issubdtype, min_scalar_type, mintypecode, typename) are answered by
NumPy itself, since copper's dtypes are NumPy's; shape queries read copper arrays'
attributes without touching their data; shares_memory is copper's C++ solver. The
formatting helpers (base_repr, binary_repr, format_float_*) only handle Python scalars on
the host, so they delegate to NumPy.
"""
import numpy as _np

from copper import _core

ndarray = _core.ndarray

__all__ = [
    "issubdtype", "min_scalar_type", "mintypecode", "typename", "isscalar", "ndim", "shape", "size",
    "may_share_memory", "shares_memory", "iterable", "isfortran", "base_repr", "binary_repr",
    "asarray_chkfinite", "getbufsize", "setbufsize", "format_float_positional", "format_float_scientific",
    "einsum_path", "info",
]

issubdtype = _np.issubdtype
mintypecode = _np.mintypecode
typename = _np.typename
iterable = _np.iterable
base_repr = _np.base_repr
binary_repr = _np.binary_repr
format_float_positional = _np.format_float_positional
format_float_scientific = _np.format_float_scientific
getbufsize = _np.getbufsize
setbufsize = _np.setbufsize  # copper's loops keep no ufunc buffer; the value is only reported back


def min_scalar_type(a, /):
    """numpy.min_scalar_type: a copper array's own dtype (as NumPy's for arrays of ndim >= 1);
    for a 0-d copper array, the smallest dtype holding its value."""
    if isinstance(a, ndarray):
        return _np.min_scalar_type(a.get() if a.ndim == 0 else _np.empty(0, a.dtype))
    return _np.min_scalar_type(a)


def isscalar(element):
    """numpy.isscalar: copper arrays, even 0-d ones, are not scalars (as NumPy's)."""
    return not isinstance(element, ndarray) and _np.isscalar(element)


def ndim(a):
    """numpy.ndim: the number of dimensions of a copper array (metadata only) or of anything NumPy reads."""
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def shape(a):
    """numpy.shape: the shape of a copper array (metadata only) or of anything NumPy reads."""
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def size(a, axis=None):
    """numpy.size: the number of elements, or the length of ``axis`` (an int or a tuple of ints)."""
    if not isinstance(a, ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    axes = axis if isinstance(axis, tuple) else (axis,)
    result = 1
    for ax in axes:
        result *= a.shape[_normalize(ax, a.ndim)]
    return result


def _normalize(axis, ndim):
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _work(max_work, default):
    """NumPy's max_work: None -> the function's default, -1 exact, 0 bounds only, > 0 a cap."""
    if max_work is None:
        return default
    max_work = int(max_work)
    if max_work < -1:
        raise ValueError("Invalid value for max_work")
    return max_work


def shares_memory(a, b, /, max_work=None):
    """numpy.shares_memory: whether a and b have an element byte in common. Copper arrays
    share memory only within one buffer; a copper array and a NumPy array never do."""
    a_cp, b_cp = isinstance(a, ndarray), isinstance(b, ndarray)
    if not a_cp and not b_cp:
        return _np.shares_memory(a, b, max_work=max_work)
    if not (a_cp and b_cp):
        return False
    return _core._shares_memory(a, b, _work(max_work, -1))


def may_share_memory(a, b, /, max_work=None):
    """numpy.may_share_memory: by default whether the byte extents of a and b intersect."""
    a_cp, b_cp = isinstance(a, ndarray), isinstance(b, ndarray)
    if not a_cp and not b_cp:
        return _np.may_share_memory(a, b, max_work=max_work)
    if not (a_cp and b_cp):
        return False
    return _core._may_share_memory(a, b, _work(max_work, 0))


def isfortran(a):
    """numpy.isfortran: Fortran-contiguous and not C-contiguous."""
    if not isinstance(a, ndarray):
        return _np.isfortran(a)
    return _core._isfortran(a)


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, then ValueError if a float or complex array holds inf or NaN."""
    import copper
    arr = copper.asarray(a, dtype=dtype, order=order)
    if arr.dtype.kind in "fc" and not bool(copper.isfinite(arr).all()):
        raise ValueError("array must not contain infs or NaNs")
    return arr


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: the contraction order only depends on shapes, so NumPy plans it
    over empty stand-ins of copper's operands."""
    stand_ins = [_np.broadcast_to(_np.empty((), op.dtype), op.shape) if isinstance(op, ndarray) else op
                 for op in operands]
    return _np.einsum_path(*stand_ins, optimize=optimize, einsum_call=einsum_call)


def info(object=None, maxwidth=76, output=None, toplevel="copper"):  # noqa: A002 (NumPy's name)
    """numpy.info: prints the documentation of a copper (or any) object."""
    return _np.info(object, maxwidth=maxwidth, output=output, toplevel=toplevel)
