"""copper.ElementwiseKernel against NumPy, with CuPy's documented examples and rules.

On the CPU the kernels are compiled by the system C++ compiler (g++ on CI), on a GPU by
NVRTC; both are cached in memory and on disk (COPPER_CACHE_DIR)."""
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import copper as cp
from conftest import random_array, random_pair

squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
squared_diff_generic = cp.ElementwiseKernel("T x, T y", "T z", "T diff = x - y;\nz = diff * diff;",
                                            "squared_diff_generic")
add_reverse = cp.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")


def test_squared_diff_documentation_example(device):
    x = cp.arange(10, dtype=np.float32).reshape(2, 5)
    y = cp.arange(5, dtype=np.float32)
    nx = np.arange(10, dtype=np.float32).reshape(2, 5)
    ny = np.arange(5, dtype=np.float32)
    z = squared_diff(x, y)
    assert z.dtype == np.float32 and z.shape == (2, 5)
    np.testing.assert_array_equal(z.get(), (nx - ny) ** 2)
    # A Python scalar is cast to the parameter's type.
    np.testing.assert_array_equal(squared_diff(x, 5).get(), (nx - 5) ** 2)
    # Outputs passed explicitly are written and returned.
    out = cp.empty((2, 5), dtype=np.float32)
    assert squared_diff(x, y, out) is out
    np.testing.assert_array_equal(out.get(), (nx - ny) ** 2)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.float16, np.float32, np.float64,
                                   np.complex64, np.complex128])
def test_generic_kernel_takes_the_arguments_dtype(device, rng, dtype):
    nx, x = random_pair(rng, (3, 4), dtype)
    ny, y = random_pair(rng, (4,), dtype)
    z = squared_diff_generic(x, y)
    assert z.dtype == dtype
    with np.errstate(over="ignore"):
        expected = (nx - ny) * (nx - ny)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(z.get(), expected)
    elif dtype == np.float16:
        # The kernel computes in float32 and rounds once; NumPy rounds after each op.
        np.testing.assert_allclose(z.get().astype(np.float64), expected.astype(np.float64), rtol=2e-3, atol=1e-2)
    else:
        np.testing.assert_allclose(z.get(), expected, rtol=1e-5 if dtype in (np.float32, np.complex64) else 1e-12)


def test_several_placeholders_with_output_given(device):
    kernel = cp.ElementwiseKernel("X x, Y y", "Z z", "z = (x - y) * (x - y)", "squared_diff_super_generic")
    x = cp.arange(10, dtype=np.float32).reshape(2, 5)
    y = cp.arange(10, dtype=np.int64).reshape(2, 5) * 2
    z = cp.empty((2, 5), dtype=np.int16)
    assert kernel(x, y, z) is z
    np.testing.assert_array_equal(z.get(), ((np.arange(10) - 2 * np.arange(10)) ** 2).reshape(2, 5).astype(np.int16))


def test_placeholder_mismatch_is_type_error(device):
    x = cp.arange(5, dtype=np.float32)
    with pytest.raises(TypeError, match="Type is mismatched"):
        squared_diff_generic(x, cp.arange(5, dtype=np.float64))
    with pytest.raises(TypeError, match="Type is mismatched"):
        squared_diff(cp.arange(5, dtype=np.float64), x)
    with pytest.raises(TypeError, match="Type is mismatched"):  # output of another dtype
        squared_diff_generic(x, x, cp.empty(5, dtype=np.float64))


def test_raw_argument_indexed_by_the_user(device):
    x = cp.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(add_reverse(x, x).get(), np.full(5, 4, np.float32))
    # A raw argument is the whole array whatever its layout: here a reversed view.
    n = np.arange(10, dtype=np.float64)
    y = cp.asarray(n)[::-2]
    np.testing.assert_array_equal(add_reverse(cp.zeros(5), y).get(), n[::-2][::-1])


def test_raw_multi_index_and_shape(device):
    kernel = cp.ElementwiseKernel("raw T m", "T y", "ptrdiff_t idx[] = {i % 3, i / 3};\ny = m[idx] + m.shape()[1]",
                                  "transpose_read")
    n = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = kernel(cp.asarray(n), cp.empty((4, 3), np.float32))
    np.testing.assert_array_equal(y.get(), n.T + 4)


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4)])
def test_non_contiguous_and_negative_strides(device, rng, shape):
    nx, x = random_pair(rng, shape, np.float64, strided=True)
    ny, y = random_pair(rng, shape[-1:], np.float64, strided=True)
    np.testing.assert_allclose(squared_diff_generic(x, y).get(), (nx - ny) ** 2, rtol=1e-12)
    # A transposed output and the element index i (C order over the loop shape).
    kernel = cp.ElementwiseKernel("T x", "T y", "y = x + i", "plus_index")
    out = cp.zeros(shape[::-1], dtype=np.float64).T
    kernel(x, out)
    np.testing.assert_array_equal(out.get(), nx + np.arange(nx.size).reshape(shape))


def test_broadcasting_rules(device):
    x = cp.arange(6, dtype=np.float32).reshape(2, 3, 1)
    y = cp.arange(4, dtype=np.float32)
    z = squared_diff_generic(x, y)
    assert z.shape == (2, 3, 4)
    np.testing.assert_array_equal(z.get(), (np.arange(6, dtype=np.float32).reshape(2, 3, 1) - np.arange(4)) ** 2)
    with pytest.raises(ValueError, match="could not be broadcast"):
        squared_diff_generic(cp.zeros(3, np.float32), cp.zeros(4, np.float32))
    # Outputs take part: an input broadcasts to the output's shape, not the reverse.
    out = cp.empty((2, 5), dtype=np.float32)
    squared_diff(cp.ones(5, dtype=np.float32), 0.0, out)
    np.testing.assert_array_equal(out.get(), np.ones((2, 5)))
    with pytest.raises(ValueError, match="Out shape is mismatched"):
        squared_diff(cp.ones((2, 5), dtype=np.float32), 0.0, cp.empty(5, dtype=np.float32))


def test_zero_dim_and_empty(device):
    x = cp.asarray(np.float64(3.0))
    z = squared_diff_generic(x, 1.0)
    assert z.shape == () and float(z.get()) == 4.0
    e = squared_diff_generic(cp.zeros((0, 3)), cp.zeros(3))
    assert e.shape == (0, 3) and e.dtype == np.float64


def test_size_keyword(device):
    iota = cp.ElementwiseKernel("", "raw int64 y", "y[i] = i * 2", "iota_times_two")
    np.testing.assert_array_equal(iota(size=6).get(), np.arange(6) * 2)
    copy_raw = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 3", "raw_copy")
    x = cp.arange(8, dtype=np.int32)
    y = cp.zeros(8, dtype=np.int32)
    copy_raw(x, y, size=8)
    np.testing.assert_array_equal(y.get(), np.arange(8) * 3)
    with pytest.raises(ValueError, match="size"):
        squared_diff(x.astype(np.float32), 1.0, size=8)
    with pytest.raises(ValueError, match="Loop size is undecided"):
        copy_raw(x, y)
    with pytest.raises(ValueError, match="Output array size is Undecided"):
        cp.ElementwiseKernel("T x", "raw T y", "y[i] = x", "raw_out")(x)


def test_float16_and_complex(device, rng):
    nh, h = random_pair(rng, (9,), np.float16)
    half = cp.ElementwiseKernel("T x", "T y", "y = x * 2.0f + 1;\ny += x;", "half_ops")
    np.testing.assert_allclose(half(h).get().astype(np.float64), 3.0 * nh.astype(np.float64) + 1, rtol=2e-3)
    nc, c = random_pair(rng, (6,), np.complex128)
    ck = cp.ElementwiseKernel("T x", "T y", "y = x * conj(x) + T(real(x), -x.imag()) * 2.0", "complex_ops")
    np.testing.assert_allclose(ck(c).get(), nc * np.conj(nc) + 2 * np.conj(nc), rtol=1e-12)
    absk = cp.ElementwiseKernel("complex64 x", "float32 y", "y = abs(x)", "complex_abs")
    nc64 = nc.astype(np.complex64)
    np.testing.assert_allclose(absk(cp.asarray(nc64)).get(), np.abs(nc64), rtol=1e-6)


def test_preamble_loop_prep_after_loop_and_defines(device):
    kernel = cp.ElementwiseKernel(
        "T x", "T y", "y = square(x) * SCALE + offset", "with_extras",
        preamble="__device__ double square(double v) { return v * v; }",
        loop_prep="const double offset = 0.5", after_loop="(void)offset", options=("-DSCALE=3",))
    np.testing.assert_array_equal(kernel(cp.arange(4, dtype=np.float64)).get(), np.arange(4.0) ** 2 * 3 + 0.5)


def test_several_outputs_and_return_forms(device):
    divmod_k = cp.ElementwiseKernel("T x, T y", "T q, T r", "q = x / y; r = x % y", "divmod_kernel")
    q, r = divmod_k(cp.arange(10), 3)
    np.testing.assert_array_equal(q.get(), np.arange(10) // 3)
    np.testing.assert_array_equal(r.get(), np.arange(10) % 3)
    single = cp.ElementwiseKernel("T x", "T y", "y = x", "tuple_copy", return_tuple=True)
    (y,) = single(cp.arange(3))
    np.testing.assert_array_equal(y.get(), np.arange(3))
    quiet = cp.ElementwiseKernel("T x", "T y", "y = x", "quiet_copy", no_return=True)
    assert quiet(cp.arange(3)) is None


def test_histogram_with_atomics(device, rng):
    data = rng.integers(0, 16, size=5000).astype(np.int32)
    hist = cp.zeros(16, dtype=np.int32)
    kernel = cp.ElementwiseKernel("int32 x", "raw int32 hist", "atomicAdd(&hist[x], 1)", "histogram")
    kernel(cp.asarray(data), hist)
    np.testing.assert_array_equal(hist.get(), np.bincount(data, minlength=16))


def test_argument_errors(device):
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cp.ElementwiseKernel("T x", "T y", "y = x", "not a name")
    with pytest.raises(ValueError, match="'i'"):
        cp.ElementwiseKernel("T i", "T y", "y = i", "bad_param")
    with pytest.raises(ValueError, match="Syntax error"):
        cp.ElementwiseKernel("x", "T y", "y = x", "bad_syntax")
    with pytest.raises(ValueError, match="Unknown keyword"):
        cp.ElementwiseKernel("static T x", "T y", "y = x", "bad_keyword")
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        squared_diff(cp.zeros(3, np.float32))
    with pytest.raises(TypeError, match="Unsupported type"):
        squared_diff(np.zeros(3, np.float32), 1.0)
    with pytest.raises(TypeError, match="Output arguments"):
        squared_diff(cp.zeros(3, np.float32), 1.0, 2.0)


def test_compile_error_names_the_users_line(device):
    kernel = cp.ElementwiseKernel("T x", "T y", "y = x;\ny = undefined_name + 1;", "broken_kernel")
    with pytest.raises(cp.CompileError) as info:
        kernel(cp.arange(3.0))
    message = str(info.value)
    # NVRTC writes broken_kernel(2), g++ broken_kernel:2:
    assert re.search(r"broken_kernel[(:]2\b", message), message
    assert "undefined_name" in message


_CACHE_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import copper as cp
    cp.set_default_device(sys.argv[1])
    k = cp.ElementwiseKernel("T x", "T y", "y = x * 7 + 3", "disk_cache_probe")
    y = k(cp.arange(4, dtype=np.int64))
    assert (y.get() == np.arange(4) * 7 + 3).all()
    stats = cp._core._kernel_compile_stats(sys.argv[1])
    print(stats["compiles"], stats["disk_hits"])
""")


def test_compiled_kernels_are_reused(device, tmp_path):
    env = dict(os.environ, COPPER_CACHE_DIR=str(tmp_path))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    runs = [subprocess.run([sys.executable, "-c", _CACHE_SCRIPT, device], env=env, capture_output=True, text=True,
                           timeout=600) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    first = [int(v) for v in runs[0].stdout.split()]
    second = [int(v) for v in runs[1].stdout.split()]
    assert first[0] >= 1
    assert second == [0, first[0]]  # the second process compiles nothing: every kernel comes from disk
    # A second kernel object with the same code reuses the compiled kernel in memory.
    before = cp._core._kernel_compile_stats(device)
    for _ in range(2):
        k = cp.ElementwiseKernel("T x", "T y", "y = x + 11", "memory_probe")
        np.testing.assert_array_equal(k(cp.arange(3)).get(), np.arange(3) + 11)
    after = cp._core._kernel_compile_stats(device)
    assert after["compiles"] - before["compiles"] <= 1
    assert after["memory_hits"] > before["memory_hits"]


def test_user_kernels_example_runs(device):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, COPPER_DEVICE=device, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, os.path.join(root, "examples", "python", "user_kernels.py")], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "user kernels: ok" in r.stdout, r.stdout


# Contiguous calls on the GPU run V = 16 / (widest itemsize) consecutive elements per
# thread (one aligned vector load/store per operand) with a partial last vector; unaligned
# operands, aliasing the deferred stores would change, and code that leaves an element
# early take the one-element loop. Both must give the same, per-element results.
_VECTOR_DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64,
                  np.complex64, np.complex128]
_TAIL_SIZES = [1, 7, 16, 17, 33, 1001, (1 << 16) + 3]
pick_by_index = cp.ElementwiseKernel("T x, T y", "T z", "z = i % 3 == 0 ? x : y", "pick_by_index")
accumulate = cp.ElementwiseKernel("T x", "T z", "z += x", "accumulate")


@pytest.mark.parametrize("dtype", _VECTOR_DTYPES)
def test_vector_path_every_size_and_index(device, rng, dtype):
    for n in _TAIL_SIZES:
        nx, x = random_pair(rng, (n,), dtype)
        ny, y = random_pair(rng, (n,), dtype)
        z = pick_by_index(x, y)
        np.testing.assert_array_equal(z.get(), np.where(np.arange(n) % 3 == 0, nx, ny))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float32, np.float64, np.complex64])
def test_vector_path_reads_the_output(device, rng, dtype):
    # z += x reads z: the vector loop must load the output, full vectors and tail alike.
    for n in (5, 16, 1001):
        nx, x = random_pair(rng, (n,), dtype)
        nz, z = random_pair(rng, (n,), dtype)
        assert accumulate(x, z) is z
        if dtype == np.bool_:
            expected = nz | nx
        else:
            with np.errstate(over="ignore"):
                expected = nz + nx
        if dtype == np.float16:
            # The kernel adds in float32 and rounds once to float16, as NumPy does: equal
            # but for double rounding, which can move the last bit.
            np.testing.assert_allclose(z.get().astype(np.float64), expected.astype(np.float64), rtol=1e-3)
        else:
            np.testing.assert_array_equal(z.get(), expected)


@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4])
def test_vector_path_unaligned_operands(device, rng, offset):
    # Views starting `offset` elements into an allocation: 16-byte aligned (offset 0, 4),
    # 8-byte (2: two per thread) or 4-byte (1, 3: one element per thread).
    n = 1003
    nbase, base = random_pair(rng, (n + 8,), np.float32)
    ny, y = random_pair(rng, (n,), np.float32)
    out = cp.zeros(n + 8, dtype=np.float32)
    z = squared_diff(base[offset:offset + n], y, out[8 - offset:8 - offset + n])
    np.testing.assert_allclose(z.get(), (nbase[offset:offset + n] - ny) ** 2, rtol=1e-6)
    expected_out = np.zeros(n + 8, np.float32)
    expected_out[8 - offset:8 - offset + n] = (nbase[offset:offset + n] - ny) ** 2
    np.testing.assert_allclose(out.get(), expected_out, rtol=1e-6)  # nothing written outside the view


def test_vector_path_mixed_itemsizes(device, rng):
    kernel = cp.ElementwiseKernel("float64 x, int8 y, float32 s, int16 unused", "float32 z, int16 w",
                                  "z = x * s + y;\nw = static_cast<short>(i % 1000);", "mixed_itemsizes")
    for n in (3, 1001):
        nx, x = random_pair(rng, (n,), np.float64)
        ny, y = random_pair(rng, (n,), np.int8)
        z, w = kernel(x, y, np.float32(0.5), cp.zeros(n, np.int16))
        assert z.dtype == np.float32 and w.dtype == np.int16
        np.testing.assert_allclose(z.get(), (nx * 0.5 + ny).astype(np.float32), rtol=1e-6)
        np.testing.assert_array_equal(w.get(), (np.arange(n) % 1000).astype(np.int16))
    # One operand shifted by an element: the same results through the one-element loop.
    nb, b = random_pair(rng, (1002,), np.float64)
    ny, y = random_pair(rng, (1001,), np.int8)
    z, w = kernel(b[1:], y, np.float32(2.0), cp.zeros(1001, np.int16))
    np.testing.assert_allclose(z.get(), (nb[1:] * 2 + ny).astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(w.get(), (np.arange(1001) % 1000).astype(np.int16))


def test_vector_path_side_effects_per_element(device, rng):
    # Atomics into a raw output, a raw output written at i, _ind.size(), and state kept
    # across the loop (loop_prep/after_loop) all act once per element.
    n = 4099
    data = rng.integers(0, 16, size=n).astype(np.int32)
    kernel = cp.ElementwiseKernel(
        "int32 x", "int32 y, raw int32 hist, raw int64 rev, raw int32 total",
        "atomicAdd(&hist[x], 1);\nrev[i] = _ind.size() - i;\ny = x * 2;\nacc += x;", "vector_side_effects",
        loop_prep="int acc = 0", after_loop="atomicAdd(&total[0], acc)")
    hist, rev, total = cp.zeros(16, np.int32), cp.zeros(n, np.int64), cp.zeros(1, np.int32)
    y = cp.empty(n, np.int32)
    kernel(cp.asarray(data), y, hist, rev, total)
    np.testing.assert_array_equal(hist.get(), np.bincount(data, minlength=16))
    np.testing.assert_array_equal(rev.get(), n - np.arange(n))
    np.testing.assert_array_equal(y.get(), data * 2)
    assert int(total.get()[0]) == int(data.sum())


def test_vector_path_in_place_and_non_const_inputs(device, rng):
    nx, x = random_pair(rng, (1001,), np.float32)
    ny, y = random_pair(rng, (1001,), np.float32)
    # The output is the first input: every input is read before the one assignment.
    assert squared_diff(x, y, x) is x
    np.testing.assert_allclose(x.get(), (nx - ny) ** 2, rtol=1e-6)
    # Read after the write through the alias: per element in program order, z = 2 * y.
    nx, x = random_pair(rng, (1001,), np.float32)
    in_place = cp.ElementwiseKernel("T x, T y", "T z", "z = y;\nz = z + x;", "in_place_reread")
    in_place(x, y, x)
    np.testing.assert_array_equal(x.get(), 2 * ny)
    # A _non_const input written by the operation is stored back.
    bump = cp.ElementwiseKernel("_non_const T x", "T y", "x = x * 2;\ny = x + 1;", "bump_non_const")
    nx, x = random_pair(rng, (1001,), np.int32)
    y = bump(x)
    np.testing.assert_array_equal(x.get(), nx * 2)
    np.testing.assert_array_equal(y.get(), nx * 2 + 1)


def test_early_exit_keeps_other_elements(device, rng):
    # `continue` skips one element only, whatever the elements per thread; the skipped
    # ones keep their value.
    nx, x = random_pair(rng, (1001,), np.float32)
    kernel = cp.ElementwiseKernel("T x", "T z", "if (x < 0) continue;\nz = x;", "skip_negative")
    z = cp.full(1001, -1.0, dtype=np.float32)
    kernel(x, z)
    np.testing.assert_array_equal(z.get(), np.where(nx < 0, -1.0, nx).astype(np.float32))
