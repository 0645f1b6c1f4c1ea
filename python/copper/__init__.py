"""copper: NumPy's API on NVIDIA GPUs, and on multi-threaded CPUs where no GPU is present.

Change ``import numpy as np`` to ``import copper as cp``. Arrays live on a device
(``cp.get_default_device()``); ``cp.asarray`` moves NumPy data there and
``cp.asnumpy`` / ``ndarray.get()`` bring it back.
"""
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
from copper.cuda import get_default_memory_pool  # noqa: F401

__version__ = "0.1.0"
