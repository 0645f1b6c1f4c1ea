"""scipy.fft on copper arrays (CuPy's cupyx.scipy.fft), on both devices.

SciPy's signatures, with CuPy's keyword-only ``plan=`` (a plan from
``copper.x.scipy.fftpack.get_fft_plan``; CuPy's ValueError when it does not fit the call,
RuntimeError when a ``with plan:`` block is active too). Values are copper.fft's: float16,
float32 and complex64 input transforms in single precision, everything else in double, as
SciPy does. ``overwrite_x`` only permits overwriting (copper never does) and ``workers``
is accepted and ignored: copper's CPU transforms use its own thread pool
(``copper.set_num_threads``). With ``s`` and no ``axes``, the last ``len(s)`` axes are
transformed (SciPy's rule, without NumPy 2's deprecation warning).
"""
import copper.fft as _np_fft
from copper import _core
from copper.fft import _plans
from copper.fft import fftfreq, rfftfreq, fftshift, ifftshift  # noqa: F401

_f = _core._fft

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
           "next_fast_len"]

_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _one(transform, value_type, x, n, axis, norm, plan):
    return _plans.run(transform, value_type, x, n, axis, norm, None, plan, False)


def _many(transform, value_type, x, s, axes, norm, plan, numpy_fn):
    if s is not None and axes is None:
        axes = tuple(range(-len(s), 0))
    if (axes is not None and len(axes) == 0) or getattr(x, "ndim", 1) == 0:
        return numpy_fn(x, s, axes, norm)  # NumPy's answer: the input itself, or IndexError
    return _plans.run(transform, value_type, x, s, axes, norm, None, plan, True)


def _conj(x):
    return _core.conjugate(x if isinstance(x, _core.ndarray) else _core.asarray(x))


def fft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.fft, "C2C", x, n, axis, norm, plan)


def ifft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.ifft, "C2C", x, n, axis, norm, plan)


def rfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.rfft, "R2C", x, n, axis, norm, plan)


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.irfft, "C2R", x, n, axis, norm, plan)


def hfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.hfft, "C2R", x, n, axis, norm, plan)


def ihfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _one(_f.ihfft, "R2C", x, n, axis, norm, plan)


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _many(_f.fftn, "C2C", x, s, axes, norm, plan, _np_fft.fftn)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _many(_f.ifftn, "C2C", x, s, axes, norm, plan, _np_fft.ifftn)


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _many(_f.rfftn, "R2C", x, s, axes, norm, plan, _np_fft.rfftn)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    return _many(_f.irfftn, "C2R", x, s, axes, norm, plan, _np_fft.irfftn)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The transform of Hermitian-symmetric input, a real result: irfftn of conj(x) with
    the normalization's direction swapped (SciPy's definition)."""
    if norm not in _SWAP:
        return irfftn(x, s, axes, norm)  # NumPy's error for the name
    return irfftn(_conj(x), s, axes, _SWAP[norm], plan=plan)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """hfftn's inverse: conj(rfftn(x)) with the normalization's direction swapped."""
    if norm not in _SWAP:
        return rfftn(x, s, axes, norm)
    return _core.conjugate(rfftn(x, s, axes, _SWAP[norm], plan=plan))


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return fftn(x, s, axes, norm, plan=plan)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return ifftn(x, s, axes, norm, plan=plan)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return rfftn(x, s, axes, norm, plan=plan)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return irfftn(x, s, axes, norm, plan=plan)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return hfftn(x, s, axes, norm, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return ihfftn(x, s, axes, norm, plan=plan)


def next_fast_len(target, real=False):
    """The smallest length >= target whose prime factors are all 2, 3, 5 or 7 (CuPy's rule:
    the sizes cuFFT transforms fastest, FFTW too); `real` is accepted as SciPy's and, as in
    CuPy, changes nothing."""
    target = int(target)
    if target < 0:
        raise ValueError("Target cannot be negative.")
    n = target
    while n > 6:
        m = n
        for p in (2, 3, 5, 7):
            while m % p == 0:
                m //= p
        if m == 1:
            break
        n += 1
    return n


for _fn in (fft, ifft, rfft, irfft, hfft, ihfft, fftn, ifftn, rfftn, irfftn, fft2, ifft2, rfft2, irfft2):
    if _fn.__doc__ is None:
        _fn.__doc__ = f"scipy.fft.{_fn.__name__} on copper arrays (SciPy's arguments; plan= as CuPy's)."
del _fn
