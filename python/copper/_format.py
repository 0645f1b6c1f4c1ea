"""Thin Python-side argument shaping for the format family (the work happens in copper._core)."""
import contextlib

from copper import _core
from copper._core import array_repr, array_str, array2string  # noqa: F401

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array_repr", "array_str", "array2string"]


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None,
                     nanstr=None, infstr=None, formatter=None, sign=None, floatmode=None, *,
                     legacy=None, override_repr=None):
    """Set how copper prints arrays; the options and their checks are NumPy's."""
    _core._set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems,
                            linewidth=linewidth, suppress=suppress, nanstr=nanstr, infstr=infstr,
                            formatter=formatter, sign=sign, floatmode=floatmode, legacy=legacy,
                            override_repr=override_repr)


def get_printoptions():
    """The current print options, as a dict with NumPy's keys."""
    return _core._get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """Context manager that sets print options and restores the previous ones on exit."""
    saved = get_printoptions()
    set_printoptions(*args, **kwargs)
    try:
        yield get_printoptions()
    finally:
        set_printoptions(**saved)
