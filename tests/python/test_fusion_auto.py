"""Automatic fusion (copper/fusion.hpp): elementwise ops recorded and run later as one pass
must give exactly the eager results, whatever reads, views, aliasing and errors follow.
NumPy is the oracle; every test also checks that the ops really were deferred, so a test
cannot pass by fusion silently doing nothing. The first stage fuses on the CPU only."""
import numpy as np
import pytest

import copper as cp


@pytest.fixture
def fused():
    was = cp.fusion_enabled()
    cp.set_fusion(True)
    yield
    cp.set_fusion(was)


def host(a):
    return a.get()


def test_seed_chain_defers_three_ops_and_matches_numpy(fused, rng):
    x0 = rng.standard_normal(100_000)
    x = cp.asarray(x0, device="cpu")
    x *= 5
    x *= x
    x += x
    assert cp._core._deferred_ops() == 3
    e = x0 * 5
    e *= e
    e += e
    np.testing.assert_array_equal(host(x), e)  # the read runs the chain
    assert cp._core._deferred_ops() == 0


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64", "uint8"])
def test_random_formulas_match_eager(fused, rng, dtype):
    n = int(rng.integers(1, 40_000))
    a0 = (rng.standard_normal(n) * 10).astype(dtype)
    b0 = (rng.standard_normal(n) * 10).astype(dtype)
    a, b = cp.asarray(a0, device="cpu"), cp.asarray(b0, device="cpu")
    with np.errstate(all="ignore"):
        expected = ((a0 * b0 + a0) - 3 * b0) * a0
    got = ((a * b + a) - 3 * b) * a
    assert cp._core._deferred_ops() == 5
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(host(got), expected)


def test_intermediates_no_one_holds_stay_out_of_memory_but_held_ones_are_written(fused, rng):
    x0 = rng.standard_normal(50_000)
    x = cp.asarray(x0, device="cpu")
    kept = x * 2.0           # held: must be written
    y = (kept + 1.0) * 3.0   # (kept + 1.0) is held by no one
    np.testing.assert_array_equal(host(y), (x0 * 2.0 + 1.0) * 3.0)
    np.testing.assert_array_equal(host(kept), x0 * 2.0)


def test_views_of_pending_arrays_see_every_write(fused, rng):
    x0 = rng.standard_normal((30, 40))
    x = cp.asarray(x0, device="cpu")
    v = x.T          # a view: reading it runs what writes x
    x *= 3.0
    np.testing.assert_array_equal(host(v), (x0 * 3.0).T)
    row = x[2]       # basic indexing reads metadata only; the read runs pending work
    x += 1.0
    np.testing.assert_array_equal(host(row), x0[2] * 3.0 + 1.0)


def test_same_buffer_at_two_offsets_runs_in_eager_order(fused, rng):
    a0 = rng.standard_normal(2000)
    a = cp.asarray(a0, device="cpu")
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


def test_one_element_broadcast_of_a_written_buffer(fused, rng):
    x0 = rng.standard_normal(20_000)
    x = cp.asarray(x0, device="cpu")
    s = x[:1]
    y = x + s        # reads x[0] before the write below
    x *= 2.0
    z = x + s        # reads the written x[0]
    np.testing.assert_array_equal(host(y), x0 + x0[0])
    np.testing.assert_array_equal(host(z), 2 * x0 + 2 * x0[0])


def test_shapes_and_layouts_outside_a_chain_still_work(fused, rng):
    a0 = rng.standard_normal((64, 33))
    b0 = rng.standard_normal(33)
    a, b = cp.asarray(a0, device="cpu"), cp.asarray(b0, device="cpu")
    c = a * 2.0          # deferred, shape (64, 33)
    d = a + b            # broadcasts a row: runs eagerly
    f = a[:, ::2] * 3.0  # strided: eagerly
    g = c.sum()          # a reduction reads c
    np.testing.assert_array_equal(host(d), a0 + b0)
    np.testing.assert_array_equal(host(f), a0[:, ::2] * 3.0)
    np.testing.assert_allclose(float(g), (a0 * 2.0).sum(), rtol=1e-12)


def test_long_chains_are_cut_and_still_exact(fused, rng):
    x0 = rng.standard_normal(10_000)
    x = cp.asarray(x0, device="cpu")
    e = x0.copy()
    for k in range(130):
        x = x * 1.001 + k
        e = e * 1.001 + k
    assert 0 < cp._core._deferred_ops() <= 48
    np.testing.assert_array_equal(host(x), e)


def test_warnings_come_when_the_chain_runs(fused, rng):
    x = cp.asarray(rng.standard_normal(1000), device="cpu")
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
            x / 0.0  # 'raise' runs at the call
    assert cp._core._deferred_ops() == 0


def test_memory_shared_outside_copper_is_never_deferred(fused, rng):
    n0 = rng.standard_normal(5000)
    before = n0.copy()
    shared = cp.from_dlpack(n0)  # copper's view of NumPy's memory
    shared += 1.0
    assert cp._core._deferred_ops() == 0
    np.testing.assert_array_equal(n0, before + 1.0)  # NumPy sees the write at once
    x = cp.asarray(rng.standard_normal(5000), device="cpu")
    x *= 2.0
    exported = np.from_dlpack(x)  # export runs the pending write, then marks the memory
    expected = exported.copy()
    x *= 2.0
    assert cp._core._deferred_ops() == 0
    np.testing.assert_array_equal(exported, expected * 2.0)


def test_switching_off_runs_what_is_pending(rng):
    was = cp.fusion_enabled()
    try:
        cp.set_fusion(True)
        x0 = rng.standard_normal(1000)
        x = cp.asarray(x0, device="cpu")
        x += 1.0
        assert cp._core._deferred_ops() == 1
        cp.set_fusion(False)
        assert cp._core._deferred_ops() == 0
        x += 1.0
        assert cp._core._deferred_ops() == 0
        np.testing.assert_array_equal(host(x), (x0 + 1.0) + 1.0)
    finally:
        cp.set_fusion(was)


def test_synchronize_runs_pending_work(fused, rng):
    x = cp.asarray(rng.standard_normal(1000), device="cpu")
    x *= 3.0
    cp.synchronize("cpu")
    assert cp._core._deferred_ops() == 0
