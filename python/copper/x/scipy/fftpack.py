"""scipy.fftpack on copper arrays (CuPy's cupyx.scipy.fftpack), on both devices, and
``get_fft_plan``, CuPy's plan objects.

``fft``, ``ifft``, ``fftn``, ``ifftn`` as SciPy's (no ``norm``: ifft divides by n), with
CuPy's ``plan=``; ``rfft`` returns SciPy's packed real sequence
``[y(0), Re y(1), Im y(1), ..., Re y(n/2)]`` (the last imaginary part too for odd n) and
``irfft`` takes it. float16, float32 and complex64 input transforms in single precision.
"""
import copper
from copper import _core
from copper.fft import _plans
from copper.fft._plans import get_fft_plan  # noqa: F401

_f = _core._fft

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "get_fft_plan"]


def _array(x):
    return x if isinstance(x, _core.ndarray) else _core.asarray(x)


def _nd_args(x, shape, axes):
    """SciPy's fftpack rules for shape and axes: an int shape means one axis; without axes
    shape covers every axis; -1 keeps an axis's length."""
    if isinstance(shape, int):
        shape = (shape,)
    if isinstance(axes, int):
        axes = (axes,)
    if shape is not None:
        if axes is None:
            if len(shape) != x.ndim:
                raise ValueError("when given, axes and shape arguments have to be of the same length")
            axes = tuple(range(x.ndim))
        if len(axes) != len(shape):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        shape = tuple(x.shape[a] if n == -1 else n for n, a in zip(shape, axes))
    return shape, axes


def _nd(transform, numpy_fn, x, shape, axes, plan):
    x = _array(x)
    shape, axes = _nd_args(x, shape, axes)
    if (axes is not None and len(axes) == 0) or x.ndim == 0:
        return numpy_fn(x, shape, axes)  # NumPy's answer: the input itself
    return _plans.run(transform, "C2C", x, shape, axes, None, None, plan, True)


def fft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The discrete Fourier transform along `axis`, padded or cropped to `n`."""
    return _plans.run(_f.fft, "C2C", x, n, axis, None, None, plan, False)


def ifft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The inverse transform (divided by n)."""
    return _plans.run(_f.ifft, "C2C", x, n, axis, None, None, plan, False)


def fftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """The transform over `axes` (all by default), padded or cropped to `shape`."""
    return _nd(_f.fftn, copper.fft.fftn, x, shape, axes, plan)


def ifftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """The inverse of fftn (divided by the product of the transformed lengths)."""
    return _nd(_f.ifftn, copper.fft.ifftn, x, shape, axes, plan)


def rfft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The transform of real input in SciPy's packed real layout (n values along `axis`):
    y(0), then the real and imaginary parts of y(1), y(2), ... (plan: an R2C Plan1d)."""
    x = _array(x)
    if x.dtype.kind == "c":
        raise TypeError("1st argument must be real sequence")
    y = copper.moveaxis(_plans.run(_f.rfft, "R2C", x, n, axis, None, None, plan, False), axis, -1)
    length = 2 * (y.shape[-1] - 1) + 1  # n, or n + 1 when n is even (Im y(n/2) = 0 is dropped)
    pairs = copper.stack([y.real[..., 1:], y.imag[..., 1:]], axis=-1).reshape(y.shape[:-1] + (length - 1,))
    packed = copper.concatenate([y.real[..., :1], pairs], axis=-1)
    n = x.shape[axis] if n is None else n
    return copper.moveaxis(packed[..., :n], -1, axis)


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """rfft's inverse: the real sequence whose packed transform is `x` (padded or cropped
    to `n` values along `axis` first), divided by n."""
    x = _array(x)
    if x.dtype.kind == "c":
        raise TypeError("1st argument must be real sequence")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-d")
    n = x.shape[axis] if n is None else int(n)
    if n < 1:
        raise ValueError(f"Invalid number of data points ({n}) specified")
    x = copper.moveaxis(x, axis, -1)
    if x.shape[-1] > n:
        x = x[..., :n]
    elif x.shape[-1] < n:
        x = copper.concatenate([x, copper.zeros(x.shape[:-1] + (n - x.shape[-1],), x.dtype)], axis=-1)
    m = n // 2 + 1
    re = copper.concatenate([x[..., :1], x[..., 1::2]], axis=-1)
    im = x[..., 2::2]
    zeros = copper.zeros(x.shape[:-1] + (1,), x.dtype)
    im = copper.concatenate([zeros, im] + ([zeros] if im.shape[-1] + 1 < m else []), axis=-1)
    y = re + 1j * im  # complex64 for float32 input (NEP 50), complex128 for float64 and integers
    return copper.moveaxis(copper.fft.irfft(y, n, -1), -1, axis)
