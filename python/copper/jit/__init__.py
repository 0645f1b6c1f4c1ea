"""Kernels written in Python, translated to CUDA C++ (CuPy's ``cupyx.jit`` spelling):

    from copper import jit

    @jit.rawkernel()
    def scaled_add(x, y, out, a):
        for i in range(jit.grid(1), x.size, jit.gridsize(1)):
            out[i] = a * x[i] + y[i]

    scaled_add[128, 256](x, y, out, numpy.float32(2))

Each launch's argument dtypes, ndims and layouts pick (and on first use translate) one
specialization, compiled by ``copper.RawKernel`` through NVRTC and its caches. Numba's
spelling is in ``copper.jit.cuda``; docs/jit.md lists what is accepted.
"""
from copper.jit._intrinsics import *  # noqa: F401,F403  (threadIdx, grid, shared_memory, atomics, ...)
from copper.jit._intrinsics import __all__ as _intrinsic_names
from copper.jit._rawkernel import JitKernel, rawkernel  # noqa: F401
from copper.jit import cuda  # noqa: F401,E402  (Numba's spelling)

__all__ = ["rawkernel", "JitKernel", "cuda", *_intrinsic_names]
