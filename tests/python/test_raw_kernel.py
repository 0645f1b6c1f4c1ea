"""copper.RawKernel / copper.RawModule (CuPy's API): CUDA C++ source compiled with NVRTC.

Without a GPU only construction, argument checks, the GPU-only error and compilation
(NVRTC for sm_90, where NVRTC is installed) run; every launch test needs a GPU and runs on
cuda:0 (COPPER_TEST_DEVICES=cuda on a GPU machine)."""
import importlib.util
import pathlib

import numpy as np
import pytest

import copper as cp
from conftest import DEVICES

ROOT = pathlib.Path(__file__).resolve().parents[2]
HAS_GPU = any(d.startswith("cuda") for d in DEVICES)

COPY = r"""
extern "C" __global__ void copy(const float* x, float* y, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    y[i] = x[i];
}
"""

# Line 3 uses an undeclared name: the log must point at line 3 of this text.
BROKEN = 'extern "C" __global__ void broken(float* x) {\n  int i = threadIdx.x;\n  x[i] = undefined_name;\n}\n'


def _nvrtc_usable():
    try:
        cp.RawKernel(COPY, "copy").compile()
        return True
    except cp.CompileError:
        raise
    except RuntimeError:  # no NVRTC, or a build without the CUDA backend
        return False


HAS_NVRTC = _nvrtc_usable()
needs_nvrtc = pytest.mark.skipif(not HAS_NVRTC, reason="needs NVRTC (the CUDA toolkit)")
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a GPU")


@pytest.fixture
def gpu():
    """Runs the test with cuda:0 as the default device; skips without a GPU."""
    if not HAS_GPU:
        pytest.skip("needs a GPU")
    previous = cp.get_default_device()
    cp.set_default_device("cuda:0")
    yield "cuda:0"
    cp.set_default_device(previous)


def load_example():
    spec = importlib.util.spec_from_file_location("custom_kernels", ROOT / "examples" / "python" / "custom_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- construction and flags (any machine) ----

def test_properties():
    k = cp.RawKernel(COPY, "copy", options=("-std=c++17",))
    assert k.code == COPY and k.name == "copy" and k.options == ("-std=c++17",)
    assert k.backend == "nvrtc" and k.enable_cooperative_groups is False
    assert repr(k) == "<copper.RawKernel 'copy'>"
    assert cp.RawKernel(COPY, "copy").options == ()
    m = cp.RawModule(code=COPY, options=["-std=c++17"], name_expressions=["copy"])
    assert m.code == COPY and m.options == ("-std=c++17",) and m.name_expressions == ("copy",)
    assert cp.RawModule(code=COPY).name_expressions is None
    assert m.get_function("copy").name == "copy"


def test_compiler_flags():
    with pytest.raises(NotImplementedError, match="NVRTC only"):
        cp.RawKernel(COPY, "copy", backend="nvcc")
    with pytest.raises(ValueError, match="Invalid backend"):
        cp.RawKernel(COPY, "copy", backend="gcc")
    with pytest.raises(NotImplementedError, match="translate_cucomplex"):
        cp.RawKernel(COPY, "copy", translate_cucomplex=True)
    with pytest.raises(NotImplementedError, match="jitify"):
        cp.RawModule(code=COPY, jitify=True)
    with pytest.raises(TypeError, match="single string"):
        cp.RawKernel(COPY, "copy", options="-std=c++17")
    with pytest.raises(TypeError, match="only strings"):
        cp.RawKernel(COPY, "copy", options=(3,))
    with pytest.raises(ValueError, match="name"):
        cp.RawKernel(COPY, "")


def test_module_code_or_path(tmp_path):
    with pytest.raises(ValueError, match="Exactly one of code and path"):
        cp.RawModule()
    with pytest.raises(ValueError, match="Exactly one of code and path"):
        cp.RawModule(code=COPY, path=str(tmp_path / "m.cubin"))
    with pytest.raises(ValueError, match="cannot read"):
        cp.RawModule(path=str(tmp_path / "missing.cubin"))
    (tmp_path / "m.ptx").write_text("// not used")
    with pytest.raises(ValueError, match="name_expressions"):
        cp.RawModule(path=str(tmp_path / "m.ptx"), name_expressions=["f"])


@pytest.mark.skipif(HAS_GPU, reason="checks the no-GPU error")
def test_launch_without_gpu_is_a_runtime_error():
    k = cp.RawKernel(COPY, "copy")
    with pytest.raises(RuntimeError, match="runs only on NVIDIA GPUs"):
        k((1,), (32,), (cp.zeros(4, dtype=cp.float32), cp.zeros(4, dtype=cp.float32), 4))
    with pytest.raises(RuntimeError, match="runs only on NVIDIA GPUs"):
        k.attributes
    with pytest.raises(RuntimeError, match="runs only on NVIDIA GPUs"):
        cp.RawModule(code="__device__ float g;").get_global("g")


# ---- compilation (needs NVRTC; no GPU needed) ----

@needs_nvrtc
def test_compile_error_carries_log_with_user_line_numbers():
    with pytest.raises(cp.CompileError, match=r"raw_kernel\.cu\(3\): error") as info:
        cp.RawKernel(BROKEN, "broken").compile()
    assert "undefined_name" in str(info.value)
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(cp.CompileError, match=r"raw_module\.cu\(3\): error"):
        cp.RawModule(code=BROKEN).compile()


@needs_nvrtc
def test_compile_error_raised_at_launch_on_gpu(gpu):
    with pytest.raises(cp.CompileError, match=r"raw_kernel\.cu\(3\)"):
        cp.RawKernel(BROKEN, "broken")((1,), (1,), (cp.zeros(1, dtype=cp.float32),))


@needs_nvrtc
def test_bad_option_and_bad_name_expression_are_compile_errors():
    with pytest.raises(cp.CompileError):
        cp.RawKernel(COPY, "copy", options=("--no-such-option",)).compile()
    template = "template <class T> __global__ void scale(T* x) { x[threadIdx.x] *= 2; }"
    with pytest.raises(cp.CompileError):
        cp.RawModule(code=template, name_expressions=["no_such_kernel<int>"]).compile()
    cp.RawModule(code=template, name_expressions=["scale<int>", "scale<double>"]).compile()


@needs_nvrtc
def test_example_lessons_compile():
    for kernel in load_example().kernels().values():
        kernel.compile()


@needs_nvrtc
def test_toolkit_headers_are_on_the_include_path():
    source = ('#include <cuda_fp16.h>\nextern "C" __global__ void half_ones(__half* x) '
              '{ x[threadIdx.x] = __float2half(1.0f); }')
    cp.RawKernel(source, "half_ones").compile()


# ---- launches (GPU) ----

def test_lesson_grid_stride(gpu, rng):
    k = load_example().kernels()["scaled_add"]
    for n in [0, 1, 1000, 100003]:
        x = rng.uniform(-1, 1, n).astype(np.float32)
        y = rng.uniform(-1, 1, n).astype(np.float32)
        out = cp.full(n, 7, dtype=cp.float32)
        k((min(max(1, -(-n // 256)), 64),), (256,), (cp.asarray(x), cp.asarray(y), out, np.float32(2.5), n))
        # One FMA in the kernel against NumPy's multiply then add: at most 1 ulp apart.
        np.testing.assert_allclose(out.get(), np.float32(2.5) * x + y, rtol=1e-6, atol=1e-6)


def test_lesson_histogram(gpu, rng):
    k = load_example().kernels()["histogram"]
    for n, nbins in [(1, 4), (100000, 64), (54321, 1000)]:
        values = rng.integers(-3, nbins + 3, n, dtype=np.int32)  # out-of-range values are skipped
        bins = cp.zeros(nbins, dtype=cp.uint32)
        k((40,), (256,), (cp.asarray(values), n, bins, np.int32(nbins)), shared_mem=nbins * 4)
        inside = values[(values >= 0) & (values < nbins)]
        np.testing.assert_array_equal(bins.get(), np.bincount(inside, minlength=nbins))
        hist, _ = np.histogram(inside, bins=nbins, range=(0, nbins))
        np.testing.assert_array_equal(bins.get(), hist)


@pytest.mark.parametrize("tile", [8, 16, 32])
def test_lesson_tiled_matmul(gpu, rng, tile):
    module = cp.RawModule(code=load_example().TILED_MATMUL, name_expressions=[f"matmul_tiled<{tile}>"])
    k = module.get_function(f"matmul_tiled<{tile}>")
    for m, kk, n in [(1, 1, 1), (37, 65, 19), (128, 96, 160)]:
        a = cp.asarray(rng.uniform(-1, 1, (m, kk)).astype(np.float32))
        b = cp.asarray(rng.uniform(-1, 1, (kk, n)).astype(np.float32))
        c = cp.empty((m, n), dtype=cp.float32)
        k((-(-n // tile), -(-m // tile)), (tile, tile), (a, b, c, np.int32(m), np.int32(n), np.int32(kk)))
        # float32 dot products of kk terms summed in another order than cuBLAS's.
        np.testing.assert_allclose(c.get(), cp.matmul(a, b).get(), rtol=1e-4, atol=1e-5 * kk)


def test_lesson_box_blur(gpu, rng):
    example = load_example()
    k = example.kernels()["box_blur"]
    for h, w in [(1, 1), (5, 300), (123, 77)]:
        img = rng.uniform(-1, 1, (h, w)).astype(np.float32)
        out = cp.empty((h, w), dtype=cp.float32)
        k((-(-w // 16), -(-h // 16)), (16, 16), (cp.asarray(img), out, np.int32(h), np.int32(w)))
        # The same additions in the same order in float32: equal up to rounding of the division.
        np.testing.assert_allclose(out.get(), example.box_blur_numpy(img), rtol=1e-6, atol=1e-7)


def test_lesson_block_sum(gpu, rng):
    k = load_example().kernels()["block_sum"]
    for n, blocks, block in [(1, 1, 32), (1000, 3, 64), (1 << 20, 256, 256), (12345, 7, 1024)]:
        x = cp.asarray(rng.uniform(0, 1, n).astype(np.float32))
        total = cp.zeros(1, dtype=cp.float32)
        k((blocks,), (block,), (x, n, total))
        expected = float(cp.sum(x.astype(cp.float64)).get())
        # float32 sums of positive values: at most 256 atomic adds into the total, each off
        # by half a float32 ulp (6e-8 relative), dominate; 2e-5 of the total bounds them.
        assert abs(float(total.get()[0]) - expected) <= 2e-5 * expected


SCALARS = r"""
struct c64 { float re, im; };
struct __align__(16) c128 { double re, im; };
extern "C" __global__ void scalars(double* out, float f, double d, long long q, int i, unsigned char u8, bool b,
                                   unsigned long long big, unsigned short half_bits, c64 z, c128 w, short s) {
  out[0] = f; out[1] = d; out[2] = (double)q; out[3] = i; out[4] = u8; out[5] = b ? 1.0 : 0.0;
  out[6] = (double)(big - 9223372036854775808ull); out[7] = half_bits; out[8] = z.re; out[9] = z.im;
  out[10] = w.re; out[11] = w.im; out[12] = s;
}
"""


def test_scalar_arguments_keep_their_types(gpu):
    out = cp.zeros(13, dtype=cp.float64)
    h = np.float16(1.5)
    cp.RawKernel(SCALARS, "scalars")((1,), (1,), (
        out, np.float32(1.25), 2.5, -3, np.int32(7), np.uint8(200), True, 2**63 + 5, h,
        np.complex64(1.5 - 2j), 3.25 + 4.5j, np.int16(-12)))
    expected = [1.25, 2.5, -3, 7, 200, 1, 5, float(h.view(np.uint16)), 1.5, -2, 3.25, 4.5, -12]
    np.testing.assert_array_equal(out.get(), expected)


STRUCTS = r"""
struct Mixed { int i; double d; char c[3]; };
extern "C" __global__ void structs(double* out, float2 f2, float4 f4, double4_32a d4, Mixed m) {
  out[0] = f2.x; out[1] = f2.y; out[2] = f4.x; out[3] = f4.w; out[4] = d4.x; out[5] = d4.w;
  out[6] = m.i; out[7] = m.d; out[8] = m.c[2];
}
"""


def vector_dtype(base, n, align):
    """A CUDA vector type as a NumPy structured dtype: fields x, y, z, w, padded to its alignment."""
    base = np.dtype(base)
    return np.dtype({"names": list("xyzw"[:n]), "formats": [base] * n,
                     "offsets": [base.itemsize * k for k in range(n)], "itemsize": max(align, base.itemsize * n)})


def test_structured_scalars_pass_by_value(gpu, rng):
    f2, f4, d4 = (vector_dtype("f4", 2, 8), vector_dtype("f4", 4, 16), vector_dtype("f8", 4, 32))
    mixed = np.dtype([("i", "i4"), ("d", "f8"), ("c", "i1", (3,))], align=True)  # C's layout
    vals = rng.standard_normal(6).astype(np.float32)
    args = (np.array(tuple(vals[:2]), f2)[()], np.array((vals[2], 0, 0, vals[3]), f4)[()],
            np.array((vals[4], 0, 0, vals[5]), d4)[()], np.array((-7, 8.5, (1, 2, 9)), mixed)[()])
    assert all(isinstance(a, np.void) for a in args)
    out = cp.zeros(9, dtype=cp.float64)
    cp.RawKernel(STRUCTS, "structs")((1,), (1,), (out, *args))
    expected = [*vals[:4], *vals[4:].astype(np.float64), -7, 8.5, 9]
    np.testing.assert_array_equal(out.get(), np.array(expected, dtype=np.float64))


def test_structured_scalars_with_objects_are_refused(device):
    # Checked while packing, before the launch needs a GPU.
    k = cp.RawKernel(COPY, "copy")
    bad = np.array((1, None), dtype=[("a", "i4"), ("b", "O")])[()]
    with pytest.raises(TypeError, match="Python-object fields"):
        k((1,), (32,), (bad, bad, 4))


def test_array_arguments_pass_their_first_element(gpu):
    x = cp.arange(10, dtype=cp.float32)
    y = cp.zeros(10, dtype=cp.float32)
    k = cp.RawKernel(COPY, "copy")
    k(1, 32, [x[4:], y[2:], 3])  # ints for grid/block, a list for args, views with offsets
    np.testing.assert_array_equal(y.get(), [0, 0, 4, 5, 6, 0, 0, 0, 0, 0])
    k((1, 1, 1), (32, 1), (x, None, 0))  # None is a null pointer (unused here: n = 0)


def test_argument_errors(gpu):
    k = cp.RawKernel(COPY, "copy")
    y = cp.zeros(4, dtype=cp.float32)
    with pytest.raises(ValueError, match="argument 0 is an array on cpu"):
        k((1,), (32,), (cp.zeros(4, dtype=cp.float32, device="cpu"), y, 4))
    with pytest.raises(TypeError, match="numpy.ndarray in host memory"):
        k((1,), (32,), (np.zeros(4, np.float32), y, 4))
    with pytest.raises(TypeError, match="unsupported type str"):
        k((1,), (32,), ("x", y, 4))
    with pytest.raises(TypeError, match="args must be a tuple"):
        k((1,), (32,), y)
    with pytest.raises(TypeError, match="grid must be an int"):
        k(1.5, (32,), (y, y, 4))
    with pytest.raises(TypeError, match="stream must be"):
        k((1,), (32,), (y, y, 4), stream=3)
    with pytest.raises(OverflowError):
        k((1,), (32,), (y, y, 2**64))


def test_bad_launch_configuration_is_checked_before_launching(gpu):
    k = cp.RawKernel(COPY, "copy")
    x = cp.arange(4, dtype=cp.float32)
    y = cp.zeros(4, dtype=cp.float32)
    args = (x, y, 4)
    cases = [
        (((1,), (2048,)), "block .* is too large"),
        (((1,), (32, 32, 2)), "2048 threads"),
        (((1,), (0,)), "block .* at least 1"),
        (((0,), (32,)), "grid .* at least 1"),
        (((-1,), (32,)), "grid .* at least 1"),
        (((1, 1, 70000), (32,)), "grid .* too large"),
        (((2**31,), (32,)), "grid .* too large"),
        (((1, 2, 3, 4), (32,)), "1 to 3 sizes"),
        (((), (32,)), "1 to 3 sizes"),
    ]
    for (grid, block), message in cases:
        with pytest.raises(ValueError, match=message):
            k(grid, block, args)
    with pytest.raises(ValueError, match="shared_mem must be non-negative"):
        k((1,), (32,), args, shared_mem=-1)
    with pytest.raises(ValueError, match="dynamic shared memory limit"):
        k((1,), (32,), args, shared_mem=k.max_dynamic_shared_size_bytes + 1)
    k((1,), (32,), args)  # the GPU is still fine, and nothing was written before
    np.testing.assert_array_equal(y.get(), [0, 1, 2, 3])


def test_launch_bounds_lower_the_thread_limit(gpu):
    source = 'extern "C" __global__ void __launch_bounds__(128) bounded(int* x) { x[threadIdx.x] = 1; }'
    k = cp.RawKernel(source, "bounded")
    assert k.max_threads_per_block <= 128
    x = cp.zeros(256, dtype=cp.int32)
    with pytest.raises(ValueError, match="at most 128"):
        k((1,), (256,), (x,))
    k((1,), (128,), (x,))
    assert int(x.sum().get()) == 128


def test_attributes_and_large_dynamic_shared_memory(gpu):
    source = r"""
extern "C" __global__ void reverse(const float* x, float* y, int n) {
  extern __shared__ float buffer[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buffer[i] = x[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = buffer[n - 1 - i];
}
"""
    k = cp.RawKernel(source, "reverse")
    attributes = k.attributes
    assert set(attributes) >= {"max_threads_per_block", "num_regs", "shared_size_bytes", "local_size_bytes",
                               "const_size_bytes", "ptx_version", "binary_version",
                               "max_dynamic_shared_size_bytes"}
    assert 0 < k.num_regs <= 255 and k.max_threads_per_block == 1024 and k.shared_size_bytes == 0
    assert k.binary_version == attributes["binary_version"] >= 50
    n = 24 * 1024  # 96 KiB of floats: above the default 48 KiB
    x = cp.arange(n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float32)
    with pytest.raises(ValueError, match="dynamic shared memory limit"):
        k((1,), (256,), (x, y, np.int32(n)), shared_mem=n * 4)
    k.max_dynamic_shared_size_bytes = n * 4
    assert k.max_dynamic_shared_size_bytes == n * 4
    k((1,), (256,), (x, y, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(y.get(), np.arange(n, dtype=np.float32)[::-1])
    with pytest.raises(ValueError):
        k.max_dynamic_shared_size_bytes = 1 << 30


def test_launch_on_a_stream(gpu):
    k = cp.RawKernel(COPY, "copy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.zeros(1000, dtype=cp.float32)
    cp.cuda.Stream.null.synchronize()
    s = cp.cuda.Stream(non_blocking=True)
    k((4,), (128,), (x, y, 1000), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(y.get(), np.arange(1000, dtype=np.float32))
    z = cp.zeros(1000, dtype=cp.float32)
    cp.cuda.Stream.null.synchronize()
    with s:  # the current stream
        k((4,), (128,), (x, z, 1000))
    s.synchronize()
    np.testing.assert_array_equal(z.get(), np.arange(1000, dtype=np.float32))


def test_module_name_expressions_and_functions(gpu):
    source = r"""
template <class T, int Factor>
__global__ void scale(T* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= Factor;
}
extern "C" __global__ void negate(double* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}
"""
    mod = cp.RawModule(code=source, name_expressions=["scale<float, 3>", "scale<double, 2>"])
    a = cp.arange(5, dtype=cp.float32)
    b = cp.arange(5, dtype=cp.float64)
    mod.get_function("scale<float, 3>")((1,), (32,), (a, np.int32(5)))
    mod.get_function("scale<double, 2>")((1,), (32,), (b, np.int32(5)))
    mod.get_function("negate")((1,), (32,), (b, np.int32(5)))
    np.testing.assert_array_equal(a.get(), np.arange(5) * 3)
    np.testing.assert_array_equal(b.get(), -np.arange(5) * 2.0)
    missing = mod.get_function("no_such_kernel")
    with pytest.raises(RuntimeError, match="no kernel named 'no_such_kernel'"):
        missing((1,), (32,), (a, np.int32(5)))


def test_module_globals(gpu):
    source = r"""
__constant__ float coefficients[4];
__device__ int calls;
extern "C" __global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&calls, 1);
  if (i < n) y[i] = coefficients[0] + x[i] * (coefficients[1] + x[i] * (coefficients[2] + x[i] * coefficients[3]));
}
"""
    mod = cp.RawModule(code=source)
    coefficients = mod.get_global("coefficients", dtype=cp.float32)
    assert coefficients.shape == (4,) and coefficients.dtype == np.float32
    coefficients[...] = cp.asarray(np.array([1, 2, 3, 4], np.float32))
    calls = mod.get_global("calls", dtype=np.int32)
    calls[...] = 0
    assert mod.get_global("calls").shape == (4,)  # bytes by default
    x = cp.asarray(np.array([0, 1, 2], np.float32))
    y = cp.zeros(3, dtype=cp.float32)
    k = mod.get_function("poly")
    k((1,), (32,), (x, y, np.int32(3)))
    k((1,), (32,), (x, y, np.int32(3)))
    np.testing.assert_allclose(y.get(), [1, 10, 49])
    assert int(calls.get()[0]) == 2
    with pytest.raises(RuntimeError, match="no global variable named 'missing'"):
        mod.get_global("missing")
    with pytest.raises(ValueError, match="whole number"):
        mod.get_global("calls", dtype=cp.float64)


def test_module_from_compiled_file(gpu, tmp_path):
    # A PTX file made by NVRTC directly, loaded as CuPy's RawModule(path=...) loads one.
    ptx = tmp_path / "copy.ptx"
    ptx.write_text(_ptx_of(COPY))
    mod = cp.RawModule(path=str(ptx))
    x = cp.arange(8, dtype=cp.float32)
    y = cp.zeros(8, dtype=cp.float32)
    mod.get_function("copy")((1,), (32,), (x, y, 8))
    np.testing.assert_array_equal(y.get(), np.arange(8))


def _ptx_of(source):
    """PTX for `source` from NVRTC through ctypes (the toolkit's library)."""
    import ctypes
    nvrtc = None
    for name in ["libnvrtc.so.13", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so"]:
        try:
            nvrtc = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if nvrtc is None:
        pytest.skip("libnvrtc not loadable from Python")
    prog = ctypes.c_void_p()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"copy.cu", 0, None, None) == 0
    options = (ctypes.c_char_p * 1)(b"--gpu-architecture=compute_75")
    assert nvrtc.nvrtcCompileProgram(prog, 1, options) == 0
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(prog, buffer)
    nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))
    return buffer.value.decode()


def test_virtual_architecture_option_gives_ptx_the_driver_loads(gpu):
    k = cp.RawKernel(COPY, "copy", options=("-arch=compute_75",))
    x = cp.arange(8, dtype=cp.float32)
    y = cp.zeros(8, dtype=cp.float32)
    k((1,), (32,), (x, y, 8))
    np.testing.assert_array_equal(y.get(), np.arange(8))


def test_cooperative_launch(gpu):
    source = r"""
#include <cooperative_groups.h>
extern "C" __global__ void two_phase(int* x, int* y, int n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i;
  grid.sync();  // every block's writes are visible after this
  if (i < n) y[i] = x[n - 1 - i];
}
"""
    k = cp.RawKernel(source, "two_phase", enable_cooperative_groups=True)
    assert k.enable_cooperative_groups
    try:
        k.compile()
    except cp.CompileError as e:
        if "cannot open source file" in str(e):
            pytest.skip("the CUDA toolkit's headers are not installed here")
        raise
    n = 4 * 256
    x = cp.zeros(n, dtype=cp.int32)
    y = cp.zeros(n, dtype=cp.int32)
    k((4,), (256,), (x, y, np.int32(n)))
    np.testing.assert_array_equal(y.get(), np.arange(n)[::-1])
    # More blocks than can be resident at once: the driver refuses the launch, and the
    # error names the kernel.
    with pytest.raises(RuntimeError, match="RawKernel 'two_phase'"):
        k((1 << 20,), (1024,), (x, y, np.int32(n)))
    k((4,), (256,), (x, y, np.int32(n)))  # the GPU is still fine


@pytest.mark.skipif(cp.cuda.is_available() and cp.cuda.device_count() < 2, reason="needs two GPUs")
def test_array_on_another_gpu(gpu):
    if not cp.cuda.is_available():
        pytest.skip("needs two GPUs")
    k = cp.RawKernel(COPY, "copy")
    x = cp.zeros(4, dtype=cp.float32, device="cuda:0")
    y = cp.zeros(4, dtype=cp.float32, device="cuda:1")
    with pytest.raises(ValueError, match="argument 1 is an array on cuda:1"):
        k((1,), (32,), (x, y, 4))
    z = cp.zeros(4, dtype=cp.float32, device="cuda:1")
    k((1,), (32,), (z, y, 4))  # runs on cuda:1, where its arrays are
    y.get()


def test_kernel_compiled_once_per_device(gpu):
    # Two objects with the same text share one module; launching many times stays cheap.
    a = cp.RawKernel(COPY, "copy")
    b = cp.RawKernel(COPY, "copy")
    x = cp.arange(16, dtype=cp.float32)
    y = cp.zeros(16, dtype=cp.float32)
    for _ in range(100):
        a((1,), (32,), (x, y, 16))
        b((1,), (32,), (y, x, 16))
    np.testing.assert_array_equal(x.get(), np.arange(16))
