"""The names a copper.jit kernel may use (CuPy's cupyx.jit spelling). They are markers: the
translator recognises them by identity; called from ordinary Python they raise."""

__all__ = [
    "threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "laneid", "warpsize", "syncthreads",
    "syncwarp", "shared_memory", "local_memory", "atomic_add", "atomic_sub", "atomic_exch", "atomic_min",
    "atomic_max", "atomic_inc", "atomic_dec", "atomic_cas", "atomic_and", "atomic_or", "atomic_xor",
    "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync", "any_sync", "ballot_sync",
]


class Intrinsic:
    """A function that exists only inside a translated kernel."""

    def __init__(self, name, kind=None):
        self.name = name
        self.kind = kind or name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"copper.jit.{self.name} can be used only inside a copper.jit kernel")

    def __repr__(self):
        return f"<copper.jit intrinsic {self.name}>"


class Dim3(Intrinsic):
    """threadIdx / blockIdx / blockDim / gridDim: .x, .y, .z are uint32 (CUDA's)."""


threadIdx = Dim3("threadIdx")
blockIdx = Dim3("blockIdx")
blockDim = Dim3("blockDim")
gridDim = Dim3("gridDim")
grid = Intrinsic("grid")
gridsize = Intrinsic("gridsize")
laneid = Intrinsic("laneid")       # CuPy: laneid(); Numba: cuda.laneid (no call); both accepted
warpsize = Intrinsic("warpsize")   # 32, as an int32 (CUDA's warpSize)
syncthreads = Intrinsic("syncthreads")
syncwarp = Intrinsic("syncwarp")
shared_memory = Intrinsic("shared_memory")  # shared_memory(dtype, size): size None is the dynamic block
local_memory = Intrinsic("local_memory")    # local_memory(dtype, size): a per-thread array
_ATOMICS = ["add", "sub", "exch", "min", "max", "inc", "dec", "cas", "and", "or", "xor"]
atomic_add, atomic_sub, atomic_exch, atomic_min, atomic_max, atomic_inc, atomic_dec, atomic_cas, atomic_and, \
    atomic_or, atomic_xor = (Intrinsic("atomic_" + a, "atomic") for a in _ATOMICS)
shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync = (
    Intrinsic(n, "shfl") for n in ["shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"])
all_sync, any_sync, ballot_sync = (Intrinsic(n, "vote") for n in ["all_sync", "any_sync", "ballot_sync"])
