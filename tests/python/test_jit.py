"""copper.jit: kernels written in Python (CuPy's cupyx.jit spelling and Numba's).

Without a GPU: translation, its errors (naming the Python file and line), the per-signature
cache and, where NVRTC is installed, compilation of every generated source for sm_90. On a
GPU (COPPER_TEST_DEVICES=cuda) every kernel also runs, checked against NumPy."""
import importlib.util
import math
import pathlib

import numpy as np
import pytest

import copper as cp
from copper import jit
from copper.jit import cuda
from test_raw_kernel import HAS_GPU, gpu, needs_nvrtc  # noqa: F401  (gpu: a fixture)

ROOT = pathlib.Path(__file__).resolve().parents[2]
NUMERIC = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
           np.float32, np.float64]


def load_example():
    path = ROOT / "examples" / "python" / "jit_kernels.py"
    import sys
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location("jit_kernels", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


# ---- kernels under test ----

@jit.rawkernel()
def copy(x, y):
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        y[i] = x[i]


@jit.rawkernel()
def add_3d(a, b, out):
    n0, n1, n2 = out.shape
    for i in range(jit.grid(1), out.size, jit.gridsize(1)):
        k = i % n2
        j = (i // n2) % n1
        h = i // (n1 * n2)
        out[h, j, k] = a[h, j, k] + b[h, j, k]


@jit.rawkernel()
def int_ops(a, b, out):
    i = jit.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        out[i, 2] = -a[i] // b[i]
        out[i, 3] = a[i] ** 2 + (a[i] << 1) - (a[i] & 6) + (a[i] | 1) - (a[i] ^ 3) + (~a[i])
        out[i, 4] = abs(a[i]) + min(a[i], b[i]) - max(a[i], b[i], 3)


@jit.rawkernel()
def float_ops(x, out):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sin(v) + math.exp(v / 4) + math.sqrt(abs(v)) + math.atan2(v, 2.0)
        out[i, 1] = v // 0.75 + v % 0.75 + v ** 2 + math.floor(v)
        out[i, 2] = v if v > 0 else -v * 2
        out[i, 3] = np.float32(1) / (1 + math.exp(-v)) if True else 0
        out[i, 4] = math.isnan(v) + math.isinf(v * 1e38) * 2


@jit.rawkernel(device=True)
def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def squared(v):
    return v * v


@jit.rawkernel()
def uses_device_functions(x, out, lo, hi):
    i = jit.grid(1)
    if i < x.size:
        out[i] = clamp(squared(x[i]), lo, hi)


@jit.rawkernel()
def scalars(out, a, b, c, d):
    if jit.grid(1) == 0:
        out[0] = a
        out[1] = b
        out[2] = c
        out[3] = d


@cuda.jit("void(float32[:], float32[:])")
def reverse_in_blocks(x, out):
    tile = cuda.shared.array(shape=0, dtype=np.float32)  # dynamic: blockDim.x floats at launch
    local = cuda.local.array(2, np.float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    local[0] = x[i] if i < x.size else np.float32(0)
    tile[t] = local[0]
    cuda.syncthreads()
    local[1] = tile[cuda.blockDim.x - 1 - t]
    if i < x.size:
        out[i] = local[1]


@jit.rawkernel()
def warp_ops(out):
    t = jit.threadIdx.x
    lane = jit.laneid()
    v = np.int32(t)
    s = v
    offset = 16
    while offset > 0:
        s += jit.shfl_xor_sync(0xFFFFFFFF, s, offset)
        offset //= 2
    out[t, 0] = s                                            # the warp's sum, in every lane
    out[t, 1] = jit.shfl_sync(0xFFFFFFFF, v, 3)              # lane 3's value
    out[t, 2] = jit.shfl_up_sync(0xFFFFFFFF, v, 1)           # the previous lane's (lane 0 its own)
    out[t, 3] = jit.shfl_down_sync(0xFFFFFFFF, v, 2, 16)     # within 16-lane groups
    out[t, 4] = lane + jit.warpsize * 100
    out[t, 5] = jit.ballot_sync(0xFFFFFFFF, lane % 2 == 0)
    out[t, 6] = jit.all_sync(0xFFFFFFFF, v >= 0) + 2 * jit.any_sync(0xFFFFFFFF, lane == 5)
    jit.syncwarp()


@cuda.jit
def numba_lanes(out):
    i = cuda.grid(1)
    exp = cuda.laneid  # Numba reads laneid and warpsize as values; `exp` shadows no C function
    floor = cuda.warpsize
    out[i] = exp * 1000 + floor + math.exp(0.0)


def _atomic_kernel(op):
    """A kernel where thread i applies atomic `op` to out[index[i]] with value[i]."""
    intrinsic = getattr(jit, "atomic_" + op)

    def body(index, value, out, old):
        i = jit.grid(1)
        if i < index.size:
            old[i] = intrinsic(out, index[i], value[i])
    return jit.rawkernel()(body)


ATOMIC_OPS = ["add", "sub", "exch", "min", "max", "and", "or", "xor"]
ATOMIC_KERNELS = {op: _atomic_kernel(op) for op in ATOMIC_OPS}
ATOMIC_DTYPES = {
    "add": [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64],
    "sub": [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64],
    "exch": [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64],
    "min": [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64],
    "max": [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64],
    "and": [np.int32, np.uint32, np.int64, np.uint64], "or": [np.int32, np.uint32, np.int64, np.uint64],
    "xor": [np.int32, np.uint32, np.int64, np.uint64],
}


@jit.rawkernel()
def counters(out, flag, limit):
    jit.atomic_inc(out, 0, limit)
    jit.atomic_dec(out, 1, limit)
    jit.atomic_cas(out, 2, 5, jit.threadIdx.x + 10)  # the first thread to come replaces the 5
    cuda.atomic.compare_and_swap(flag, 7, 9)  # Numba's: on flag[0]


@cuda.jit
def numba_histogram(data, bins):
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, data.shape[0], stride):
        cuda.atomic.add(bins, data[i], 1)


# CuPy's documented examples, unchanged but for the import.
@jit.rawkernel()
def elementwise_copy(x, y, size):
    tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    ntid = jit.gridDim.x * jit.blockDim.x
    for i in range(tid, size, ntid):
        y[i] = x[i]


@jit.rawkernel()
def elementwise_copy_shared(x, y):
    size = len(x)
    smem = jit.shared_memory(cp.float32, 1024)
    tid = jit.threadIdx.x
    ntid = jit.blockDim.x
    for i in range(tid, size, ntid):
        smem[i] = x[i]
    jit.syncthreads()
    for i in range(tid, size, ntid):
        y[i] = smem[i]


def sample(t, ndim=1):
    return np.zeros((4,) * ndim, dtype=t)


COMPILED = {  # kernel -> host arrays / scalars standing for its arguments
    "copy_f32": (copy, (sample(np.float32), sample(np.float32))),
    "copy_bool": (copy, (sample(np.bool_), sample(np.bool_))),
    "copy_strided": (copy, (sample(np.int16)[::2], sample(np.int16)[::-1])),
    "add_3d": (add_3d, (sample(np.float64, 3), sample(np.float64, 3).transpose(2, 0, 1), sample(np.float64, 3))),
    "int_ops_i8": (int_ops, (sample(np.int8), sample(np.int8), sample(np.int8, 2))),
    "int_ops_i64": (int_ops, (sample(np.int64), sample(np.int64), sample(np.int64, 2))),
    "int_ops_u32": (int_ops, (sample(np.uint32), sample(np.uint32), sample(np.uint32, 2))),
    "float_ops_f32": (float_ops, (sample(np.float32), sample(np.float32, 2))),
    "float_ops_f64": (float_ops, (sample(np.float64), sample(np.float64, 2))),
    "device_functions": (uses_device_functions, (sample(np.float32), sample(np.float32), np.float32(0), 2.0)),
    "scalars": (scalars, (sample(np.float64), 1, 2.5, True, np.uint8(7))),
    "reverse_in_blocks": (reverse_in_blocks, (sample(np.float32), sample(np.float32))),
    "warp_ops": (warp_ops, (sample(np.int64, 2),)),
    "numba_lanes": (numba_lanes, (sample(np.int32),)),
    "counters": (counters, (sample(np.uint32), sample(np.uint32), np.uint32(100))),
    "numba_histogram": (numba_histogram, (sample(np.int32), sample(np.uint64))),
    "cupy_elementwise_copy": (elementwise_copy, (sample(np.float32), sample(np.float32), np.uint32(4))),
    "cupy_elementwise_copy_shared": (elementwise_copy_shared, (sample(np.float32), sample(np.float32))),
}


# ---- translation (no GPU, no NVRTC needed) ----

def test_grid_stride_copy_translates_to_the_raw_kernel_loop():
    code = copy.specialize(sample(np.float32), sample(np.float32)).code
    assert 'extern "C" __global__ void jit_copy(float* x, long long x__s0, float* y, long long y__s0)' in code
    assert "for (i = ((long long)blockIdx.x * blockDim.x + threadIdx.x); i < " in code
    assert "y[i] = x[i];" in code


def test_specializations_are_cached_per_dtype_ndim_and_layout():
    k = jit.rawkernel()(copy.__wrapped__)
    a = k.specialize(sample(np.float32), sample(np.float32))
    assert k.specialize(np.ones(9, np.float32), np.ones(3, np.float32)) is a
    assert k.specialize(sample(np.float64), sample(np.float64)) is not a
    assert k.specialize(sample(np.float32)[::2], sample(np.float32)[::-1]) is not a
    assert len(k.cached_codes) == 3 and "__st0" in k.cached_code
    assert any("double* x" in code for code in k.cached_codes.values())
    assert "_jit_at(x, " in k.cached_code  # strided arrays index with byte strides


def test_locals_take_the_promoted_type_of_every_assignment():
    @jit.rawkernel()
    def accumulate(x, out):
        acc = 0
        for i in range(x.size):
            acc += x[i]
        out[0] = acc
    assert "float acc = 0.0f;" in accumulate.specialize(sample(np.float32), sample(np.float32)).code
    # NEP 50: the Python 0 yields, so an int32 sum stays int32 (as 0 + numpy.int32 does).
    assert "int acc = 0;" in accumulate.specialize(sample(np.int32), sample(np.float32)).code


def test_numba_names_are_the_same_intrinsics():
    assert cuda.grid is jit.grid and cuda.atomic.add is jit.atomic_add and cuda.threadIdx is jit.threadIdx
    assert isinstance(cuda.jit(copy.__wrapped__), jit.JitKernel)
    assert isinstance(cuda.jit("void(float32[:], float32[:])")(copy.__wrapped__), jit.JitKernel)
    assert cuda.jit(device=True)(squared)._device
    with pytest.raises(TypeError, match="unsupported options"):
        cuda.jit(no_such_option=True)


def kernel_with_try(x):
    try:
        x[0] = 1
    except Exception:
        pass


def kernel_with_slice(x):
    x[1:2] = 0


def kernel_returning(x):
    return x[0]


def kernel_calling_print(x):
    print(x)


def kernel_with_undefined_name(x):
    x[0] = undefined_thing  # noqa: F821


def kernel_indexing_2d_with_one(x):
    x[0] = 1


def kernel_atomic_min_float(x):
    jit.atomic_and(x, 0, 1.0)


def kernel_shared_with_runtime_size(x):
    s = jit.shared_memory(np.float32, x.size)
    s[0] = 1


def kernel_with_complex(x):
    x[0] = 1j


@pytest.mark.parametrize("func,args,error,message", [
    (kernel_with_try, (sample(np.float32),), NotImplementedError, "cannot translate the statement Try"),
    (kernel_with_slice, (sample(np.float32),), NotImplementedError, "slices"),
    (kernel_returning, (sample(np.float32),), TypeError, "a kernel cannot return a value"),
    (kernel_calling_print, (sample(np.float32),), NotImplementedError, "a call of <built-in function print>"),
    (kernel_with_undefined_name, (sample(np.float32),), NameError, "undefined_thing"),
    (kernel_indexing_2d_with_one, (sample(np.float32, 2),), NotImplementedError, "2-D array with 1 indices"),
    (kernel_atomic_min_float, (sample(np.float32),), TypeError, "atomic_and does not support float32"),
    (kernel_shared_with_runtime_size, (sample(np.float32),), TypeError, "known when the kernel is translated"),
    (kernel_with_complex, (sample(np.float32),), NotImplementedError, "the constant 1j"),
])
def test_untranslatable_code_raises_naming_file_and_line(func, args, error, message):
    import re
    first = func.__code__.co_firstlineno
    with pytest.raises(error, match=re.escape(message)) as info:
        jit.rawkernel()(func).specialize(*args)
    found = re.search(r"test_jit\.py:(\d+): ", str(info.value))
    assert found, str(info.value)
    assert first < int(found.group(1)) <= first + 3


def test_unsupported_arguments():
    with pytest.raises(TypeError, match="float16"):
        copy.specialize(sample(np.float16), sample(np.float16))
    with pytest.raises(TypeError, match="unsupported type str"):
        copy.specialize("x", sample(np.float32))
    with pytest.raises(TypeError, match="launch configuration"):
        copy[1]
    with pytest.raises(RuntimeError, match="device function"):
        clamp(1, (1,), (1, 0, 2))


def test_cpu_arrays_are_a_clear_error():
    x = cp.zeros(4, dtype=cp.float32, device="cpu")
    with pytest.raises(RuntimeError, match="runs only on NVIDIA GPUs: argument 0 is an array on cpu"):
        copy[1, 32](x, x)
    with pytest.raises(TypeError, match="numpy.ndarray in host memory"):
        copy((1,), (32,), (np.zeros(4, np.float32), x))


def test_intrinsics_outside_kernels_raise():
    with pytest.raises(RuntimeError, match="only inside a copper.jit kernel"):
        jit.syncthreads()


SCALE = 3


def scaled_copy(x, y):
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        y[i] = x[i] * SCALE


def copy_through_device_function(x, y):
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        y[i] = squared(x[i])


def test_translations_are_kept_on_disk(monkeypatch, tmp_path):
    import copper.jit._rawkernel as rk
    monkeypatch.setenv("COPPER_CACHE_DIR", str(tmp_path))
    args = (sample(np.float32), sample(np.float32))
    code = jit.rawkernel()(scaled_copy).specialize(*args).code
    assert len(list((tmp_path / "jit").iterdir())) == 1

    def no_translation(*a, **k):
        raise AssertionError("translated again")
    with monkeypatch.context() as m:
        m.setattr(rk, "translate", no_translation)
        assert jit.rawkernel()(scaled_copy).specialize(*args).code == code  # a fresh kernel object: from disk
    monkeypatch.setitem(globals(), "SCALE", 5)  # a global it read changed: translated anew
    assert "x[i] * 5.0f" in jit.rawkernel()(scaled_copy).specialize(*args).code
    jit.rawkernel()(copy_through_device_function).specialize(*args)  # calls Python: not stored
    assert len(list((tmp_path / "jit").iterdir())) == 1  # the changed global replaced the entry


# ---- compilation with NVRTC for sm_90 (no GPU needed) ----

@needs_nvrtc
@pytest.mark.parametrize("name", sorted(COMPILED))
def test_generated_source_compiles(name):
    kernel, args = COMPILED[name]
    kernel.specialize(*args).kernel.compile()


@needs_nvrtc
@pytest.mark.parametrize("op,dtype", [(op, t) for op in ATOMIC_OPS for t in ATOMIC_DTYPES[op]])
def test_atomics_compile_for_every_dtype_cuda_has(op, dtype):
    ATOMIC_KERNELS[op].specialize(sample(np.int32), sample(dtype), sample(dtype), sample(dtype)).kernel.compile()


@needs_nvrtc
def test_course_examples_compile():
    example = load_example()
    args = example.sample_arguments()
    for name, kernel in example.kernels().items():
        kernel.specialize(*args[name]).kernel.compile()


# ---- runs (GPU) ----

def blocks(n, block=256):
    return max(1, min(-(-n // block), 1024))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_grid_stride_copy(gpu, rng, dtype):
    for n in [0, 1, 1000, 100003]:
        x = (rng.uniform(-50, 50, n) if np.dtype(dtype).kind != "u" else rng.uniform(0, 100, n)).astype(dtype)
        y = cp.zeros(n, dtype=dtype)
        copy[blocks(n), 256](cp.asarray(x), y)
        np.testing.assert_array_equal(y.get(), x)


def test_launch_spellings(gpu, rng):
    x = cp.asarray(rng.uniform(-1, 1, 5000).astype(np.float32))
    for launch in [lambda y: copy[4, 128](x, y), lambda y: copy((4,), (128,), (x, y)),
                   lambda y: copy(4, 128, [x, y], shared_mem=0), lambda y: copy[(2, 1), (64, 1, 1), None, 0](x, y),
                   lambda y: copy[4, 128, cp.cuda.Stream()](x, y)]:
        y = cp.zeros_like(x)
        launch(y)
        cp.cuda.synchronize()
        np.testing.assert_array_equal(y.get(), x.get())


def test_strided_3d_arrays(gpu, rng):
    a = rng.uniform(-1, 1, (5, 6, 7))
    b = rng.uniform(-1, 1, (7, 5, 6))
    ca, cb = cp.asarray(a), cp.asarray(b).transpose(1, 2, 0)
    out = cp.zeros((5, 6, 7))
    add_3d[4, 64](ca, cb, out)
    np.testing.assert_array_equal(out.get(), a + b.transpose(1, 2, 0))
    out2 = cp.zeros((5, 6, 14))[:, ::-1, ::2]  # a strided, reversed output
    add_3d[4, 64](ca[::-1], cb, out2)
    np.testing.assert_array_equal(out2.get(), a[::-1] + b.transpose(1, 2, 0))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint32])
def test_integer_semantics_follow_numpy(gpu, rng, dtype):
    signed = np.dtype(dtype).kind == "i"
    a = rng.integers(-9 if signed else 0, 10, 500).astype(dtype)
    b = rng.integers(-4 if signed else 1, 5, 500).astype(dtype)
    b[b == 0] = 3
    out = cp.zeros((500, 5), dtype=dtype)
    int_ops[2, 256](cp.asarray(a), cp.asarray(b), out)
    got = out.get()
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got[:, 0], a // b)
        np.testing.assert_array_equal(got[:, 1], a % b)
        if signed:
            np.testing.assert_array_equal(got[:, 2], -a // b)
        expected3 = a ** 2 + (a << 1) - (a & 6) + (a | 1) - (a ^ 3) + (~a)
        np.testing.assert_array_equal(got[:, 3], expected3.astype(dtype))
        expected4 = np.abs(a) + np.minimum(a, b) - np.maximum(np.maximum(a, b), dtype(3))
        np.testing.assert_array_equal(got[:, 4], expected4.astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_math_keeps_the_float_dtype(gpu, rng, dtype):
    x = rng.uniform(-5, 5, 300).astype(dtype)
    x[:3] = [np.nan, 0.0, -0.75]
    out = cp.zeros((300, 5), dtype=dtype)
    float_ops[2, 256](cp.asarray(x), out)
    got = out.get()
    tol = 1e-5 if dtype == np.float32 else 1e-13  # CUDA's float32 math is within a few ulps
    with np.errstate(all="ignore"):
        e0 = np.sin(x) + np.exp(x / dtype(4)) + np.sqrt(np.abs(x)) + np.arctan2(x, dtype(2))
        np.testing.assert_allclose(got[:, 0], e0, rtol=tol, atol=tol)
        e1 = x // dtype(0.75) + x % dtype(0.75) + x ** 2 + np.floor(x)
        np.testing.assert_allclose(got[:, 1], e1, rtol=tol, atol=tol * 10)
        np.testing.assert_allclose(got[:, 2], np.where(x > 0, x, -x * 2), rtol=tol)
        np.testing.assert_allclose(got[:, 3], np.float32(1) / (1 + np.exp(-x)), rtol=tol, atol=tol)
        np.testing.assert_array_equal(got[:, 4], np.isnan(x) + np.isinf(x * dtype(1e38)) * 2)


def test_device_functions(gpu, rng):
    x = rng.uniform(-2, 2, 1000).astype(np.float32)
    out = cp.zeros(1000, dtype=cp.float32)
    uses_device_functions[4, 256](cp.asarray(x), out, np.float32(0.25), np.float32(2))
    np.testing.assert_array_equal(out.get(), np.clip(x * x, np.float32(0.25), np.float32(2)))


def test_scalar_arguments_keep_their_types(gpu):
    out = cp.zeros(4)
    scalars[1, 32](out, 3, 2.5, True, np.uint8(250))
    np.testing.assert_array_equal(out.get(), [3, 2.5, 1, 250])


def test_dynamic_shared_and_local_arrays(gpu, rng):
    x = rng.uniform(-1, 1, 1000).astype(np.float32)
    out = cp.zeros(1000, dtype=cp.float32)
    reverse_in_blocks[4, 256, 0, 256 * 4](cp.asarray(x), out)  # Numba's [grid, block, stream, shared_mem]
    padded = np.concatenate([x, np.zeros(24, np.float32)]).reshape(4, 256)[:, ::-1].ravel()[:1000]
    np.testing.assert_array_equal(out.get(), padded)


def test_warp_shuffles_and_votes(gpu):
    out = cp.zeros((64, 7), dtype=cp.int64)
    warp_ops[1, 64](out)
    got = out.get()
    t = np.arange(64)
    lane, warp = t % 32, t // 32
    np.testing.assert_array_equal(got[:, 0], [sum(range(32 * w, 32 * w + 32)) for w in warp])
    np.testing.assert_array_equal(got[:, 1], 32 * warp + 3)
    np.testing.assert_array_equal(got[:, 2], np.where(lane == 0, t, t - 1))
    np.testing.assert_array_equal(got[:, 3], np.where(lane % 16 < 14, t + 2, t))
    np.testing.assert_array_equal(got[:, 4], lane + 3200)
    np.testing.assert_array_equal(got[:, 5], 0x55555555)
    np.testing.assert_array_equal(got[:, 6], 3)


@pytest.mark.parametrize("op,dtype", [(op, t) for op in ATOMIC_OPS for t in ATOMIC_DTYPES[op]])
def test_atomics(gpu, rng, op, dtype):
    n, slots = 4000, 7
    index = rng.integers(0, slots, n).astype(np.int32)
    if np.dtype(dtype).kind == "f":
        value = rng.integers(-8, 8, n).astype(dtype)  # small integers: float sums exact in any order
        start = np.zeros(slots, dtype)
    else:
        value = rng.integers(0, 1000, n).astype(dtype)
        start = rng.integers(0, 1000, slots).astype(dtype)
    out = cp.asarray(start)
    old = cp.zeros(n, dtype=dtype)
    ATOMIC_KERNELS[op][blocks(n), 256](cp.asarray(index), cp.asarray(value), out, old)
    got = out.get()
    expected = start.copy()
    with np.errstate(over="ignore"):
        if op == "exch":
            for s in range(slots):  # the last writer wins: some thread's value (or the start)
                vals = set(value[index == s].tolist()) or {start[s]}
                assert got[s] in vals
            return
        ufunc = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
                 "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        ufunc.at(expected, index, value)
    np.testing.assert_array_equal(got, expected)


def test_numba_lane_values(gpu):
    out = cp.zeros(64, dtype=cp.int32)
    numba_lanes[2, 32](out)
    np.testing.assert_array_equal(out.get(), (np.arange(64) % 32) * 1000 + 33)


def test_counters_inc_dec_and_cas(gpu):
    out = cp.asarray(np.array([0, 0, 5], dtype=np.uint32))
    flag = cp.asarray(np.array([7], dtype=np.uint32))
    counters[1, 64](out, flag, np.uint32(1000))
    got = out.get()
    assert got[0] == 64  # inc up to the limit
    assert got[1] == (0 - 64) % 1001  # dec wraps to the limit at 0
    assert 10 <= got[2] < 74  # one thread replaced the 5
    assert int(flag.get()[0]) == 9


def test_numba_histogram(gpu, rng):
    data = rng.integers(0, 50, 20000).astype(np.int32)
    bins = cp.zeros(50, dtype=cp.uint64)
    numba_histogram[16, 128](cp.asarray(data), bins)
    np.testing.assert_array_equal(bins.get(), np.bincount(data, minlength=50))


def test_course_lessons(gpu):
    assert load_example().run_lessons(64)


def test_cupy_documented_examples(gpu, rng):
    size = cp.uint32(2 ** 22)
    x = cp.asarray(rng.normal(size=(int(size),)).astype(np.float32))
    y = cp.empty((int(size),), dtype=cp.float32)
    elementwise_copy((128,), (1024,), (x, y, size))  # RawKernel style
    np.testing.assert_array_equal(y.get(), x.get())
    y = cp.empty((int(size),), dtype=cp.float32)
    elementwise_copy[128, 1024](x, y, size)  # Numba style
    np.testing.assert_array_equal(y.get(), x.get())
    x = cp.asarray(rng.normal(size=(1000,)).astype(np.float32))
    y = cp.empty_like(x)
    elementwise_copy_shared[1, 256](x, y)
    np.testing.assert_array_equal(y.get(), x.get())
