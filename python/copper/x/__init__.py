"""copper.x: copper's counterpart of CuPy's ``cupyx``.

- ``errstate(linalg=...)``, ``geterr()``, ``seterr(linalg=...)``: what a numerical failure
  of a LAPACK / cuSOLVER routine does on the calling thread. 'raise' (copper's default, as
  NumPy behaves) raises LinAlgError; 'ignore' returns the routine's output (inf or NaN
  entries) without reading its status back, so no op waits for a GPU for it. CuPy's
  default is 'ignore'; copper keeps NumPy's.
- ``copper.x.scipy.fft`` and ``copper.x.scipy.fftpack``: SciPy's FFT functions with
  ``plan=`` and ``overwrite_x=``, and ``get_fft_plan`` (CuPy's plan objects, on both devices).
- ``allow_synchronize(False)``: in the block, what makes the host wait for a device (host
  copies of arrays: ``get``, ``item``, printing; ``synchronize`` calls) raises
  ``DeviceSynchronized``, on either backend (per thread; nested blocks restore the outer
  setting).
"""
import contextlib

from copper import _core
from copper.x import scipy  # noqa: F401

__all__ = ["errstate", "geterr", "seterr", "scipy", "allow_synchronize", "DeviceSynchronized"]

DeviceSynchronized = _core.DeviceSynchronized


@contextlib.contextmanager
def allow_synchronize(allow):
    """``with allow_synchronize(False):`` makes host waits for a device raise
    DeviceSynchronized in the block (CuPy's cupyx.allow_synchronize); the previous setting
    comes back after it."""
    old = _core._synchronize_allowed()
    _core._set_synchronize_allowed(bool(allow))
    try:
        yield
    finally:
        _core._set_synchronize_allowed(old)


def geterr():
    """The calling thread's modes: ``{'linalg': 'raise' | 'ignore'}``."""
    return {"linalg": _core._get_linalg_errstate()}


def seterr(*, linalg=None):
    """Sets the calling thread's linalg mode ('raise' or 'ignore'); returns the previous
    modes (as geterr)."""
    old = geterr()
    if linalg is not None:
        _core._set_linalg_errstate(linalg)
    return old


@contextlib.contextmanager
def errstate(*, linalg=None):
    """``with errstate(linalg='ignore'):`` sets the mode for the block, then restores it."""
    old = seterr(linalg=linalg)
    try:
        yield
    finally:
        seterr(**old)
