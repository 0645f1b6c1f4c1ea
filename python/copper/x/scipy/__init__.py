"""copper.x.scipy: SciPy's functions on copper arrays (CuPy's cupyx.scipy): fft, fftpack."""
from copper.x.scipy import fft, fftpack  # noqa: F401

__all__ = ["fft", "fftpack"]
