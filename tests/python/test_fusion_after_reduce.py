"""Automatic fusion of a reduction with the elementwise work that consumes its output
(Chain::after): `sqrt(((X[:, None, :] - C[None, :, :])**2).sum(axis=2))` records the
subtract, the square, the sum and the sqrt as one chain; on the GPU short rows go one
thread per row and the sqrt runs before the store, so the sum never reaches memory unless
someone holds it. Results must be the eager ones exactly, on every device, whatever is
held, read, written in place or refused afterwards."""
import os
import warnings

import numpy as np
import pytest

os.environ["COPPER_FUSION_COMPILE"] = "sync"  # the fused kernels themselves, not the fallback

import copper as cp  # noqa: E402
from fusion_support import eager, fused, pending  # noqa: E402,F401


def kmeans_distance(points, centres):
    return cp.sqrt(((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dims", [1, 2, 3, 5, 8, 17, 40])
def test_kmeans_distance_with_its_sqrt_matches_eager(fused, rng, device, dtype, dims):
    # Few dimensions: one thread per row on the GPU; many: the ordinary fed sum, the sqrt
    # run after it. Either way the values are the eager ones bit for bit.
    n = int(rng.integers(1, 3000))
    p0 = rng.standard_normal((n, dims)).astype(dtype)
    c0 = rng.standard_normal((7, dims)).astype(dtype)
    points, centres = cp.asarray(p0, device=device), cp.asarray(c0, device=device)
    got = kmeans_distance(points, centres)
    assert pending() == 4  # subtract, square, sum, sqrt
    want = eager(kmeans_distance, points, centres)
    np.testing.assert_array_equal(got.get(), want.get())
    np.testing.assert_allclose(got.get(), np.sqrt(((p0[:, None, :] - c0[None, :, :]) ** 2).sum(axis=2)),
                               rtol=1e-5 if dtype == "float32" else 1e-12)


def test_a_held_sum_is_stored_and_the_steps_after_it_see_it(fused, rng, device):
    x = cp.asarray(rng.standard_normal((300, 4)), device=device)
    w = cp.asarray(rng.standard_normal(300), device=device)

    def run(x, w):
        s = cp.sum(x * x, axis=1)
        t = cp.sqrt(s) * 2.0
        u = t + s - w
        return s, t, u

    got = run(x, w)
    assert pending() == 6
    for g, e in zip(got, eager(run, x, w)):
        np.testing.assert_array_equal(g.get(), e.get())


def test_steps_after_read_scalars_broadcasts_and_other_arrays(fused, rng, device):
    x = cp.asarray(rng.standard_normal((50, 60, 3)), device=device)
    other = cp.asarray(rng.standard_normal((50, 60)), device=device)
    scale = cp.asarray(1.5, device=device)

    def run(x, other, scale):
        return (cp.sqrt(cp.sum(x**2, axis=-1)) + other) * scale - 0.25

    got = run(x, other, scale)
    assert pending() == 6
    np.testing.assert_array_equal(got.get(), eager(run, x, other, scale).get())


@pytest.mark.parametrize("keepdims", [False, True])
def test_in_place_on_the_reduced_output(fused, rng, device, keepdims):
    x = cp.asarray(rng.standard_normal((400, 6)).astype(np.float32), device=device)

    def run(x):
        s = cp.sum(abs(x) + 1.0, axis=-1, keepdims=keepdims)
        cp.sqrt(s, out=s)
        s *= 3
        return s

    got = run(x)
    np.testing.assert_array_equal(got.get(), eager(run, x).get())


def test_arg_reductions_and_casts_after(fused, rng, device):
    x = cp.asarray(rng.standard_normal((1000, 5)), device=device)

    def run(x):
        i = cp.argmax(x * 2.0, axis=1)
        return (i + 1) * 3, cp.max(x - 1.0, axis=1).astype(np.float32) * 2

    got = run(x)
    for g, e in zip(got, eager(run, x)):
        np.testing.assert_array_equal(g.get(), e.get())
        assert g.dtype == e.dtype


def test_steps_touching_the_chain_before_the_reduction_run_it_first(fused, rng, device):
    x = cp.asarray(rng.standard_normal((200, 3)), device=device)

    def run(x):
        y = x * 2.0
        s = cp.sum(y, axis=1)
        return s + y[:, 0] + x[:, 1]  # y is written before the sum, x read there

    got = run(x)
    np.testing.assert_array_equal(got.get(), eager(run, x).get())


def test_outer_and_full_reductions_with_steps_after(fused, rng, device):
    x = cp.asarray(rng.standard_normal((64, 33)), device=device)

    def run(x):
        return cp.sqrt(cp.sum(x * x, axis=0)) + 1.0, cp.sqrt(cp.sum(x * x)) + 1.0

    got = run(x)
    for g, e in zip(got, eager(run, x)):
        np.testing.assert_array_equal(g.get(), e.get())


def test_warnings_of_steps_after_the_reduction(fused, rng, device):
    x = cp.asarray(rng.standard_normal((100, 2)), device=device)
    with pytest.warns(RuntimeWarning, match="invalid value encountered in sqrt"):
        with cp.errstate(invalid="warn"):
            r = cp.sqrt(cp.sum(x * 1.0, axis=1) - 1e6)
            assert pending() == 4
            got = r.get()
    assert np.isnan(got).all()
    with cp.errstate(invalid="ignore"):
        r = cp.sqrt(cp.sum(x * 1.0, axis=1) - 1e6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(r.get()).all()


def test_many_steps_after_stay_bounded(fused, rng, device):
    x = cp.asarray(rng.standard_normal((100, 4)), device=device)

    def run(x):
        s = cp.sum(x * 0.5, axis=1)
        for k in range(80):  # past the chain's step limit: it runs and a new one starts
            s = s * 1.01 + k
        return s

    got = run(x)
    assert pending() <= 64
    np.testing.assert_array_equal(got.get(), eager(run, x).get())


@pytest.mark.parametrize("dtype", ["float16", "float32", "int16"])
def test_variance_divides_its_sum_in_place_after_it(fused, rng, device, dtype):
    # var and std: the sum's output divided in place (out=) and cast after the reduction,
    # with no one holding the sum once they return.
    x = cp.asarray((rng.standard_normal((4, 5, 3)) * 10).astype(dtype), device=device)
    for fn in (cp.var, cp.std, cp.mean):
        got = fn(x, axis=-1)
        np.testing.assert_array_equal(got.get(), eager(fn, x, -1).get())


SPECIAL = [np.inf, -np.inf, np.nan, -0.0, 0.0, 1e308, -1e308, 1e16, 1.0, -1.0, 3.0, 5e-324, 65504.0, 1e-8]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_short_rows_with_special_values_match_eager_bit_for_bit(fused, rng, device, dtype, length):
    # A short row's first element and a row of two take shortcuts on the GPU (no compensation
    # step for the first, two plain adds for a pair): infinities, NaN, signed zeros, overflow
    # and cancellation must come out as the compensated fold gives them, read through a
    # broadcast view (the row layout) and from memory.
    with np.errstate(all="ignore"), cp.errstate(all="ignore"):
        a0 = rng.choice(np.array(SPECIAL), size=(97, 1, length)).astype(dtype)
        b0 = rng.choice(np.array(SPECIAL), size=(1, 5, length)).astype(dtype)
        a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)
        runs = {
            "sum of a broadcast difference": lambda a, b: (a - b).sum(axis=-1),
            "nansum of a broadcast sum": lambda a, b: cp.nansum(a + b, axis=-1),
            "2-norm of a broadcast difference": lambda a, b: cp.sqrt(((a - b) ** 2).sum(axis=-1)),
            "sum of a contiguous product": lambda a, b: (a[:, 0, :] * 0.5).sum(axis=-1),
            "mean": lambda a, b: cp.mean(a * b, axis=-1),
        }
        for name, fn in runs.items():
            got, want = fn(a, b).get(), eager(fn, a, b).get()
            assert got.dtype == want.dtype, name
            np.testing.assert_array_equal(got, want, err_msg=name)
            finite = ~np.isnan(want)
            assert (np.signbit(got[finite]) == np.signbit(want[finite])).all(), name
