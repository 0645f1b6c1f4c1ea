"""Outer-axis reductions whose reduced rows are split across blocks, against NumPy.

On the GPU the column shapes split the reduced rows into pieces when the output tiles
alone leave SMs idle: each piece writes partial States that a second kernel merges
(cuda_reduce.cpp, split_column_rows). These tests reach those splits: shapes with few
output tiles and many rows, a partial last tile, unaligned views (the scalar column
shape), repeated calls into outputs filled with garbage (stale or early merges would
show), several streams and threads at once, and a split reduction captured in a graph
and replayed with new inputs. On the CPU the same calls check the CPU backend's
outer-axis reductions.
"""
import threading
import zlib

import numpy as np
import pytest

import copper as cp
from conftest import random_array
from reduction_cases import assert_matches, sum_tolerance

HAVE_GPU = cp.cuda.is_available()
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="needs a GPU usable by copper")

# (rows, columns): few column tiles and many rows (split), a partial last tile, a tall
# narrow block, and a case with too few rows to split.
SHAPES = [(4096, 512), (3001, 520), (20000, 96), (64, 1024)]


def garbage_like(expected):
    return cp.asarray(np.full(expected.shape, 77, dtype=expected.dtype))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.complex64])
@pytest.mark.parametrize("shape", SHAPES)
def test_split_sums_into_garbage_outputs_repeatedly(device, dtype, shape):
    rng = np.random.default_rng(zlib.crc32(f"{shape} {np.dtype(dtype).char}".encode()))
    a = random_array(rng, shape, dtype)
    x = cp.asarray(a)
    expected = np.sum(a, axis=0)
    rtol, atol = sum_tolerance(a, dtype, 0)
    for _ in range(3):
        out = garbage_like(expected)
        cp.sum(x, axis=0, out=out)
        assert_matches(out, expected, rtol=rtol, atol=atol)
    # A view starting one element in (unaligned vectors: the scalar column shape).
    assert_matches(cp.sum(x[:, 1:], axis=0), np.sum(a[:, 1:], axis=0), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int64])
def test_split_extrema_and_arg_reductions(device, dtype):
    rng = np.random.default_rng(5)
    a = random_array(rng, (5000, 256), dtype)
    x = cp.asarray(a)
    for name in ("max", "min", "argmax", "argmin"):
        for _ in range(2):
            assert_matches(getattr(cp, name)(x, axis=0), getattr(np, name)(a, axis=0), rtol=0, atol=0)


def test_split_logical_nan_and_mean_reductions(device):
    rng = np.random.default_rng(6)
    b = rng.random((6000, 512)) < 0.9995
    xb = cp.asarray(b)
    for _ in range(2):
        assert_matches(cp.all(xb, axis=0), np.all(b, axis=0))
        assert_matches(cp.any(~xb, axis=0), np.any(~b, axis=0))
    f = rng.standard_normal((6000, 256))
    f[rng.integers(0, 6000, 50), rng.integers(0, 256, 50)] = np.nan
    xf = cp.asarray(f)
    assert_matches(cp.nansum(xf, axis=0), np.nansum(f, axis=0), rtol=1e-12, atol=1e-9)
    assert_matches(cp.mean(cp.asarray(np.nan_to_num(f)), axis=0), np.mean(np.nan_to_num(f), axis=0),
                   rtol=1e-12, atol=1e-12)
    # Three dimensions, two of them reduced (the rows of a split piece cross the first).
    g = rng.standard_normal((40, 150, 384)).astype(np.float32)
    assert_matches(cp.sum(cp.asarray(g), axis=(0, 1)), np.sum(g, axis=(0, 1)), rtol=1e-4, atol=1e-3)


@requires_gpu
def test_split_sums_on_several_streams_and_threads():
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal((4096 + 13 * k, 512)).astype(np.float32) for k in range(4)]
    xs = [cp.asarray(a, device="cuda:0") for a in arrays]
    streams = [cp.cuda.Stream() for _ in range(2)]
    results = [None] * 8
    for i in range(8):
        with streams[i % 2]:
            results[i] = cp.sum(xs[i % 4], axis=0)
    for s in streams:
        s.synchronize()
    for i, r in enumerate(results):
        assert_matches(r, arrays[i % 4].sum(axis=0), rtol=1e-4, atol=1e-3)

    failures = []

    def worker(k):
        try:
            with cp.cuda.Stream():
                for _ in range(5):
                    got = cp.sum(xs[k], axis=0).get()
                    np.testing.assert_allclose(got, arrays[k].sum(axis=0), rtol=1e-4, atol=1e-3)
        except Exception as err:  # reported by the main thread
            failures.append(repr(err))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


@requires_gpu
def test_split_sum_captured_in_a_graph_replays_with_new_inputs():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((4096, 512))
    x = cp.asarray(a, device="cuda:0")
    out = cp.zeros(512, device="cuda:0")
    cp.sum(x, axis=0, out=out)  # compiled before the capture
    s = cp.cuda.Stream()
    with s:
        s.begin_capture()
        cp.sum(x, axis=0, out=out)
        graph = s.end_capture()
    for k in range(2):
        b = a * (k + 2)
        cp.copyto(x, cp.asarray(b, device="cuda:0"))
        out.fill(77)
        graph.launch(s)
        s.synchronize()
        assert_matches(out, b.sum(axis=0), rtol=1e-12, atol=1e-9)
    # Launches outside the capture use the counters as before.
    assert_matches(cp.sum(x, axis=0), x.get().sum(axis=0), rtol=1e-12, atol=1e-9)

