"""Automatic fusion of ops that read strided views (fused_chain.h's Chain::views): broadcast
rows and columns, reversed and stepped slices, transposes, each read through its own
strides inside a chain, as in the k-means distance sqrt(((X[:, None] - C[None])**2).sum(2)).
Values must be the eager ones bit for bit (NumPy's to rounding on the GPU), and a view of
memory the chain writes must see every earlier write. Each test runs on each device and
checks that the ops really were deferred."""
import os

import numpy as np
import pytest

os.environ["COPPER_FUSION_COMPILE"] = "sync"  # GPU tests check the fused kernel itself

import copper as cp  # noqa: E402
from fusion_support import eager, fused, pending  # noqa: E402,F401


def host(a):
    return a.get()


def close_to_numpy(got, expected, device):
    if device == "cpu":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12 if got.dtype == np.float64 else 1e-5)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_kmeans_distance_reads_points_and_centres_once_each(fused, rng, dtype, device):
    n, k = int(rng.integers(1, 5000)), int(rng.integers(1, 12))
    x0 = rng.standard_normal((n, 2)).astype(dtype)
    c0 = rng.standard_normal((k, 2)).astype(dtype)
    x, c = cp.asarray(x0, device=device), cp.asarray(c0, device=device)

    def distance(x, c):
        return ((x[:, None, :] - c[None, :, :]) ** 2).sum(axis=2)

    got = distance(x, c)
    assert pending() == 3  # subtract, square and the sum that they feed
    d = cp.sqrt(got)
    want = eager(distance, x, c)
    np.testing.assert_array_equal(host(got), host(want))
    close_to_numpy(host(d), np.sqrt(((x0[:, None, :] - c0[None, :, :]) ** 2).sum(axis=2)), device)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int8", "uint16", "complex64", "float16", "bool"])
def test_broadcast_rows_and_columns_in_one_chain(fused, rng, dtype, device):
    m, n = int(rng.integers(1, 300)), int(rng.integers(2, 300))
    a0 = (rng.standard_normal((m, n)) * 20).astype(dtype)
    row0 = (rng.standard_normal(n) * 20).astype(dtype)
    col0 = (rng.standard_normal((m, 1)) * 20).astype(dtype)
    a, row, col = (cp.asarray(v, device=device) for v in (a0, row0, col0))

    def formula(a, row, col):
        return (a * row + col) * a - row if dtype != "bool" else (a & row) | col ^ a

    with np.errstate(all="ignore"):
        expected = formula(a0, row0, col0)
    with cp.errstate(all="ignore"):
        got = formula(a, row, col)
        assert pending() == 4 if dtype != "bool" else pending() == 3
        np.testing.assert_array_equal(host(got), host(eager(formula, a, row, col)))
    if device == "cpu" or dtype not in ("complex64", "float16"):
        np.testing.assert_array_equal(host(got), expected)


def test_reversed_stepped_and_transposed_views(fused, rng, device):
    base0 = rng.standard_normal(4000)
    m0 = rng.standard_normal((60, 70))
    base, m = cp.asarray(base0, device=device), cp.asarray(m0, device=device)
    y = base[::-2] * 3.0 + base[1::2][::-1]   # negative and stepped strides
    assert pending() == 2
    sq = cp.empty((70, 60), device=device)    # (another shape: y's chain runs first)
    cp.add(m.T, 1.5, out=sq)                   # a transposed view into a C-ordered out=
    sq *= m.T[:, ::-1]
    assert pending() == 2
    np.testing.assert_array_equal(host(y), base0[::-2] * 3.0 + base0[1::2][::-1])
    np.testing.assert_array_equal(host(sq), (m0.T + 1.5) * m0.T[:, ::-1])


def test_views_of_memory_the_chain_writes_see_its_writes(fused, rng, device):
    x0 = rng.standard_normal(5000)
    x = cp.asarray(x0, device=device)
    x *= 2.0
    assert pending() == 1
    z = x[::-1] + 1.0          # reads what the chain wrote: the chain runs first
    e = x0 * 2.0
    np.testing.assert_array_equal(host(z), e[::-1] + 1.0)

    y = cp.asarray(x0, device=device)
    w = y[::-1] * 3.0          # reads y through a view...
    y += 1.0                   # ...then y is written: w must keep the old values
    np.testing.assert_array_equal(host(w), x0[::-1] * 3.0)
    np.testing.assert_array_equal(host(y), x0 + 1.0)

    # In place through a reversed view of itself: the eager path's copy-first rules.
    v = cp.asarray(x0, device=device)
    v += v[::-1]
    np.testing.assert_array_equal(host(v), x0 + x0[::-1])


def test_many_distinct_views_in_one_chain(fused, rng, device):
    # More distinct strided views than a GPU chain kernel takes at once (it then runs the
    # steps one by one): the values stay the eager ones.
    a0 = rng.standard_normal((50, 40))
    a = cp.asarray(a0, device=device)
    views = [a[::-1], a[:, ::-1], a[::-1, ::-1], a[:, None, 3].reshape(50, 1), a[None, 7]]
    views0 = [a0[::-1], a0[:, ::-1], a0[::-1, ::-1], a0[:, None, 3].reshape(50, 1), a0[None, 7]]
    acc = a * 1.0
    acc0 = a0 * 1.0
    for v, v0 in zip(views, views0):
        acc = acc * 0.5 + v
        acc0 = acc0 * 0.5 + v0
    assert pending() >= 6
    np.testing.assert_array_equal(host(acc), acc0)


def test_outer_product_feeds_an_outer_axis_sum(fused, rng, device):
    x0, y0 = rng.standard_normal(3000), rng.standard_normal(700)
    x, y = cp.asarray(x0, device=device), cp.asarray(y0, device=device)

    def f(x, y):
        return ((x[:, None] - y[None, :]) ** 2).sum(axis=0)

    got = f(x, y)
    assert pending() == 3
    np.testing.assert_array_equal(host(got), host(eager(f, x, y)))
    np.testing.assert_allclose(host(got), ((x0[:, None] - y0[None, :]) ** 2).sum(axis=0), rtol=1e-12)
