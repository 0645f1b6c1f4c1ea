"""Automatic fusion (copper/fusion.hpp): elementwise ops recorded and run later as one pass
must give exactly the eager results, whatever reads, views, aliasing and errors follow.
NumPy is the oracle; every test also checks that the ops really were deferred, so a test
cannot pass by fusion silently doing nothing. Every test runs on each device: the CPU runs
chains block by block, the GPU as one generated kernel per chain structure."""
import numpy as np
import pytest

import copper as cp
from conftest import DEVICES


@pytest.fixture
def fused():
    was = cp.fusion_enabled()
    cp.set_fusion(True)
    yield
    cp.set_fusion(was)


def host(a):
    return a.get()


def test_seed_chain_defers_three_ops_and_matches_numpy(fused, rng, device):
    x0 = rng.standard_normal(100_000)
    x = cp.asarray(x0, device=device)
    x *= 5
    x *= x
    x += x
    assert cp._core._deferred_ops() == 3
    e = x0 * 5
    e *= e
    e += e
    np.testing.assert_array_equal(host(x), e)  # the read runs the chain
    assert cp._core._deferred_ops() == 0


def eager(fn, *args):
    """fn(*args) with fusion off: what every op gives on its own."""
    cp.set_fusion(False)
    try:
        return fn(*args)
    finally:
        cp.set_fusion(True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64", "uint8", "float16"])
def test_random_formulas_match_eager(fused, rng, dtype, device):
    n = int(rng.integers(1, 40_000))
    a0 = (rng.standard_normal(n) * 10).astype(dtype)
    b0 = (rng.standard_normal(n) * 10).astype(dtype)
    a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)

    def formula(a, b):
        return ((a * b + a) - 3 * b) * a

    with np.errstate(all="ignore"):
        expected = formula(a0, b0)
    with cp.errstate(all="ignore"):
        got = formula(a, b)
        assert cp._core._deferred_ops() == 5
        assert got.dtype == expected.dtype
        # Bit for bit the eager ops' values; those are NumPy's exactly on the CPU and
        # to rounding of complex products on the GPU.
        np.testing.assert_array_equal(host(got), host(eager(formula, a, b)))
    if device == "cpu" or dtype != "complex64":
        np.testing.assert_array_equal(host(got), expected)
    else:
        np.testing.assert_allclose(host(got), expected, rtol=1e-5, atol=1e-3)


def test_masks_and_mixed_dtypes_in_one_chain(fused, rng, device):
    a0, b0 = rng.standard_normal(7001), rng.standard_normal(7001)
    a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)
    m = (a > b) & (b < 0.5) | ~(a < -1.0)   # bool steps after float comparisons
    i = cp.asarray(rng.integers(-50, 50, 7001), device=device)
    q = (i * 7) // 3 % 5                     # integer division, checked for zero divisors
    assert cp._core._deferred_ops() > 0
    np.testing.assert_array_equal(host(m), (a0 > b0) & (b0 < 0.5) | ~(a0 < -1.0))
    i0 = host(i)
    np.testing.assert_array_equal(host(q), (i0 * 7) // 3 % 5)


def test_a_buffer_read_as_two_dtypes(fused, rng, device):
    x0 = rng.standard_normal(4096)
    x = cp.asarray(x0, device=device)
    x *= 2.0
    bits = x.view(cp.int64)
    y = bits + 1                             # the same memory as int64, in the same chain
    assert cp._core._deferred_ops() == 2
    np.testing.assert_array_equal(host(y), (x0 * 2.0).view(np.int64) + 1)


def test_errors_of_a_scope_are_reported_when_it_ends(fused, rng, device):
    x = cp.asarray(rng.standard_normal(1000), device=device)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        with cp.errstate(divide="warn"):
            y = x / 0.0                      # never read inside the scope
    with cp.errstate(divide="ignore"):
        z = x / 0.0
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        host(z)
    assert np.isinf(host(y)).all()


def test_new_scalars_reuse_the_chain_kernel(fused, rng, device):
    x = cp.asarray(rng.standard_normal(10_000), device=device)
    e = host(x)
    for k in range(6):
        if k == 2:
            before = cp._core._kernel_compile_stats(device)
        x = (x * (1.0 + k / 10)) - k
        e = (e * (1.0 + k / 10)) - k
        np.testing.assert_array_equal(host(x), e)
    after = cp._core._kernel_compile_stats(device)
    assert after["compiles"] == before["compiles"]
    assert after["disk_hits"] == before["disk_hits"]


def test_dead_temporaries_are_bounded():
    """Temporaries that die while deferred keep their memory until the chain runs: past
    COPPER_FUSION_MEMORY_MB of them the chain runs early (here 1 MiB, 800 KB arrays)."""
    import subprocess
    import sys
    code = ("import numpy as np, copper as cp\n"
            "x = cp.asarray(np.arange(100_000, dtype=np.float64), device='DEV')\n"
            "for k in range(20):\n"
            "    x = x * 1.0001 + 1.0\n"
            "    assert cp._core._deferred_ops() <= 6, cp._core._deferred_ops()\n"
            "e = np.arange(100_000, dtype=np.float64)\n"
            "for k in range(20):\n"
            "    e = e * 1.0001 + 1.0\n"
            "np.testing.assert_array_equal(x.get(), e)\n")
    import os
    for dev in DEVICES:
        env = dict(os.environ, COPPER_FUSION="1", COPPER_FUSION_MEMORY_MB="1")
        subprocess.run([sys.executable, "-c", code.replace("DEV", dev)], env=env, check=True)


def test_intermediates_no_one_holds_stay_out_of_memory_but_held_ones_are_written(fused, rng, device):
    x0 = rng.standard_normal(50_000)
    x = cp.asarray(x0, device=device)
    kept = x * 2.0           # held: must be written
    y = (kept + 1.0) * 3.0   # (kept + 1.0) is held by no one
    np.testing.assert_array_equal(host(y), (x0 * 2.0 + 1.0) * 3.0)
    np.testing.assert_array_equal(host(kept), x0 * 2.0)


def test_views_of_pending_arrays_see_every_write(fused, rng, device):
    x0 = rng.standard_normal((30, 40))
    x = cp.asarray(x0, device=device)
    v = x.T          # a view: reading it runs what writes x
    x *= 3.0
    np.testing.assert_array_equal(host(v), (x0 * 3.0).T)
    row = x[2]       # basic indexing reads metadata only; the read runs pending work
    x += 1.0
    np.testing.assert_array_equal(host(row), x0[2] * 3.0 + 1.0)


def test_same_buffer_at_two_offsets_runs_in_eager_order(fused, rng, device):
    a0 = rng.standard_normal(2000)
    a = cp.asarray(a0, device=device)
    p, q = a[:1000], a[1000:]
    p *= 2.0
    q += p           # reads p's new values while writing the other half
    e = a0.copy()
    e[:1000] *= 2.0
    e[1000:] += e[:1000]
    np.testing.assert_array_equal(host(a), e)
    a[1:] += a[:-1]  # overlapping shifted views: the eager path's copy, not a chain
    e[1:] += e[:-1].copy()
    np.testing.assert_array_equal(host(a), e)


def test_one_element_broadcast_of_a_written_buffer(fused, rng, device):
    x0 = rng.standard_normal(20_000)
    x = cp.asarray(x0, device=device)
    s = x[:1]
    y = x + s        # reads x[0] before the write below
    x *= 2.0
    z = x + s        # reads the written x[0]
    np.testing.assert_array_equal(host(y), x0 + x0[0])
    np.testing.assert_array_equal(host(z), 2 * x0 + 2 * x0[0])


def test_shapes_and_layouts_outside_a_chain_still_work(fused, rng, device):
    a0 = rng.standard_normal((64, 33))
    b0 = rng.standard_normal(33)
    a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)
    c = a * 2.0          # deferred, shape (64, 33)
    d = a + b            # broadcasts a row: runs eagerly
    f = a[:, ::2] * 3.0  # strided: eagerly
    g = c.sum()          # a reduction reads c
    np.testing.assert_array_equal(host(d), a0 + b0)
    np.testing.assert_array_equal(host(f), a0[:, ::2] * 3.0)
    np.testing.assert_allclose(float(g), (a0 * 2.0).sum(), rtol=1e-12)


def test_long_chains_are_cut_and_still_exact(fused, rng, device):
    x0 = rng.standard_normal(10_000)
    x = cp.asarray(x0, device=device)
    e = x0.copy()
    for k in range(130):
        x = x * 1.001 + k
        e = e * 1.001 + k
    assert 0 < cp._core._deferred_ops() <= 48
    np.testing.assert_array_equal(host(x), e)


def test_warnings_come_when_the_chain_runs(fused, rng, device):
    x = cp.asarray(rng.standard_normal(1000), device=device)
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
        y = x / 0.0
        assert cp._core._deferred_ops() == 1
        host(y)
    with cp.errstate(divide="ignore"):
        y = x / 0.0
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        host(y)      # recorded under 'ignore': silent when it runs
    with cp.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            host(x / 0.0)  # 'raise' runs at the call (a GPU reports at the read)
    assert cp._core._deferred_ops() == 0


def test_memory_shared_outside_copper_is_never_deferred(fused, rng, device):
    if device == "cpu":
        n0 = rng.standard_normal(5000)
        before = n0.copy()
        shared = cp.from_dlpack(n0)  # copper's view of NumPy's memory
        shared += 1.0
        assert cp._core._deferred_ops() == 0
        np.testing.assert_array_equal(n0, before + 1.0)  # NumPy sees the write at once
    x0 = rng.standard_normal(5000)
    x = cp.asarray(x0, device=device)
    x *= 2.0
    assert cp._core._deferred_ops() == 1
    if device == "cpu":
        exported = np.from_dlpack(x)  # export runs the pending write, then marks the memory
        np.testing.assert_array_equal(exported, x0 * 2.0)
    else:
        x.data.ptr  # the raw address: the other side may read it from now on
    assert cp._core._deferred_ops() == 0
    x *= 2.0
    assert cp._core._deferred_ops() == 0
    if device == "cpu":
        np.testing.assert_array_equal(exported, x0 * 4.0)
    np.testing.assert_array_equal(host(x), x0 * 4.0)


def test_switching_off_runs_what_is_pending(rng, device):
    was = cp.fusion_enabled()
    try:
        cp.set_fusion(True)
        x0 = rng.standard_normal(1000)
        x = cp.asarray(x0, device=device)
        x += 1.0
        assert cp._core._deferred_ops() == 1
        cp.set_fusion(False)
        assert cp._core._deferred_ops() == 0
        x += 1.0
        assert cp._core._deferred_ops() == 0
        np.testing.assert_array_equal(host(x), (x0 + 1.0) + 1.0)
    finally:
        cp.set_fusion(was)


def test_synchronize_runs_pending_work(fused, rng, device):
    x = cp.asarray(rng.standard_normal(1000), device=device)
    x *= 3.0
    cp.synchronize(device)
    assert cp._core._deferred_ops() == 0
