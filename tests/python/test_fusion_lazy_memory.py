"""Deferred results without memory (fusion_deferred.cpp, "Memory" in docs/architecture.md):
a new result of a deferred op has a placeholder address until its chain runs, and gets
memory then only if someone still holds it. Every way of reaching its memory (views,
exports, pointers, other ops, out=, host copies, printing) must see the chain's values,
never the placeholder; results dropped before the run must cost nothing. Each test runs
on each device and checks that the ops really were deferred."""
import numpy as np
import pytest

import copper as cp
from fusion_support import fused, pending  # noqa: F401


def host(a):
    return a.get()


@pytest.fixture
def data(rng, device):
    x0 = rng.standard_normal((64, 48))
    return x0, cp.asarray(x0, device=device)


def test_views_of_a_deferred_result_read_its_values(fused, data):
    x0, x = data
    y = x * 2.0 + 1.0
    views = [y[::-1], y.T, y[3:40:3, ::-2], y.reshape(48, 64), y[5], y[None, :, 7]]
    expected = x0 * 2.0 + 1.0
    assert pending() == 2
    for v, e in zip(views, [expected[::-1], expected.T, expected[3:40:3, ::-2], expected.reshape(48, 64),
                            expected[5], expected[None, :, 7]]):
        np.testing.assert_array_equal(host(v), e)
    assert pending() == 0


def test_pointers_and_exports_of_a_deferred_result(fused, data, device):
    x0, x = data
    y = x * 3.0
    assert pending() == 1
    ptr = y.data.ptr                  # the memory pointer settles it: the chain runs
    assert pending() == 0 and ptr != 0
    assert y.data.ptr == ptr and y.data_ptr == ptr
    z = x - 1.0
    if device == "cpu":
        np.testing.assert_array_equal(np.from_dlpack(z), x0 - 1.0)
    else:
        assert z.__cuda_array_interface__["data"][0] != 0
        np.testing.assert_array_equal(host(z), x0 - 1.0)
    np.testing.assert_array_equal(host(y), x0 * 3.0)


def test_host_copies_and_printing_of_deferred_results(fused, data):
    x0, x = data
    y = x[:2, :3] * 0.5
    assert pending() == 1
    assert repr(y) == repr(cp.asarray(x0[:2, :3] * 0.5, device=x.device)) and pending() == 0
    z = x * 0.25
    np.testing.assert_array_equal(np.asarray(z.get()), x0 * 0.25)
    assert float((x[0, 0] + 1.0).item()) == x0[0, 0] + 1.0


def test_deferred_results_reach_ops_that_cannot_be_deferred(fused, data):
    x0, x = data
    y = cp.abs(x) + 1.0
    s = cp.sort(y, axis=1)            # a sort reads y's memory: the chain runs first
    np.testing.assert_array_equal(host(s), np.sort(np.abs(x0) + 1.0, axis=1))
    m = (x * 2.0) @ (x.T * 0.5)
    np.testing.assert_allclose(host(m), (x0 * 2.0) @ (x0.T * 0.5), rtol=1e-12)
    c = cp.cumsum(x * x, axis=0)
    np.testing.assert_allclose(host(c), np.cumsum(x0 * x0, axis=0), rtol=1e-12)


def test_a_deferred_result_as_out_of_later_ops(fused, data):
    x0, x = data
    y = x * 2.0
    cp.add(y, 1.0, out=y)             # joins the chain, in place
    cp.multiply(x, y, out=y)
    assert pending() == 3
    np.testing.assert_array_equal(host(y), x0 * (x0 * 2.0 + 1.0))
    t = x + 0.0
    r = cp.empty((64,), dtype=cp.float64, device=x.device)
    cp.sum(t * t, axis=1, out=r)
    np.testing.assert_array_equal(host(r), host(cp.sum(cp.asarray(x0 * x0, device=x.device), axis=1)))
    u = x * 1.0
    cp.sum(x, axis=1, out=u[:, 0])    # a reduction into a column of a deferred result
    e = x0 * 1.0
    e[:, 0] = np.sum(x0, axis=1)
    np.testing.assert_allclose(host(u), e, rtol=1e-13)


def test_results_dropped_before_the_run_cost_nothing(fused, data, device):
    x0, x = data
    for k in range(30):
        (x * float(k) + 1.0) * 2.0    # nothing holds these results
    assert pending() > 0
    cp.run_deferred()
    assert pending() == 0
    if device != "cpu":
        cp.synchronize(device)
        before = cp.cuda.memory_stats()["used"]
        # 30 steps, under a chain's bound of 64: at the bound the chain runs, and the result
        # of the op being recorded then is held (by the call returning it, then as the next
        # chain's input) and gets memory until that chain runs (seen on an H200 with 90 steps).
        for k in range(10):
            (x * float(k) + 1.0) * 2.0
        assert cp.cuda.memory_stats()["used"] == before
        cp.run_deferred()
        assert cp.cuda.memory_stats()["used"] == before


def test_a_long_loop_of_deferred_results_keeps_values(fused, rng, device):
    # Placeholders are recycled address ranges: many chains' worth of results, each read.
    x0 = rng.standard_normal(1000)
    x = cp.asarray(x0, device=device)
    e = x0.copy()
    acc = x
    for k in range(300):
        acc = acc * 0.999 + x
        e = e * 0.999 + x0
        if k % 37 == 0:
            np.testing.assert_array_equal(host(acc), e)
    np.testing.assert_array_equal(host(acc), e)


def test_same_values_with_fusion_off(rng, device):
    x0 = rng.standard_normal((16, 16))
    x = cp.asarray(x0, device=device)
    was = cp.fusion_enabled()
    try:
        got = {}
        for on in (False, True):
            cp.set_fusion(on)
            y = x * 2.0 - 3.0
            v = y.T[::2]
            got[on] = (host(v), host(y))
        for a, b in zip(got[False], got[True]):
            np.testing.assert_array_equal(a, b)
    finally:
        cp.set_fusion(was)
