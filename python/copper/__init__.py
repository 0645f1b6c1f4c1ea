"""copper: NumPy's API on NVIDIA GPUs, and on multi-threaded CPUs where no GPU is present.

Change ``import numpy as np`` to ``import copper as cp``. Arrays live on a device
(``cp.get_default_device()``); ``cp.asarray`` moves NumPy data there and
``cp.asnumpy`` / ``ndarray.get()`` bring it back.
"""
from copper import _blas_hint  # noqa: F401  (before the core: a fast BLAS for CPU matmul)
from copper._core import *  # noqa: F401,F403
from copper._core import ndarray, Device, OutOfMemoryError, CompileError  # noqa: F401
from copper._core import RawKernel, RawModule  # noqa: F401  (CUDA C++ source kernels, GPU only)
from copper._dtypes import *  # noqa: F401,F403
from copper._ufuncs import *  # noqa: F401,F403
from copper._reductions import *  # noqa: F401,F403
from copper._manipulation import *  # noqa: F401,F403
from copper._creation import *  # noqa: F401,F403
from copper._format import *  # noqa: F401,F403
from copper._histograms import *  # noqa: F401,F403
from copper._sorting import *  # noqa: F401,F403
from copper._kernels import ElementwiseKernel, ReductionKernel  # noqa: F401  (CuPy's user kernels, both devices)
from copper import random  # noqa: F401  (numpy.random / cupy.random)
from copper import linalg  # noqa: F401  (numpy.linalg / cupy.linalg)
from copper import cuda  # noqa: F401  (streams, events, devices, memory pool: CuPy's cupy.cuda)
from copper import profiler  # noqa: F401  (benchmark: CuPy's cupyx.profiler)
from copper import fft  # noqa: F401  (numpy.fft / cupy.fft)
from copper import lib  # noqa: F401  (numpy.lib.stride_tricks / cupy.lib.stride_tricks)
from copper.cuda import get_default_memory_pool  # noqa: F401
from copper._flatiter import flatiter  # noqa: F401  (ndarray.flat)
from copper._index_tricks import r_, c_, s_, index_exp, mgrid, ogrid  # noqa: F401
from copper._dlpack import from_dlpack, fromDlpack  # noqa: F401  (DLPack consumer; __dlpack__ is on ndarray)
from copper._numpy_dispatch import get_array_module  # noqa: F401  (and NumPy's __array_ufunc__/__array_function__)
from copper._array_api import *  # noqa: F401,F403  (the array API standard: copper is its own namespace)
from copper import _serialization  # noqa: F401  (pickling for Dask's distributed workers; Dask tokens)
from copper import _dask  # noqa: F401  (Dask's per-type dispatch for copper chunks, once Dask is imported)
from copper import jit  # noqa: F401  (kernels written in Python, translated to CUDA C++)
from copper._vectorize import vectorize  # noqa: F401  (numpy.vectorize on both devices)
from copper._padding import pad  # noqa: F401  (numpy.pad: every mode; the core in C++)
from copper._numerical import *  # noqa: F401,F403  (polyfit, matvec, vecmat, row_stack)
from copper._functional import *  # noqa: F401,F403  (apply_along_axis, apply_over_axes, piecewise)

from copper._fuse import fuse  # noqa: F401  (CuPy's explicit fusion decorator)
from copper._fusion_trace import traced_functions as _traced_functions

globals().update(_traced_functions(globals()))  # sum, where, ... answer copper.fuse's proxies

ndarray.flat = property(flatiter, doc="A flat iterator over the array in C order (CuPy's flatiter).")

__version__ = "0.1.0"

# Utilities, file I/O, floating-point error state and array assertions (issue 14).
from copper._utilities import *  # noqa: F401,F403,E402
from copper._io import *  # noqa: F401,F403,E402
from copper._errstate import *  # noqa: F401,F403,E402
from copper import testing  # noqa: F401,E402  (cupy.testing's assertions)
from copper import x  # noqa: F401,E402  (CuPy's cupyx: errstate for linalg, scipy.fft, scipy.fftpack)
from copper.cuda import get_default_pinned_memory_pool  # noqa: F401,E402
# CuPy keeps NumPy 1's top-level name for the warning fromDlpack gives (NumPy 2: numpy.exceptions).
from numpy.exceptions import VisibleDeprecationWarning  # noqa: F401,E402


def _ndarray_set(self, arr, stream=None):
    """CuPy's ndarray.set: copies the NumPy array `arr` (same shape and dtype) into this
    array; `stream` orders the copy (the current stream when None)."""
    import numpy
    if not isinstance(arr, numpy.ndarray):
        raise TypeError("Only numpy.ndarray can be set to copper.ndarray")
    if arr.dtype != self.dtype:
        raise TypeError(f"{arr.dtype} array cannot be set to {self.dtype} array")
    if arr.shape != self.shape:
        raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
    if stream is None:
        self[...] = arr
    else:
        with stream:
            self[...] = arr


ndarray.set = _ndarray_set


# Last, once every public function is in place: copper's C++ functions become inspectable
# (inspect.signature, help(), the array API suite's signature tests).
from copper import _signatures  # noqa: E402
_signatures.make_inspectable(globals(), __name__)
# The array API suite inspects the DLPack export's keyword-only parameters.
_signatures.make_methods_inspectable(ndarray, ["__dlpack__"])
