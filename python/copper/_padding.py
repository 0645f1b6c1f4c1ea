"""numpy.pad's argument shaping: pad_width forms and per-mode keywords become per-axis
pairs for the C++ core (copper._core._pad, include/copper/padding.hpp). A callable mode is
Python by nature (NumPy calls it on every 1-d slice), so it runs here on copper views."""
import itertools

import numpy as _np

from copper import _core

__all__ = ["pad"]

_ALLOWED = {
    "empty": (), "edge": (), "wrap": (),
    "constant": ("constant_values",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def _host(x):
    return x.get() if isinstance(x, _core.ndarray) else x


def _pairs(x, ndim, as_index=False):
    """(before, after) for every axis from a scalar, one pair, or one pair per axis."""
    if x is None:
        return [(None, None)] * ndim
    x = _np.array(_host(x))
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3 and x.size == 1:
        x = x.ravel()
        if as_index and x[0] < 0:
            raise ValueError("index can't contain negative values")
        return [(x[0].item(), x[0].item())] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        x = x.ravel()
        if as_index and (x[0] < 0 or x[1] < 0):
            raise ValueError("index can't contain negative values")
        return [(x[0].item(), x[1].item())] * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return [tuple(p) for p in _np.broadcast_to(x, (ndim, 2)).tolist()]


def pad(array, pad_width, mode="constant", **kwargs):
    a = array if isinstance(array, _core.ndarray) else _core.asarray(array)
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * a.ndim
        for axis, width in pad_width.items():
            seq[axis] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = seq
    widths_np = _np.asarray(_host(pad_width))
    if widths_np.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    widths = _pairs(widths_np, a.ndim, as_index=True)
    zero = [(0, 0)] * a.ndim
    if callable(mode):
        padded = _core._pad(a, widths, "constant", zero, zero, [(None, None)] * a.ndim, "even")
        for axis in range(padded.ndim):
            view = _core.moveaxis(padded, axis, -1)
            for ind in itertools.product(*(range(n) for n in view.shape[:-1])):
                mode(view[ind + (Ellipsis,)], widths[axis], axis, kwargs)
        return padded
    try:
        unsupported = set(kwargs) - set(_ALLOWED[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    return _core._pad(
        a, widths, mode,
        _pairs(kwargs.get("constant_values", 0), a.ndim),
        _pairs(kwargs.get("end_values", 0), a.ndim),
        _pairs(kwargs.get("stat_length"), a.ndim, as_index=True),
        kwargs.get("reflect_type", "even"),
    )
