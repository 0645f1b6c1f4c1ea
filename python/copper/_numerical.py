"""Argument shaping for the numerical routines whose work is in copper._core: polyfit's
optional outputs and RankWarning, the matvec/vecmat gufunc keywords, row_stack's
deprecation."""
import warnings

import numpy as _np

from copper import _core

__all__ = ["polyfit", "matvec", "vecmat", "row_stack"]


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


def matvec(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K", subok=True):
    """(..., m, n) @ (..., n) -> (..., m), NumPy 2.2's gufunc."""
    return _gufunc_result(_core._matvec(x1, x2), out, dtype)


def vecmat(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K", subok=True):
    """conj((..., n)) @ (..., n, m) -> (..., m), NumPy 2.2's gufunc."""
    return _gufunc_result(_core._vecmat(x1, x2), out, dtype)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return _core.vstack(tup, dtype=dtype, casting=casting)
