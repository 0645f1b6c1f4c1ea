"""Automatic fusion of a reduction with the elementwise work that produces its input
(copper/fusion.hpp): `sqrt(sum(x**2, axis=-1))` records the square and the sum, and the
sum's kernel computes each squared element as it reads it (GPU) or reads it from memory
after the chain (CPU). Results must be the eager ones exactly, whatever is read, held,
written in place or viewed afterwards. Each test checks that the reduction really was
deferred (or, for the layouts that must not be, that it was not), on every device."""
import os
import warnings

import numpy as np
import pytest

os.environ["COPPER_FUSION_COMPILE"] = "sync"  # the fused kernels themselves, not the fallback

import copper as cp  # noqa: E402
from fusion_support import eager, fused, pending  # noqa: E402,F401



@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_of_rows_reads_a_formula_once(fused, rng, device, dtype):
    x0 = rng.standard_normal((7, 30, 257)).astype(dtype)
    x = cp.asarray(x0, device=device)

    def norm_rows(x):
        return cp.sqrt(cp.sum(x**2, axis=-1))

    s = cp.sum(x**2, axis=-1)
    assert pending() == 2  # the square and the sum
    got = cp.sqrt(s)
    np.testing.assert_array_equal(got.get(), eager(norm_rows, x).get())
    np.testing.assert_allclose(got.get(), np.sqrt(np.sum(x0**2, axis=-1)), rtol=2e-6 if dtype == "float32" else 1e-13)


REDUCTIONS = {
    "sum": lambda t, ax, kd: cp.sum(t, axis=ax, keepdims=kd),
    "prod": lambda t, ax, kd: cp.prod(t, axis=ax, keepdims=kd),
    "max": lambda t, ax, kd: cp.max(t, axis=ax, keepdims=kd),
    "min": lambda t, ax, kd: cp.min(t, axis=ax, keepdims=kd),
    "argmax": lambda t, ax, kd: cp.argmax(t, axis=ax, keepdims=kd) if not isinstance(ax, tuple) else None,
    "argmin": lambda t, ax, kd: cp.argmin(t, axis=ax, keepdims=kd) if not isinstance(ax, tuple) else None,
    "nansum": lambda t, ax, kd: cp.nansum(t, axis=ax, keepdims=kd),
    "nanmax": lambda t, ax, kd: cp.nanmax(t, axis=ax, keepdims=kd),
    "mean": lambda t, ax, kd: cp.mean(t, axis=ax, keepdims=kd),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
def test_every_reduction_over_every_axis_matches_eager(fused, rng, device, name, axis):
    # Outer, inner, middle and full reductions pick different kernel shapes on the GPU.
    shape = tuple(int(n) for n in rng.integers(1, 70, size=3))
    x0 = rng.standard_normal(shape)
    x = cp.asarray(x0, device=device)
    keepdims = bool(rng.integers(2))

    def run(x):
        return REDUCTIONS[name](x * 0.75 + 0.5, axis, keepdims)

    want = eager(run, x)
    if want is None:
        pytest.skip("no tuple axes for arg reductions")
    got = run(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want.get())


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool", "float16", "complex128"])
def test_sums_of_other_dtypes_accumulate_as_eager(fused, rng, device, dtype):
    n = int(rng.integers(1, 5000))
    if dtype == "bool":
        a0 = rng.random(n) < 0.3
    elif dtype == "complex128":
        a0 = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    else:
        a0 = (rng.standard_normal(n) * 20).astype(dtype)
    a = cp.asarray(a0, device=device)
    with cp.errstate(all="ignore"), np.errstate(all="ignore"):
        t = a ^ a if dtype == "bool" else a * a
        s = t.sum()
        assert pending() == 2
        expected = (a0 ^ a0 if dtype == "bool" else a0 * a0).sum()
        assert s.dtype == expected.dtype
        if dtype in ("float16", "complex128"):
            np.testing.assert_allclose(s.get(), expected, rtol=1e-2 if dtype == "float16" else 1e-12)
        else:
            assert s.get() == expected


def test_comparison_then_all_and_any(fused, rng, device):
    a0 = rng.integers(0, 3, size=10_000)
    b0 = a0.copy()
    b0[rng.integers(0, 10_000)] += 1
    a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)
    same = (a == b).all()
    assert pending() == 2
    assert bool(same) is False
    assert bool((a == a).all()) is True
    assert bool((a != b).any()) is True
    assert int(cp.count_nonzero(a != b)) == 1


def test_a_held_intermediate_is_still_written(fused, rng, device):
    x0 = rng.standard_normal((300, 40))
    x = cp.asarray(x0, device=device)
    t = x * x
    u = t + 1.0  # held too: the reduction's kernel stores it on the way
    s = t.sum(axis=0)
    assert pending() == 3
    np.testing.assert_allclose(s.get(), (x0 * x0).sum(axis=0), rtol=1e-13)
    np.testing.assert_array_equal(t.get(), x0 * x0)
    np.testing.assert_array_equal(u.get(), x0 * x0 + 1.0)


def test_in_place_updates_before_a_reduction(fused, rng, device):
    x0 = rng.standard_normal(50_000)
    x = cp.asarray(x0, device=device)
    x *= 3.0
    x += 1.0
    total = x.sum()
    assert pending() == 3
    e = x0 * 3.0
    e += 1.0
    assert float(total) == pytest.approx(e.sum(), rel=1e-12)
    np.testing.assert_array_equal(x.get(), e)


def test_transposed_view_of_a_result_is_fed(fused, rng, device):
    x0 = rng.standard_normal((64, 48))
    x = cp.asarray(x0, device=device)
    t = x - 0.25
    s = t.T.sum(axis=1)  # a permutation of t's axes: still all of t
    assert pending() == 2
    np.testing.assert_allclose(s.get(), (x0 - 0.25).T.sum(axis=1), rtol=1e-12)


def test_partial_and_strided_views_reduce_after_the_chain(fused, rng, device):
    x0 = rng.standard_normal((64, 48))
    x = cp.asarray(x0, device=device)
    t = x - 0.25
    s = t[::2].sum(axis=0)  # not all of t: the chain runs first, then the reduction
    assert pending() == 0
    np.testing.assert_allclose(s.get(), (x0 - 0.25)[::2].sum(axis=0), rtol=1e-12)
    t = x * 2.0
    s = t[:, 1:].max(axis=1)
    np.testing.assert_array_equal(s.get(), (x0 * 2.0)[:, 1:].max(axis=1))


def test_out_argument_receives_the_fed_reduction(fused, rng, device):
    x0 = rng.standard_normal((100, 30))
    x = cp.asarray(x0, device=device)
    out = cp.zeros(30, device=device)
    r = cp.sum(x * x, axis=0, out=out)
    assert r is out or r.data.ptr == out.data.ptr
    np.testing.assert_allclose(out.get(), (x0 * x0).sum(axis=0), rtol=1e-12)


def test_ops_after_a_deferred_reduction_see_everything(fused, rng, device):
    x0 = rng.standard_normal((200, 50))
    x = cp.asarray(x0, device=device)
    t = x * x
    s = t.sum(axis=1)
    y = t + 1.0  # the chain's shape again: the chain (with its reduction) runs first
    t *= 0.0  # and this must not reach s
    np.testing.assert_allclose(s.get(), (x0 * x0).sum(axis=1), rtol=1e-12)
    np.testing.assert_array_equal(y.get(), x0 * x0 + 1.0)
    np.testing.assert_array_equal(t.get(), np.zeros_like(x0))


def test_mean_and_var_of_formulas(fused, rng, device):
    x0 = rng.standard_normal((33, 1000))
    x = cp.asarray(x0, device=device)
    np.testing.assert_allclose(cp.mean(x * 2.0 - 1.0, axis=1).get(), np.mean(x0 * 2.0 - 1.0, axis=1), rtol=1e-12)
    np.testing.assert_allclose(cp.var(x * 2.0, axis=0).get(), np.var(x0 * 2.0, axis=0), rtol=1e-10)
    np.testing.assert_allclose(float(cp.linalg.norm(x - 1.0)), np.linalg.norm(x0 - 1.0), rtol=1e-12)


def test_zero_dimensional_and_single_element_chains(fused, device):
    a = cp.asarray(2.5, device=device)
    s = (a * a).sum()
    assert pending() == 2
    assert float(s) == 6.25
    b = cp.asarray([3.0], device=device)
    assert float((b + 1.0).max()) == 4.0


def test_overflow_in_the_feeding_step_warns_once(fused, device):
    x = cp.full(1000, 1e200, device=device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with cp.errstate(over="warn"):
            s = (x * x).sum()
            value = float(s)
    assert value == np.inf
    overflow = [w for w in caught if "overflow" in str(w.message)]
    assert len(overflow) == 1, [str(w.message) for w in caught]


def test_a_loop_of_fed_reductions_with_new_scalars(fused, rng, device):
    x0 = rng.standard_normal(4096)
    x = cp.asarray(x0, device=device)
    for k in range(5):
        s = ((x - float(k)) ** 2).sum()
        assert float(s) == pytest.approx(((x0 - k) ** 2).sum(), rel=1e-12)


def test_fusion_off_defers_no_reduction(rng, device):
    was = cp.fusion_enabled()
    cp.set_fusion(False)
    try:
        x = cp.asarray(rng.standard_normal(100), device=device)
        s = (x * x).sum()
        assert pending() == 0
        assert float(s) > 0
    finally:
        cp.set_fusion(was)


@pytest.mark.parametrize("row", [1, 7, 8191, 8193, 20_000, 65_536, 65_537])
def test_row_lengths_around_the_cpu_blocks(fused, rng, device, row):
    # The CPU computes whole rows of the input into a buffer and reduces them there, for
    # rows up to 65536 elements (several rows per block, or one row over several blocks);
    # longer rows go through memory. Either way, the eager float32 sums to the last bit.
    nrows = max(1, 200_000 // row)
    x = cp.asarray(rng.standard_normal((nrows, row)).astype("float32"), device=device)

    def run(x):
        return cp.sum(x * 1.5 - 0.25, axis=-1), cp.max(cp.abs(x), axis=1)

    s, m = run(x)
    want_s, want_m = eager(run, x)
    np.testing.assert_array_equal(s.get(), want_s.get())
    np.testing.assert_array_equal(m.get(), want_m.get())


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("length", [2, 4])
def test_short_rows_through_views_of_any_alignment(fused, rng, device, dtype, length):
    # A short row that is contiguous and aligned to its own size is read as one vector on the
    # GPU; rows starting one element off, reversed, or stepping backwards must not be, and all
    # of them must give the eager values (and NumPy's, to rounding).
    base0 = rng.standard_normal((33, 3, 2 * length)).astype(dtype)
    c0 = rng.standard_normal((3, length)).astype(dtype)
    base, c = cp.asarray(base0, device=device), cp.asarray(c0, device=device)
    views = {
        "aligned": lambda t: t[:, :, :length],
        "one element off": lambda t: t[:, :, 1 : length + 1],
        "every other element": lambda t: t[:, :, ::2],
        "reversed rows": lambda t: t[:, :, length - 1 :: -1],
        "outer axis backwards": lambda t: t[::-1, :, :length],
    }
    for name, view in views.items():

        def distance(t, c):
            return cp.sqrt(((view(t)[:, None, :, :] - c[None, :, None, :]) ** 2).sum(axis=-1))

        got = distance(base, c)
        np.testing.assert_array_equal(got.get(), eager(distance, base, c).get(), err_msg=name)
        want = np.sqrt(((view(base0)[:, None, :, :] - c0[None, :, None, :]) ** 2).sum(axis=-1))
        np.testing.assert_allclose(got.get(), want, rtol=2e-3 if dtype == "float16" else 1e-6, err_msg=name)
