"""numpy.fft for copper arrays (CuPy's cupy.fft), and the array API's fft extension.

Transforms run where the array lives: CPU arrays in FFTW (loaded at run time:
$COPPER_FFTW_PATH or Debian's libfftw3-double3 / libfftw3-single3), GPU arrays in cuFFT
($COPPER_CUFFT_PATH, libcufft.so.12), on the current stream. As in NumPy 2, float32 and
complex64 input is transformed in single precision, everything else in double (float16
in single). Plans are cached per device: see ``copper.fft.config.get_plan_cache()``.
The work happens in C++ (copper._core._fft); this module adds NumPy's deprecation
warnings and returns the input itself when there is no axis to transform, as NumPy does.
"""
import numbers
import warnings

from copper import _core
from copper.fft import config  # noqa: F401  (CuPy's plan cache controls)
from copper.fft._plans import run as _run  # a `with plan:` of copper.x.scipy.fftpack.get_fft_plan

_f = _core._fft

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_AXES_NONE = ("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future version of "
              "NumPy, this will raise an error and `s[i]` will correspond to the size along the transformed axis "
              "specified by `axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for an "
              "array of dimension k.")
_S_NONE = ("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise an error in "
           "a future version of NumPy. To use the default behaviour of the corresponding 1-D transform, pass the "
           "value matching the default for its `n` parameter. To use the default behaviour for every axis, the `s` "
           "argument can be omitted.")


def _nd_args(a, s, axes):
    """NumPy 2's warnings for s; True when no axis is left to transform (the input comes back)."""
    if s is not None:
        s = list(s)
        if axes is None:
            warnings.warn(_AXES_NONE, DeprecationWarning, stacklevel=3)
        if any(v is None for v in s):
            warnings.warn(_S_NONE, DeprecationWarning, stacklevel=3)
        return len(s) == 0 and (axes is None or len(axes) == 0)
    if axes is not None:
        return len(axes) == 0
    return getattr(a, "ndim", None) == 0


def _same(a):
    return a if isinstance(a, _core.ndarray) else _core.asarray(a)


def fft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.fft, "C2C", a, n, axis, norm, out, None, False)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.ifft, "C2C", a, n, axis, norm, out, None, False)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.rfft, "R2C", a, n, axis, norm, out, None, False)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.irfft, "C2R", a, n, axis, norm, out, None, False)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.hfft, "C2R", a, n, axis, norm, out, None, False)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    return _run(_f.ihfft, "R2C", a, n, axis, norm, out, None, False)


def fftn(a, s=None, axes=None, norm=None, out=None):
    if _nd_args(a, s, axes):
        return _same(a)
    return _run(_f.fftn, "C2C", a, s, axes, norm, out, None, True)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    if _nd_args(a, s, axes):
        return _same(a)
    return _run(_f.ifftn, "C2C", a, s, axes, norm, out, None, True)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    if _nd_args(a, s, axes):
        return _same(a)
    return _run(_f.fftn, "C2C", a, s, axes, norm, out, None, True)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    if _nd_args(a, s, axes):
        return _same(a)
    return _run(_f.ifftn, "C2C", a, s, axes, norm, out, None, True)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    _nd_args(a, s, axes)
    return _run(_f.rfftn, "R2C", a, s, axes, norm, out, None, True)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    _nd_args(a, s, axes)
    return _run(_f.rfftn, "R2C", a, s, axes, norm, out, None, True)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    _nd_args(a, s, axes)
    return _run(_f.irfftn, "C2R", a, s, axes, norm, out, None, True)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    _nd_args(a, s, axes)
    return _run(_f.irfftn, "C2R", a, s, axes, norm, out, None, True)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    if not isinstance(n, numbers.Integral):
        raise ValueError("n should be an integer")
    1.0 / (n * d)  # NumPy's ZeroDivisionError for n * d == 0
    return _f.fftfreq(int(n), float(d), device, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    if not isinstance(n, numbers.Integral):
        raise ValueError("n should be an integer")
    1.0 / (n * d)
    return _f.rfftfreq(int(n), float(d), device, dtype)


def fftshift(x, axes=None):
    return _f.fftshift(x, axes)


def ifftshift(x, axes=None):
    return _f.ifftshift(x, axes)


for _fn in (fft, ifft, rfft, irfft, hfft, ihfft, fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn, fftfreq,
            rfftfreq, fftshift, ifftshift):
    _fn.__doc__ = f"numpy.fft.{_fn.__name__} on copper arrays (NumPy's arguments and results)."
del _fn

from copper.fft import _fft  # noqa: E402,F401  (CuPy's internal planning helpers, for CuPy's tests)
