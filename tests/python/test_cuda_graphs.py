"""CUDA graphs from stream capture (copper.cuda.Stream.begin_capture / end_capture,
copper.cuda.Graph.launch), as CuPy's: captured copper ops replay with the inputs' current
values, one launch call per replay; what cannot be captured refuses with a clear
RuntimeError and leaves the capture usable; memory allocated during the capture belongs
to the graph as well. GPU only: every test skips cleanly where copper finds no GPU."""
import gc
import threading

import numpy as np
import pytest

import copper as cp

HAVE_GPU = cp.cuda.is_available()
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="needs a GPU usable by copper")
REFUSED = r"cannot run while a CUDA graph capture is in progress on cuda:0"


@pytest.fixture
def gpu():
    previous = cp.get_default_device()
    cp.set_default_device("cuda:0")
    try:
        yield
    finally:
        cp.set_default_device(previous)


@pytest.fixture
def stream(gpu):
    """A fresh blocking stream; a capture left open by a failing test is ended."""
    s = cp.cuda.Stream()
    yield s
    if s.is_capturing():
        s.end_capture()


def put(dst, values):
    """Writes host values into an existing array in place (its address does not change)."""
    cp.copyto(dst, cp.asarray(values))


# ---------------------------------------------------------------- any machine

def test_api_surface():
    assert cp.cuda.Graph.__module__ == "copper.cuda"
    assert isinstance(cp.cuda.launch_count(), int)
    for name in ("begin_capture", "end_capture", "is_capturing"):
        assert callable(getattr(cp.cuda.Stream, name))
    assert callable(cp.cuda.Graph.launch)


@pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a usable GPU")
def test_without_a_gpu_streams_cannot_capture():
    s = cp.cuda.Stream()  # a CPU-device stream
    assert not s.is_capturing()
    with pytest.raises(RuntimeError, match=r"(?i)cuda|gpu"):
        s.begin_capture()


# ---------------------------------------------------------------- replay

@requires_gpu
def test_elementwise_in_place_and_out_replay_with_new_inputs(stream, rng):
    xn = rng.uniform(-5, 5, 1000)
    x, y, z = cp.asarray(xn), cp.zeros(1000), cp.zeros(1000)

    def ops():  # out= spellings: an augmented assignment would make x, y, z local names
        cp.add(x, 1, out=y)
        cp.multiply(y, 2, out=y)
        cp.multiply(y, x, out=z)
        cp.subtract(z, 3, out=z)

    ops()  # compiled and warm; the capture then records launches only
    put(z, np.zeros(1000))
    with stream:
        stream.begin_capture()
        assert stream.is_capturing()
        ops()
        graph = stream.end_capture()
    assert not stream.is_capturing()
    assert isinstance(graph, cp.cuda.Graph)
    assert graph.num_nodes >= 4
    np.testing.assert_array_equal(z.get(), np.zeros(1000))  # capturing ran nothing

    def expected(v):
        return (v + 1) * 2 * v - 3

    graph.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.get(), expected(xn))
    for _ in range(3):  # new inputs, same addresses: each replay reads the current values
        xn = rng.uniform(-5, 5, 1000)
        put(x, xn)
        graph.launch()  # on the current stream (the legacy one here)
        np.testing.assert_array_equal(z.get(), expected(xn))
        np.testing.assert_array_equal(y.get(), (xn + 1) * 2)


@requires_gpu
def test_reductions_into_out_and_matmul_replay(stream, rng):
    an, bn = rng.standard_normal((64, 48)), rng.standard_normal((48, 32))
    a, b = cp.asarray(an), cp.asarray(bn)
    c, col_sums, row_max, total = cp.zeros((64, 32)), cp.zeros(48), cp.zeros(64), cp.zeros(())

    def ops():
        cp.matmul(a, b, out=c)
        cp.sum(a, axis=0, out=col_sums)
        cp.max(a, axis=1, out=row_max)
        cp.sum(c, out=total)

    ops()  # warm: kernels compiled, cuBLAS handle made
    with stream:
        stream.begin_capture()
        ops()
        graph = stream.end_capture()
    for _ in range(3):
        an, bn = rng.standard_normal((64, 48)), rng.standard_normal((48, 32))
        put(a, an)
        put(b, bn)
        graph.launch()
        # cuBLAS and NumPy's BLAS sum 48 products in different orders: 1e-12 relative is
        # far above float64 rounding of such sums and far below any real error.
        np.testing.assert_allclose(c.get(), an @ bn, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(col_sums.get(), an.sum(axis=0), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(row_max.get(), an.max(axis=1))
        np.testing.assert_allclose(total.get(), (an @ bn).sum(), rtol=1e-10, atol=1e-10)


@requires_gpu
def test_a_replay_is_one_launch_call_instead_of_one_per_op(stream):
    x = cp.zeros(1000, dtype=cp.float32)
    n_ops = 20

    def ops():
        for _ in range(n_ops):
            cp.add(x, 1, out=x)

    ops()
    fusion = cp.fusion_enabled()
    cp.set_fusion(False)  # one launch per op: what a graph replaces (fusion would merge them)
    try:
        before = cp.cuda.launch_count()
        ops()
        eager = cp.cuda.launch_count() - before
    finally:
        cp.set_fusion(fusion)
    assert eager >= n_ops
    with stream:
        stream.begin_capture()
        ops()
        graph = stream.end_capture()
    assert graph.num_nodes >= n_ops
    before = cp.cuda.launch_count()
    graph.launch()
    assert cp.cuda.launch_count() - before == 1
    np.testing.assert_array_equal(x.get(), np.full(1000, 3 * n_ops, dtype=np.float32))


@requires_gpu
def test_first_use_compiles_during_the_capture(stream, rng):
    # An op and dtype nothing else in this process is likely to have launched: its kernel
    # is generated, compiled (or read from disk) and loaded while the capture runs.
    xn = rng.uniform(1, 4, 257).astype(np.float16)
    x, out = cp.asarray(xn), cp.zeros(257, dtype=cp.float16)
    with stream:
        stream.begin_capture()
        cp.hypot(x, x, out=out)
        cp.negative(out, out=out)
        graph = stream.end_capture()
    graph.launch()
    np.testing.assert_array_equal(out.get(), -np.hypot(xn, xn))


@requires_gpu
def test_graph_launches_on_another_stream(stream, rng):
    xn = rng.uniform(-1, 1, 500)
    x = cp.asarray(xn)
    with stream:
        stream.begin_capture()
        x *= 3
        graph = stream.end_capture()
    other = cp.cuda.Stream(non_blocking=True)
    cp.synchronize()  # x's upload went to the default stream, which `other` does not wait for
    graph.upload(other)
    graph.launch(other)
    other.synchronize()
    np.testing.assert_array_equal(x.get(), xn * 3)


# ---------------------------------------------------------------- memory

@requires_gpu
def test_arrays_allocated_during_the_capture_live_on_and_update_each_replay(stream, rng):
    xn = rng.uniform(-5, 5, 300)
    x = cp.asarray(xn)
    with stream:
        stream.begin_capture()
        tmp = x * 3          # freed during the capture: the graph keeps its memory
        y = tmp + 1
        del tmp
        z = cp.sqrt(y * y)   # alive after end_capture
        graph = stream.end_capture()
    graph.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(y.get(), xn * 3 + 1)
    np.testing.assert_array_equal(z.get(), np.abs(xn * 3 + 1))
    y_address = y.data.ptr if hasattr(y, "data") and hasattr(y.data, "ptr") else None
    for _ in range(2):
        xn = rng.uniform(-5, 5, 300)
        put(x, xn)
        graph.launch()
        np.testing.assert_array_equal(z.get(), np.abs(xn * 3 + 1))
    if y_address is not None:
        assert y.data.ptr == y_address
    del graph
    gc.collect()
    # The arrays outlive the graph and keep the last replay's values.
    np.testing.assert_array_equal(z.get(), np.abs(xn * 3 + 1))
    np.testing.assert_array_equal(y.get(), xn * 3 + 1)


@requires_gpu
def test_an_array_made_before_and_freed_during_the_capture_stays_until_the_graph_goes(stream, rng):
    gc.collect()
    n = 1 << 20  # 8 MiB of float64, large enough to see in the pool's accounting
    xn = rng.uniform(-1, 1, n)
    before = cp.asarray(xn)
    out = cp.zeros(n)
    cp.cuda.synchronize()
    used_with_before = cp.cuda.memory_stats()["used"]
    with stream:
        stream.begin_capture()
        cp.add(before, 1, out=out)
        del before  # the graph reads it at every launch: kept, not freed
        graph = stream.end_capture()
    assert cp.cuda.memory_stats()["used"] >= used_with_before
    for _ in range(3):
        put(out, np.zeros(n))
        graph.launch()
        np.testing.assert_array_equal(out.get(), xn + 1)
    del graph
    gc.collect()
    cp.cuda.synchronize()
    assert cp.cuda.memory_stats()["used"] <= used_with_before - 8 * n


# ---------------------------------------------------------------- what cannot be captured

@requires_gpu
def test_host_waits_and_copies_refuse_and_leave_the_capture_usable(stream, rng):
    xn = rng.uniform(-5, 5, 100)
    x, y = cp.asarray(xn), cp.zeros(100)
    refused = {
        "get": lambda: x.get(),
        "item": lambda: float(x.sum()),
        "print": lambda: repr(x),
        "asarray from NumPy": lambda: cp.asarray(np.ones(3)),
        "device synchronize": lambda: cp.cuda.synchronize(),
        "stream synchronize": lambda: stream.synchronize(),
        "free_all_blocks": lambda: cp.cuda.free_all_blocks(),
    }
    with stream:
        stream.begin_capture()
        cp.add(x, 1, out=y)
        for what, call in refused.items():
            with pytest.raises(RuntimeError, match=REFUSED):
                call()
            assert stream.is_capturing(), what
        y *= 2
        graph = stream.end_capture()
    graph.launch()
    np.testing.assert_array_equal(y.get(), (xn + 1) * 2)


@requires_gpu
def test_capture_errors(gpu):
    with pytest.raises(RuntimeError, match=r"cannot capture the legacy default stream"):
        cp.cuda.Stream.null.begin_capture()
    s = cp.cuda.Stream()
    with pytest.raises(RuntimeError, match=r"end_capture\(\): the stream is not capturing"):
        s.end_capture()
    with pytest.raises(ValueError, match=r"thread-local mode only"):
        s.begin_capture(mode=0)
    assert not s.is_capturing()
    s.begin_capture()
    with pytest.raises(RuntimeError, match=r"already capturing"):
        s.begin_capture()
    failure = []

    def end_elsewhere():
        try:
            s.end_capture()
        except RuntimeError as e:
            failure.append(str(e))

    t = threading.Thread(target=end_elsewhere)
    t.start()
    t.join()
    assert failure and "thread that called begin_capture" in failure[0]
    assert s.is_capturing()
    graph = s.end_capture()  # an empty capture is a valid, empty graph
    assert graph.num_nodes == 0
    graph.launch(s)
    s.synchronize()
    assert not s.is_capturing()


@requires_gpu
def test_launch_count_counts_kernels(gpu):
    x = cp.ones(10)
    before = cp.cuda.launch_count()
    x *= 2
    cp.run_deferred()  # with automatic fusion on, the op launches when its chain runs
    assert cp.cuda.launch_count() >= before + 1
