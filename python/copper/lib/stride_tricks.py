"""numpy.lib.stride_tricks: views of an array's memory with strides the caller chooses.

copper's arrays are always writeable and have no subclasses, so `writeable` and `subok`
change nothing. Unlike NumPy, a view that would reach outside the array's memory raises
ValueError (on a GPU such a view would read another allocation or fault)."""
from copper import _core

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of x with `shape` and byte `strides` (x's by default; C strides for a new
    shape of a C-contiguous x, as NumPy)."""
    return _core._as_strided(x, shape, strides)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of `window_shape` over `axis` (all axes when None) as a view: x's axes
    shortened to the window positions, then one axis per window entry."""
    return _core._sliding_window_view(x, window_shape, axis)
