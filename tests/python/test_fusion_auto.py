"""Automatic fusion (copper/fusion.hpp): elementwise ops recorded and run later as one pass
must give exactly the eager results, whatever reads, views, aliasing and errors follow.
NumPy is the oracle; every test also checks that the ops really were deferred, so a test
cannot pass by fusion silently doing nothing. Every test runs on each device: the CPU runs
chains block by block, the GPU as one generated kernel per chain structure."""
import os

import numpy as np
import pytest

# New GPU chain kernels compile before their chain runs here, so every test checks the
# fused kernel itself (by default the first chains of a structure run op by op while it
# compiles in the background: test_new_chain_kernels_compile_in_the_background).
os.environ["COPPER_FUSION_COMPILE"] = "sync"

import copper as cp  # noqa: E402
from conftest import DEVICES  # noqa: E402
from fusion_support import eager, fused  # noqa: E402,F401


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


def test_results_no_one_holds_get_scratch_slots(fused, rng, device):
    # An intermediate that died before its chain ran gets a scratch slot (registers, never
    # written); one still held is written like any result.
    x0 = rng.standard_normal(1000)
    x = cp.asarray(x0, device=device)
    y = (x * 2) + 1
    np.testing.assert_array_equal(host(y), x0 * 2 + 1)
    assert cp._core._last_chain_scratch_slots() == 1
    t = x * 2
    y = t + 1
    np.testing.assert_array_equal(host(y), x0 * 2 + 1)
    assert cp._core._last_chain_scratch_slots() == 0
    np.testing.assert_array_equal(host(t), x0 * 2)


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


def test_where_and_casts_join_the_chain(fused, rng, device):
    d0 = rng.standard_normal(9000)
    d = cp.asarray(d0, device=device)

    def normal_cdf_like(xp, d):
        tail = xp.exp(-0.5 * d * d) * 0.4
        return xp.where(d > 0, 1 - tail, tail)    # the condition and both branches deferred

    cdf = normal_cdf_like(cp, d)
    picked = cp.where(d < -1, d, 7.5)             # a scalar branch
    as32 = (d * 3).astype(cp.float32) + 1         # a cast inside the chain
    ints = (d * 100).astype(cp.int16)             # float to int16, truncated as astype does
    dup = d.copy()
    d *= 2                                        # the copy must hold the old values
    assert cp._core._deferred_ops() >= 10
    np.testing.assert_array_equal(host(cdf), host(eager(normal_cdf_like, cp, cp.asarray(d0, device=device))))
    np.testing.assert_allclose(host(cdf), normal_cdf_like(np, d0), rtol=1e-15)  # exp to an ulp
    np.testing.assert_array_equal(host(picked), np.where(d0 < -1, d0, 7.5))
    np.testing.assert_array_equal(host(as32), (d0 * 3).astype(np.float32) + 1)
    np.testing.assert_array_equal(host(ints), (d0 * 100).astype(np.int16))
    np.testing.assert_array_equal(host(dup), d0)
    np.testing.assert_array_equal(host(d), d0 * 2)


def test_where_with_mixed_kinds_runs_eagerly_and_exactly(fused, rng, device):
    a0 = rng.integers(-100, 100, 3000).astype(np.int8)
    b0 = rng.standard_normal(3000).astype(np.float32)
    a, b = cp.asarray(a0, device=device), cp.asarray(b0, device=device)
    got = cp.where(b > 0, a, b)                   # int8 and float32 branches: a cast first
    wrapped = cp.where(b > 0, a, 500)             # the weak scalar wraps to int8, as NumPy
    np.testing.assert_array_equal(host(got), np.where(b0 > 0, a0, b0))
    np.testing.assert_array_equal(host(wrapped), np.where(b0 > 0, a0, np.int16(500).astype(np.int8)))


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


def test_results_get_memory_at_the_call_where_memory_is_short():
    """A deferred result gets memory when its chain runs, and only if someone holds it then;
    where the pool could not hold it beside the chain's other results it gets memory at the
    call instead, so running out raises there, as eagerly. Dead results that got memory so
    hold it until the chain runs: past COPPER_FUSION_MEMORY_MB of them (here 0) the chain
    runs before the next op joins."""
    if "cuda:0" not in DEVICES:
        pytest.skip("the memory limit is the GPU pool's")
    import subprocess
    import sys
    code = """
import numpy as np, copper as cp
MiB = 1 << 20
x0 = np.arange(MiB // 8, dtype=np.float64)
x = cp.asarray(x0, device="cuda:0")
cp.cuda.synchronize()
used = cp.cuda.memory_stats()["used"]
cp.cuda.set_memory_limit(used + MiB // 2)
try:
    x * 2.0
except cp.cuda.OutOfMemoryError as e:
    assert "bytes" in str(e)
else:
    raise AssertionError("no OutOfMemoryError at the call")
assert cp._core._deferred_ops() == 0
cp.cuda.set_memory_limit(used + 6 * MiB)
e = x0.copy()
most = 0
for k in range(20):
    x = x * 1.0001 + 1.0
    e = e * 1.0001 + 1.0
    most = max(most, cp._core._deferred_ops())
np.testing.assert_array_equal(x.get(), e)
assert 6 <= most < 40, most  # deferred while there was room, then cut short by the bound
cp.cuda.set_memory_limit(0)
"""
    env = dict(os.environ, COPPER_FUSION="1", COPPER_FUSION_MEMORY_MB="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


def test_dead_temporaries_get_no_memory(rng, device):
    """A 40-op formula of temporaries is one chain (no temporary's memory cuts it short), and
    on the GPU no memory is taken until it runs, then only its result's."""
    x0 = rng.standard_normal(1_000_000)
    x = cp.asarray(x0, device=device)
    cp.set_fusion(True)
    try:
        cp.synchronize(device)
        before = cp.cuda.memory_stats()["used"] if device != "cpu" else None
        y = x
        for k in range(20):
            y = y * 1.0001 + k
        assert cp._core._deferred_ops() == 40
        if before is not None:
            assert cp.cuda.memory_stats()["used"] == before
        e = x0
        for k in range(20):
            e = e * 1.0001 + k
        np.testing.assert_array_equal(host(y), e)
        assert cp._core._last_chain_scratch_slots() == 2  # 39 temporaries, two at a time
        if before is not None:  # the result's memory (and a few bytes of error flags)
            assert 0 <= cp.cuda.memory_stats()["used"] - before - x0.nbytes < 4096
    finally:
        cp.set_fusion(False)


def test_dead_temporaries_lend_their_memory_to_later_results(rng, device):
    """A 40-op formula of temporaries: fused, its peak device memory is that of a few
    arrays, as eager code's (whose pool reuses what each temporary frees)."""
    if device == "cpu":
        pytest.skip("memory statistics are the GPU pool's")
    x0 = rng.standard_normal(1_000_000)
    x = cp.asarray(x0, device=device)
    nbytes = x0.nbytes

    def formula(v):
        for k in range(20):
            v = v * 1.0001 + k
        return v

    cp.synchronize(device)
    peaks = {}
    for fusion in (False, True):
        cp.set_fusion(fusion)
        try:
            cp.cuda.reset_peak_memory()
            start = cp.cuda.memory_stats()["used"]
            y = formula(x)
            if fusion:
                assert cp._core._deferred_ops() == 40
            np.testing.assert_array_equal(host(y), formula(x0))
            peaks[fusion] = cp.cuda.memory_stats()["peak"] - start
            del y
        finally:
            cp.set_fusion(False)
    assert peaks[True] <= max(peaks[False], 4 * nbytes), peaks


@pytest.mark.parametrize("formula", ["kmeans", "norm", "where"])
def test_fused_formulas_peak_no_higher_than_eager(rng, device, formula):
    """The memory a formula adds at its peak, its result included: fused, its temporaries get
    no memory (the k-means distance's difference and square, 2.56 GB eagerly at 1e7 points,
    took 3.84 GB fused when results got memory at the call)."""
    if device == "cpu":
        pytest.skip("memory statistics are the GPU pool's")
    if formula == "kmeans":
        X = cp.asarray(rng.standard_normal((20_000, 2)), device=device)
        C = cp.asarray(rng.standard_normal((8, 2)), device=device)
        run = lambda: cp.sqrt(((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2))  # noqa: E731
    elif formula == "norm":
        X = cp.asarray(rng.standard_normal((300, 2000)), device=device)
        run = lambda: cp.sqrt(cp.sum(X ** 2, axis=-1))  # noqa: E731
    else:
        X = cp.asarray(rng.standard_normal(500_000), device=device)
        run = lambda: cp.where(X > 0, cp.exp(-X * X) * 2.0, X * 3.0 + 1.0)  # noqa: E731
    results, peaks = {}, {}
    for fusion in (False, True):
        cp.set_fusion(fusion)
        try:
            cp.synchronize(device)
            cp.cuda.reset_peak_memory()
            start = cp.cuda.memory_stats()["used"]
            results[fusion] = host(run())
            peaks[fusion] = cp.cuda.memory_stats()["peak"] - start
        finally:
            cp.set_fusion(False)
    np.testing.assert_array_equal(results[True], results[False])
    assert peaks[True] <= peaks[False], peaks


def test_new_chain_kernels_compile_in_the_background(tmp_path):
    if "cuda:0" not in DEVICES:
        pytest.skip("needs a GPU")
    import subprocess
    import sys
    code = """
import time, numpy as np, copper as cp
x0 = np.random.default_rng(5).standard_normal(10000)
x = cp.asarray(x0, device='cuda:0')
expected = (x0 * 1.5 + 2.0) * x0
cp.set_fusion(False)
np.testing.assert_array_equal(((x * 1.5 + 2.0) * x).get(), expected)  # the ops' own kernels
cp.set_fusion(True)
before = cp._core._kernel_compile_stats('cuda:0')['compiles']
for _ in range(1000):  # op by op until the chain's kernel is ready, then fused: the same values
    np.testing.assert_array_equal(((x * 1.5 + 2.0) * x).get(), expected)
    if cp._core._kernel_compile_stats('cuda:0')['compiles'] > before:
        break
    time.sleep(0.01)
assert cp._core._kernel_compile_stats('cuda:0')['compiles'] == before + 1
np.testing.assert_array_equal(((x * 1.5 + 2.0) * x).get(), expected)
# A fed reduction whose kernel is not ready runs its input through memory first, the
# temporaries it reads given memory only then: the eager sums.
cp.set_fusion(False)
sums = cp.sqrt(cp.sum((x * 3.0 - 1.0) * x)).get(), cp.sum(x * x, axis=0).get()
cp.set_fusion(True)
for _ in range(3):
    np.testing.assert_array_equal(cp.sqrt(cp.sum((x * 3.0 - 1.0) * x)).get(), sums[0])
    np.testing.assert_array_equal(cp.sum(x * x, axis=0).get(), sums[1])
"""
    env = dict(os.environ, COPPER_FUSION="1", COPPER_CACHE_DIR=str(tmp_path), COPPER_FUSION_COMPILE="background")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def test_chains_called_on_a_stream_meet_its_sync_points(fused, device):
    if device == "cpu":
        pytest.skip("streams are the GPU's")
    n = 1 << 20
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.arange(n, dtype=cp.float64, device=device)
        y = x * 2.0
        assert cp._core._deferred_ops() == 1
        done = cp.cuda.Event()
        done.record(s)                       # the chain is enqueued before the mark
        assert cp._core._deferred_ops() == 0
    done.synchronize()
    assert float(y[-1].item()) == 2.0 * (n - 1)
    with s:
        z = y + 1.0
    s.synchronize()                          # likewise before a stream's synchronization
    assert cp._core._deferred_ops() == 0
    with s:
        w = z * 3.0
    assert cp._core._deferred_ops() == 1
    # Read on the legacy stream without synchronizing s: the chain runs on s and the
    # reading stream waits for it.
    np.testing.assert_array_equal(host(w), (np.arange(n) * 2.0 + 1.0) * 3.0)


def test_memory_passed_on_many_times_stays_one_owner_deep(device):
    """Results given dead temporaries' memory keep its owner alive, never the dead buffer:
    loops that discard their results pass memory on without end, and chains of holders
    overflowed the stack when the last one went (this program crashed that way)."""
    import subprocess
    import sys
    code = f"""
import timeit, numpy as np, copper as cp
x = cp.asarray(np.arange(10.0), device="{device}")
y = x + 1
cp.set_fusion(True)
timeit.repeat(lambda: x + y, number=20000, repeat=5)
def step():
    z = x + y
    z *= 2
    return z
timeit.repeat(step, number=20000, repeat=5)
for _ in range(100):
    np.testing.assert_array_equal((x + y).get(), np.arange(10.0) * 2 + 1)
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", (out.returncode, out.stderr[-2000:])
