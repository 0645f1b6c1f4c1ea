"""NumPy's floating-point error handling for copper arrays: seterr, geterr, seterrcall,
geterrcall, errstate.

The modes live in C++ (copper/errstate.hpp), per thread, with NumPy's defaults (warn on
divide-by-zero, overflow and invalid; ignore underflow). copper's state is its own: a
``numpy.errstate`` block does not change what copper ops report, and ``copper.errstate``
does not change NumPy's. On the CPU device errors are reported as the op returns; on a GPU
at the next synchronization (a host read, ``synchronize()``, or leaving an ``errstate``
block), so that no op waits for the GPU.
"""
import contextlib
import threading
import warnings

from copper import _core

__all__ = ["seterr", "geterr", "seterrcall", "geterrcall", "errstate"]

_KEYS = ("divide", "over", "under", "invalid")
_calls = threading.local()  # the seterrcall object of each thread (NumPy's is per context too)


def geterr():
    """numpy.geterr: the calling thread's modes, a dict with keys divide, over, under, invalid."""
    return _core._geterr()


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002 (NumPy's name)
    """numpy.seterr: sets how floating-point errors are handled ('ignore', 'warn', 'raise',
    'call', 'print', 'log'); returns the previous settings."""
    old = _core._geterr()
    new = dict(old)
    if all is not None:
        new = dict.fromkeys(_KEYS, all)
    for key, value in zip(_KEYS, (divide, over, under, invalid)):
        if value is not None:
            new[key] = value
    return _core._seterr(**new)


def geterrcall():
    """numpy.geterrcall: the function or log object of 'call' and 'log' modes (None if unset)."""
    return getattr(_calls, "func", None)


def seterrcall(func):
    """numpy.seterrcall: sets the function ('call' mode: func(kind, flag)) or the object with
    a write method ('log' mode); returns the previous one."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("Only callable can be used as callback")
    old = geterrcall()
    _calls.func = func
    return old


_unset = object()


class errstate(contextlib.ContextDecorator):
    """numpy.errstate: ``with copper.errstate(divide='ignore'):`` sets the modes for a block
    (also a decorator). GPU work launched in the block is synchronized when it ends, so its
    errors are reported under the block's modes."""

    def __init__(self, *, call=_unset, all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
        self._call = call
        self._kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._saved = []

    def __enter__(self):
        old = seterr(**self._kwargs)
        old_call = seterrcall(self._call) if self._call is not _unset else _unset
        self._saved.append((old, old_call))
        return self

    def __exit__(self, *exc):
        old, old_call = self._saved.pop()
        try:
            if exc[0] is None:
                _core._flush_fp_errors()
        finally:
            _core._seterr(**old)
            if old_call is not _unset:
                seterrcall(old_call)
        return False


def _handle(mode, kind, flag, message):
    """Carries out one floating-point error in mode 'warn', 'print', 'call' or 'log' (NumPy's way)."""
    if mode == "warn":
        warnings.warn(message, RuntimeWarning, stacklevel=2)
    elif mode == "print":
        print(f"Warning: {message}")
    else:
        func = geterrcall()
        if func is None:
            raise ValueError(f"No callable set for floating-point error mode '{mode}' (seterrcall)")
        if mode == "log" or (not callable(func) and hasattr(func, "write")):
            func.write(f"Warning: {message}\n")
        else:
            func(kind, flag)


_core._set_fp_error_handler(_handle)
