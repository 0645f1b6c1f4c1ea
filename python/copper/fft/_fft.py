"""CuPy's internal planning helpers (``cupy.fft._fft``), kept so code and tests written
against CuPy's planning rules run: ``_default_fft_func`` says whether a call would use
one multi-dimensional plan (``_fftn``) or one plan per axis (``_fft``)."""
from copper.fft import config


def _fft(a, s=None, axes=None, norm=None, direction="forward"):
    """Transforms `axes` one at a time (CuPy's 1-d planning path)."""
    import copper.fft as f
    step = f.fft if direction in ("forward", -1) else f.ifft
    axes = list(range(-len(s), 0)) if axes is None and s is not None else axes
    axes = list(range(a.ndim)) if axes is None else list(axes)
    for i in reversed(range(len(axes))):
        a = step(a, None if s is None else s[i], axes[i], norm)
    return a


def _fftn(a, s=None, axes=None, norm=None, direction="forward"):
    """Transforms `axes` together (CuPy's n-d planning path)."""
    import copper.fft as f
    return (f.fftn if direction in ("forward", -1) else f.ifftn)(a, s, axes, norm)


def _default_fft_func(a, s=None, axes=None, plan=None, value_type="C2C"):
    """_fftn when up to three adjacent axes that include the first or last one are
    transformed (in increasing order for real transforms) and n-d planning is on."""
    if not config._nd_planning[0]:
        return _fft
    ndim = a.ndim
    if axes is None:
        axes = range(-len(s), 0) if s is not None else range(ndim)
    axes = [ax % ndim for ax in axes]
    ordered = sorted(set(axes))
    if not 1 < len(ordered) <= 3 or len(ordered) != len(axes):
        return _fft
    if ordered != list(range(ordered[0], ordered[-1] + 1)) or (ordered[0] != 0 and ordered[-1] != ndim - 1):
        return _fft
    if value_type != "C2C" and axes != ordered:
        return _fft
    return _fftn


def _size_last_transform_axis(shape, s, axes):
    """The length of the last transformed axis."""
    if s is not None and s[-1] is not None:
        return s[-1]
    if axes is not None:
        return shape[axes[-1]]
    return shape[-1]
