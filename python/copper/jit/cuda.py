"""Numba's spelling of the same kernels, where it is only another name (``numba.cuda``):
``from copper.jit import cuda`` in place of ``from numba import cuda`` ports the CUDA
Python course's kernels. docs/jit.md lists exactly what is accepted.

    @cuda.jit
    def add(x, y, out):
        start, stride = cuda.grid(1), cuda.gridsize(1)
        for i in range(start, x.shape[0], stride):
            out[i] = x[i] + y[i]
    add[blocks, threads](x, y, out)
"""
import types

from copper.jit import _intrinsics as _i

__all__ = ["jit", "grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize",
           "syncthreads", "syncwarp", "shared", "local", "atomic", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
           "shfl_xor_sync", "all_sync", "any_sync", "ballot_sync", "to_device", "device_array",
           "device_array_like", "synchronize"]

threadIdx, blockIdx, blockDim, gridDim = _i.threadIdx, _i.blockIdx, _i.blockDim, _i.gridDim
grid, gridsize, laneid, warpsize = _i.grid, _i.gridsize, _i.laneid, _i.warpsize
syncthreads, syncwarp = _i.syncthreads, _i.syncwarp
shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync = _i.shfl_sync, _i.shfl_up_sync, _i.shfl_down_sync, \
    _i.shfl_xor_sync
all_sync, any_sync, ballot_sync = _i.all_sync, _i.any_sync, _i.ballot_sync

# cuda.shared.array(shape, dtype) and cuda.local.array(shape, dtype): Numba's argument order.
shared = types.SimpleNamespace(array=_i.Intrinsic("shared.array", "numba_shared"))
local = types.SimpleNamespace(array=_i.Intrinsic("local.array", "numba_local"))
# cuda.atomic.add(array, index, value) and friends; compare_and_swap(array, old, new) on array[0].
atomic = types.SimpleNamespace(
    add=_i.atomic_add, sub=_i.atomic_sub, exch=_i.atomic_exch, min=_i.atomic_min, max=_i.atomic_max,
    inc=_i.atomic_inc, dec=_i.atomic_dec, and_=_i.atomic_and, or_=_i.atomic_or, xor=_i.atomic_xor,
    cas=_i.atomic_cas, compare_and_swap=_i.Intrinsic("atomic.compare_and_swap", "atomic"))


def jit(func_or_sig=None, device=False, **options):
    """``@cuda.jit``, ``@cuda.jit()``, ``@cuda.jit("void(float32[:])")`` and ``@cuda.jit(device=True)``.
    Signatures are accepted and ignored: kernels are specialised on the arguments of each launch."""
    from copper.jit._rawkernel import rawkernel
    unknown = set(options) - {"fastmath", "debug", "lineinfo", "inline", "cache", "opt"}
    if unknown:
        raise TypeError("cuda.jit() got unsupported options: " + ", ".join(sorted(unknown)))
    if callable(func_or_sig):
        return rawkernel(device=device)(func_or_sig)
    return rawkernel(device=device)


def to_device(array, stream=None):
    """A GPU copy of a host array (Numba's cuda.to_device)."""
    import copper
    return copper.asarray(array, device="cuda")


def device_array(shape, dtype=float, stream=None):
    import copper
    return copper.empty(shape, dtype=dtype, device="cuda")


def device_array_like(array, stream=None):
    import copper
    return copper.empty(array.shape, dtype=array.dtype, device="cuda")


def synchronize():
    import copper
    copper.cuda.synchronize()
