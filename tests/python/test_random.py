"""copper.random: reproducibility (across runs and devices), shapes, dtypes, out=, NumPy's
errors, and statistical tests of every distribution (moments plus Kolmogorov-Smirnov
against the exact CDF, or chi-square against the exact pmf). Seeds are fixed, so every
test is deterministic; thresholds are at p ~ 1e-3 so a wrong distribution fails at the
sample sizes used (n = 20000 moves a KS statistic by ~0.007 per 1% of CDF error)."""
import math

import numpy as np
import pytest

import copper as cp
from conftest import DEVICES

N = 20000
KS_LIMIT = 1.95  # sqrt(n) * D above this: p < 0.001


def on_cpu(fn):
    """fn() evaluated with the CPU as default device, as NumPy."""
    previous = cp.get_default_device()
    cp.set_default_device("cpu")
    try:
        return fn().get()
    finally:
        cp.set_default_device(previous)


def ks_statistic(sample, cdf):
    x = np.sort(np.asarray(sample, dtype=np.float64))
    f = cdf(x)
    n = len(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n)) * math.sqrt(n)


def assert_ks(sample, cdf):
    assert ks_statistic(sample, cdf) < KS_LIMIT


def chi2_limit(df):
    """The chi-square quantile at p = 0.999 (Wilson-Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_chi2(sample, pmf, support):
    """Chi-square over `support` (values outside pooled into one bin) against pmf."""
    sample = np.asarray(sample)
    n = len(sample)
    observed, expected = [], []
    for k in support:
        observed.append(np.count_nonzero(sample == k))
        expected.append(n * pmf(k))
    observed.append(n - sum(observed))
    expected.append(max(n - sum(expected), 1e-9))
    observed, expected = np.array(observed, float), np.array(expected)
    keep = expected >= 5  # pool the rest into the last bin
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 1e-6:
        obs, exp = obs[:-1], exp[:-1]
    stat = np.sum((obs - exp) ** 2 / exp)
    assert stat < chi2_limit(len(obs) - 1), (stat, obs, exp)


def assert_moments(sample, mean, var):
    x = np.asarray(sample, dtype=np.float64)
    n = len(x)
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / n)
    assert abs(x.var() - var) < 0.05 * var + 1e-12  # 5%: ~4 standard errors at n = 20000


erf = np.vectorize(math.erf)


def normal_cdf(x, loc=0.0, scale=1.0):
    return 0.5 * (1 + erf((x - loc) / (scale * math.sqrt(2))))


# ---------------- reproducibility ----------------

def test_pinned_values_across_runs(device):
    g = cp.random.default_rng(42)
    assert g.random_raw(3).get().tolist() == [4829743860107682948, 9988451282433966157, 2027842558886176090]
    assert g.random(3).get().tolist() == [0.26848057116487434, 0.4406353072544038, 0.9996891959586827]
    assert g.integers(0, 100, size=6).get().tolist() == [21, 47, 20, 78, 34, 23]


DRAWS = {
    "raw": lambda g: g.random_raw((37, 3)),
    "random64": lambda g: g.random((5, 41)),
    "random32": lambda g: g.random(203, dtype=np.float32),
    "uniform": lambda g: g.uniform(-3.5, 7.25, size=101),
    "int64": lambda g: g.integers(-1000, 1000, size=99),
    "int8": lambda g: g.integers(-128, 127, size=77, dtype=np.int8, endpoint=True),
    "uint64_full": lambda g: g.integers(0, 2**64, size=33, dtype=np.uint64),
    "int64_wide": lambda g: g.integers(-2**62, 2**62, size=33),
    "bool": lambda g: g.integers(0, 2, size=50, dtype=np.bool_),
    "choice": lambda g: g.choice(10, size=(4, 5)),
    "choice_p": lambda g: g.choice(4, size=30, p=[0.1, 0.2, 0.3, 0.4]),
    "choice_noreplace": lambda g: g.choice(50, size=20, replace=False),
    "permutation": lambda g: g.permutation(40),
    "binomial": lambda g: g.binomial(1000, 0.3, size=51),
    "binomial_array": lambda g: g.binomial(np.array([[5], [80], [3000]]), np.array([0.2, 0.7]), size=(4, 3, 2)),
    "poisson_array": lambda g: g.poisson(np.array([0.5, 7.0, 40.0, 1e6]), size=(9, 4)),
    "int_array": lambda g: g.integers(np.array([-5, 0, 2**40]), np.array([[2**40 + 7], [2**41]]), dtype=np.int64),
    "uint8_array": lambda g: g.integers(np.array([0, 10]), 256, size=(5, 2), dtype=np.uint8),
    "uniform_array": lambda g: g.uniform(np.array([0.0, -1.0, 0.5]), np.array([[1.0], [2.0]])),
    "choice_rows": lambda g: g.choice(np.arange(30).reshape(10, 3)[::2], size=(2, 3)),
    "permutation_strided": lambda g: g.permutation(np.arange(60.0).reshape(6, 10)[:, ::3]),
    "poisson": lambda g: g.poisson(30.0, size=51),
    # float32 normals use only +, *, fma, sqrt and bit operations (the log and sin/cos are
    # polynomials of ops/philox.h; the GPU's sqrt is a refined hardware root that rounds
    # correctly in the range used): the same bits on every device. The large draw covers
    # every octant and exponent of the radius many times over.
    "normal32": lambda g: g.standard_normal(1003, dtype=np.float32),
    "normal32_large": lambda g: g.standard_normal((2, 300_007), dtype=np.float32),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_bit_identical_to_cpu(device, name):
    """Raw bits, uniforms, integers and the host-sampled distributions are identical on
    every device (several draws, so the counter's advance is checked too)."""
    want = on_cpu(lambda: cp.stack([cp.asarray(DRAWS[name](g)) for g in [cp.random.default_rng(11)] for _ in range(2)]))
    g = cp.random.default_rng(11)
    got = np.stack([DRAWS[name](g).get() for _ in range(2)])
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(got, want)


CLOSE_DRAWS = {
    "normal": lambda g: g.normal(1.0, 2.0, size=1001),
    "standard_normal": lambda g: g.standard_normal(1003),
    "exponential": lambda g: g.exponential(3.0, size=1001),
    "normal_array": lambda g: g.normal(np.array([[-1.0], [0.0], [3.0]]), np.array([0.5, 2.0]), size=(50, 3, 2)),
    "exponential_array": lambda g: g.exponential(np.array([0.1, 1.0, 30.0]), size=(99, 3)),
}
# Gamma and beta work in logs: exp(y) carries y's last-bit differences (|y| up to ~700 for
# tiny shapes) into relative errors near |y| * eps; 1e-11 still fails any wrong sample.
SAMPLER_DRAWS = {
    "gamma": lambda g: g.gamma(2.5, 2.0, size=501),
    "gamma_small": lambda g: g.gamma(0.05, size=501),
    "standard_gamma32": lambda g: g.standard_gamma(0.7, size=501, dtype=np.float32),
    "gamma_array": lambda g: g.gamma(np.array([0.3, 1.0, 9.0, 200.0]), np.array([[1.0], [0.5]]), size=(60, 2, 4)),
    "beta": lambda g: g.beta(0.5, 3.0, size=501),
    "beta_array": lambda g: g.beta(np.array([0.02, 1.0, 40.0]), np.array([[0.5], [7.0]])),
}


@pytest.mark.parametrize("name", sorted(CLOSE_DRAWS))
def test_transcendental_close_to_cpu(device, name):
    """float64 normal and exponential call log: CUDA's and the host libm's may differ in the
    last bit, which moves a normal (sqrt(-2 log u) times a bit-identical sine) by under an
    ulp and an exponential by one; 8 ulp leaves room and still fails any wrong value."""
    fn = CLOSE_DRAWS[name]
    want = on_cpu(lambda: fn(cp.random.default_rng(5)))
    got = fn(cp.random.default_rng(5)).get()
    eps = np.finfo(got.dtype).eps
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=8 * eps, atol=8 * eps * np.abs(want).max())


@pytest.mark.parametrize("name", sorted(SAMPLER_DRAWS))
def test_samplers_close_to_cpu(device, name):
    fn = SAMPLER_DRAWS[name]
    want = on_cpu(lambda: fn(cp.random.default_rng(6)))
    got = fn(cp.random.default_rng(6)).get()
    assert got.shape == want.shape and got.dtype == want.dtype
    rtol = 1e-11 if got.dtype == np.float64 else 4 * np.finfo(np.float32).eps
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300)


GPU = [d for d in DEVICES if d.startswith("cuda")]


@pytest.mark.skipif(not GPU, reason="needs a GPU: compares the CUDA kernels with the CPU backend")
@pytest.mark.parametrize("name", sorted(DRAWS) + sorted(CLOSE_DRAWS) + sorted(SAMPLER_DRAWS))
def test_gpu_matches_cpu(name):
    """Every distribution drawn on the GPU against the CPU backend with the same seed."""
    fn = {**DRAWS, **CLOSE_DRAWS, **SAMPLER_DRAWS}[name]
    want = on_cpu(lambda: fn(cp.random.default_rng(21)))
    previous = cp.get_default_device()
    cp.set_default_device(GPU[0])
    try:
        result = fn(cp.random.default_rng(21))
        assert str(result.device) == GPU[0]
        got = result.get()
    finally:
        cp.set_default_device(previous)
    assert got.shape == want.shape and got.dtype == want.dtype
    if name in DRAWS:
        np.testing.assert_array_equal(got, want)
    else:
        eps = np.finfo(got.dtype).eps
        rtol = 1e-11 if name in SAMPLER_DRAWS and got.dtype == np.float64 else 8 * eps
        np.testing.assert_allclose(got, want, rtol=rtol, atol=8 * eps * max(np.abs(want).max(), 1e-300))


def test_seeds_and_streams_differ():
    a = cp.random.default_rng(1).random(100).get()
    assert not np.array_equal(a, cp.random.default_rng(2).random(100).get())
    g = cp.random.default_rng(1)
    assert np.array_equal(g.random(100).get(), a)
    assert not np.array_equal(g.random(100).get(), a)
    assert cp.random.default_rng(2**70).random(3).shape == (3,)
    assert cp.random.default_rng(None).random(3).shape == (3,)


def test_legacy_module(device):
    cp.random.seed(3)
    a = cp.random.rand(2, 3)
    assert a.shape == (2, 3) and a.dtype == np.float64 and str(a.device) == device
    np.testing.assert_array_equal(a.get(), cp.random.default_rng(3).random((2, 3)).get())
    assert cp.random.randn(4).shape == (4,)
    r = cp.random.randint(5, size=100).get()
    assert r.dtype == np.int64 and r.min() >= 0 and r.max() < 5
    r = cp.random.randint(-3, 3, size=(10, 10), dtype=np.int16).get()
    assert r.dtype == np.int16 and r.min() >= -3 and r.max() < 3
    for fn in (cp.random.random_sample, cp.random.random):
        assert fn((3, 2)).shape == (3, 2)
    u = cp.random.uniform(2, 5, size=1000).get()
    assert u.min() >= 2 and u.max() < 5
    assert cp.random.normal(1, 2, size=7).shape == (7,)
    rs = cp.random.RandomState(3)
    np.testing.assert_array_equal(rs.rand(2, 3).get(), a.get())
    assert rs.randn(2, 2).shape == (2, 2)
    assert cp.random.rand().shape == ()


# ---------------- shapes, dtypes, out ----------------

def test_shapes_dtypes_out(device):
    g = cp.random.default_rng(0)
    assert g.random().shape == ()
    assert g.random(0).shape == (0,)
    assert g.random((2, 0, 3)).shape == (2, 0, 3)
    assert g.random(np.int64(4)).shape == (4,)
    assert g.random(5, dtype=np.float32).dtype == np.float32
    assert g.standard_normal((2, 2), dtype="float32").dtype == np.float32
    for t in [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_]:
        x = g.integers(0, 2, size=10, dtype=t)
        assert x.dtype == t and x.shape == (10,)
    out = cp.empty((3, 4))
    r = g.random(out=out)
    assert r.shape == (3, 4)
    assert np.all((out.get() >= 0) & (out.get() < 1)) and np.unique(out.get()).size == 12
    out32 = cp.empty(5, dtype=np.float32)
    g.standard_normal(size=5, dtype=np.float32, out=out32)
    assert np.all(out32.get() != 0)
    x = g.integers(5, size=(2, 3))
    assert x.dtype == np.int64 and x.get().max() < 5
    assert g.choice(np.array([[1, 2], [3, 4]]), 3).shape == (3, 2)


ERRORS = [
    (lambda g: g.random(dtype=np.int32), TypeError, r"Unsupported dtype dtype\('int32'\) for random"),
    (lambda g: g.standard_normal(dtype=np.float16), TypeError, r"Unsupported dtype dtype\('float16'\) for standard_normal"),
    (lambda g: g.random(size=-1), ValueError, "negative dimensions are not allowed"),
    (lambda g: g.integers(5, 2), ValueError, "low >= high"),
    (lambda g: g.integers(5, 4, endpoint=True), ValueError, "low > high"),
    (lambda g: g.integers(0, 300, dtype=np.uint8), ValueError, "high is out of bounds for uint8"),
    (lambda g: g.integers(-1, 3, dtype=np.uint8), ValueError, "low is out of bounds for uint8"),
    (lambda g: g.integers(0, 2**64, dtype=np.int64), ValueError, "high is out of bounds for int64"),
    (lambda g: g.integers(0, 3, dtype=np.float64), TypeError, r"Unsupported dtype dtype\('float64'\) for integers"),
    (lambda g: g.uniform(2, 1, size=3), ValueError, "high - low < 0"),
    (lambda g: g.uniform(0, float("inf")), OverflowError, "high - low range exceeds valid bounds"),
    (lambda g: g.normal(0, -1), ValueError, "scale < 0"),
    (lambda g: g.exponential(-1), ValueError, "scale < 0"),
    (lambda g: g.gamma(-1), ValueError, "shape < 0"),
    (lambda g: g.gamma(1, -1), ValueError, "scale < 0"),
    (lambda g: g.standard_gamma(1, dtype=np.int32), TypeError, r"Unsupported dtype dtype\('int32'\) for standard_gamma"),
    (lambda g: g.beta(0, 1), ValueError, "a <= 0"),
    (lambda g: g.beta(1, 0), ValueError, "b <= 0"),
    (lambda g: g.binomial(-1, 0.5), ValueError, "n < 0"),
    (lambda g: g.binomial(1, 1.5), ValueError, r"p < 0, p > 1 or p is NaN"),
    (lambda g: g.binomial(1, float("nan")), ValueError, r"p < 0, p > 1 or p is NaN"),
    (lambda g: g.poisson(-1), ValueError, "lam < 0 or lam is NaN"),
    (lambda g: g.poisson(1e20), ValueError, "lam value too large"),
    (lambda g: g.choice(0, 3), ValueError, "a must be a positive integer unless no samples are taken"),
    (lambda g: g.choice(5, 6, replace=False), ValueError, "Cannot take a larger sample than population"),
    (lambda g: g.choice(3, p=[0.5, 0.6, 0.1]), ValueError, "Probabilities do not sum to 1"),
    (lambda g: g.choice(3, p=[-0.5, 1.4, 0.1]), ValueError, "Probabilities are not non-negative"),
    (lambda g: g.choice(3, p=[0.5, 0.5]), ValueError, "a and p must have same size"),
    (lambda g: g.choice(5, 3, p=[0, 0, 1, 0, 0], replace=False), ValueError, "Fewer non-zero entries in p than size"),
    (lambda g: g.random(size=(2, 3), out=cp.empty((3, 2))), ValueError, "size must match out.shape when used together"),
    (lambda g: g.random(out=cp.empty(3, dtype=np.float32)), TypeError,
     "Supplied output array has the wrong type. Expected float64, got float32"),
    (lambda g: g.random(out=cp.empty((3, 4))[:, ::2]), ValueError, "Supplied output array must be contiguous"),
    (lambda g: g.permutation(cp.zeros(())), np.exceptions.AxisError, "axis 0 is out of bounds for array of dimension 0"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_match_numpy(device, case):
    fn, exc, msg = ERRORS[case]
    with pytest.raises(exc, match=msg):
        fn(cp.random.default_rng(0))
    with pytest.raises(exc, match=msg):  # NumPy agrees (numpy arrays for out=)
        np_fn = fn
        try:
            np_fn(_NumpyView(np.random.default_rng(0)))
        except AttributeError:
            raise exc(msg)


class _NumpyView:
    """A NumPy generator whose out= arrays come from copper shapes: checks the oracle."""

    def __init__(self, g):
        self._g = g

    def __getattr__(self, name):
        attr = getattr(self._g, name)

        def call(*args, **kwargs):
            if "out" in kwargs and isinstance(kwargs["out"], cp.ndarray):
                o = kwargs["out"]
                kwargs["out"] = np.empty((3, 4))[:, ::2] if not o.flags.c_contiguous else np.empty(o.shape, o.dtype)
            args = [a.get() if isinstance(a, cp.ndarray) else a for a in args]
            return attr(*args, **kwargs)
        return call


def test_seed_errors():
    with pytest.raises(ValueError, match="expected non-negative integer"):
        cp.random.default_rng(-1)
    with pytest.raises(ValueError, match=r"Seed must be between 0 and 2\*\*32 - 1"):
        cp.random.seed(-1)
    with pytest.raises(ValueError, match=r"Seed must be between 0 and 2\*\*32 - 1"):
        cp.random.RandomState(2**32)
    with pytest.raises(ValueError, match="low >= high"):
        cp.random.randint(5, 2)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        cp.random.rand(2, -1)


# ---------------- statistics: continuous (KS + moments) ----------------

def test_random_uniform_stats(device):
    g = cp.random.default_rng(100)
    for dtype in (np.float64, np.float32):
        x = g.random(N, dtype=dtype).get()
        assert x.min() >= 0 and x.max() < 1
        assert_ks(x, lambda t: t)
        assert_moments(x, 0.5, 1 / 12)
    x = g.uniform(-2, 3, size=N).get()
    assert_ks(x, lambda t: (t + 2) / 5)
    assert_moments(x, 0.5, 25 / 12)
    # Low bits are random too: the 53-bit mantissa's last bit is 0/1 equally often.
    bits = (g.random(N).get() * 2**53).astype(np.int64) & 1
    assert abs(bits.mean() - 0.5) < 5 * math.sqrt(0.25 / N)


def test_normal_stats(device):
    g = cp.random.default_rng(101)
    x = g.standard_normal(N).get()
    assert_ks(x, normal_cdf)
    assert_moments(x, 0, 1)
    x = g.standard_normal(N, dtype=np.float32).get()
    assert_ks(x, normal_cdf)
    x = g.normal(3, 2, size=N).get()
    assert_ks(x, lambda t: normal_cdf(t, 3, 2))
    assert_moments(x, 3, 4)
    # Pairs from one Box-Muller draw are uncorrelated.
    x = g.standard_normal(2 * N).get()
    assert abs(np.corrcoef(x[0::2], x[1::2])[0, 1]) < 5 / math.sqrt(N)


def test_exponential_stats(device):
    g = cp.random.default_rng(102)
    x = g.exponential(2.0, size=N).get()
    assert x.min() > 0
    assert_ks(x, lambda t: 1 - np.exp(-t / 2))
    assert_moments(x, 2, 4)
    x = g.standard_exponential(N, dtype=np.float32).get()
    assert_ks(x, lambda t: 1 - np.exp(-t))


def test_gamma_stats(device):
    g = cp.random.default_rng(103)
    x = g.gamma(0.5, size=N).get()  # Gamma(1/2) CDF: erf(sqrt(x))
    assert_ks(x, lambda t: erf(np.sqrt(t)))
    assert_moments(x, 0.5, 0.5)
    x = g.gamma(3.0, 2.0, size=N).get()  # integer shape: Erlang CDF
    y_cdf = lambda t: 1 - np.exp(-t / 2) * (1 + t / 2 + (t / 2) ** 2 / 2)  # noqa: E731
    assert_ks(x, y_cdf)
    assert_moments(x, 6, 12)
    x = g.gamma(0.1, size=N).get()
    assert_moments(x, 0.1, 0.1)
    x = g.standard_gamma(50.0, size=N).get()
    assert_moments(x, 50, 50)


def test_beta_stats(device):
    g = cp.random.default_rng(104)
    x = g.beta(2, 3, size=N).get()
    cdf = lambda t: sum(math.comb(4, j) * t**j * (1 - t) ** (4 - j) for j in range(2, 5))  # noqa: E731
    assert_ks(x, cdf)
    assert_moments(x, 0.4, 0.04)
    x = g.beta(0.5, 0.5, size=N).get()  # arcsine law
    assert_ks(x, lambda t: 2 / math.pi * np.arcsin(np.sqrt(t)))
    x = g.beta(0.01, 0.02, size=N).get()  # tiny shapes: still in [0, 1], never NaN
    assert np.all((x >= 0) & (x <= 1))
    assert_moments(x, 1 / 3, (0.01 * 0.02) / (0.03**2 * 1.03))


# ---------------- statistics: discrete (chi-square + moments) ----------------

def binom_pmf(n, p):
    return lambda k: math.comb(n, k) * p**k * (1 - p) ** (n - k) if 0 <= k <= n else 0.0


def poisson_pmf(lam):
    return lambda k: math.exp(-lam + k * math.log(lam) - math.lgamma(k + 1))


def test_integers_stats(device):
    g = cp.random.default_rng(105)
    x = g.integers(0, 7, size=N).get()
    assert_chi2(x, lambda k: 1 / 7, range(7))
    x = g.integers(-3, 3, size=N, dtype=np.int8, endpoint=True).get()
    assert_chi2(x, lambda k: 1 / 7, range(-3, 4))
    x = g.integers(0, 2**40, size=N).get()  # 128-bit path
    assert_ks(x / 2**40, lambda t: t)
    x = g.integers(0, 2**64, size=N, dtype=np.uint64).get()  # the whole range
    assert_ks(x.astype(np.float64) / 2**64, lambda t: t)


def test_binomial_stats(device):
    g = cp.random.default_rng(106)
    for n, p in [(20, 0.3), (10, 0.9), (1000, 0.4), (200, 0.02)]:
        x = g.binomial(n, p, size=N).get()
        assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= n
        assert_chi2(x, binom_pmf(n, p), range(n + 1))
        assert_moments(x, n * p, n * p * (1 - p))
    x = g.binomial(10**9, 0.25, size=N).get()
    assert_moments(x, 2.5e8, 10**9 * 0.25 * 0.75)
    assert np.all(g.binomial(7, 0.0, size=5).get() == 0)
    assert np.all(g.binomial(7, 1.0, size=5).get() == 7)


def test_poisson_stats(device):
    g = cp.random.default_rng(107)
    for lam in (0.5, 3.5, 15.0, 80.0):
        x = g.poisson(lam, size=N).get()
        assert_chi2(x, poisson_pmf(lam), range(int(lam + 10 * math.sqrt(lam)) + 10))
        assert_moments(x, lam, lam)
    x = g.poisson(1e12, size=N).get()
    assert_moments(x, 1e12, 1e12)
    assert np.all(g.poisson(0.0, size=5).get() == 0)


def test_choice_stats(device):
    g = cp.random.default_rng(108)
    p = [0.1, 0.2, 0.3, 0.4]
    assert_chi2(g.choice(4, size=N, p=p).get(), lambda k: p[k], range(4))
    assert_chi2(g.choice(6, size=N).get(), lambda k: 1 / 6, range(6))
    # Without replacement: distinct, and every element equally likely to be chosen.
    picks = np.concatenate([g.choice(10, size=3, replace=False).get() for _ in range(2000)])
    assert all(len(set(picks[i:i + 3])) == 3 for i in range(0, len(picks), 3))
    assert_chi2(picks, lambda k: 0.1, range(10))
    # Weighted without replacement: zero weights never appear.
    w = g.choice(5, size=3, replace=False, p=[0.5, 0, 0.2, 0.3, 0]).get()
    assert sorted(w.tolist()) == [0, 2, 3]
    a = cp.asarray(np.array([10.0, 20.0, 30.0]))
    assert set(g.choice(a, 50).get().tolist()) <= {10.0, 20.0, 30.0}


def test_permutation_and_shuffle_stats(device):
    g = cp.random.default_rng(109)
    # All 24 orders of 4 items equally likely.
    codes = [int("".join(map(str, g.permutation(4).get()))) for _ in range(2400)]
    orders = sorted(set(codes))
    assert len(orders) == 24
    assert_chi2(np.array(codes), lambda k: 1 / 24, orders)
    x = np.arange(12.0).reshape(6, 2)
    p = g.permutation(x).get()
    assert sorted(map(tuple, p)) == sorted(map(tuple, x)) and p.shape == (6, 2)
    c = cp.asarray(x)
    g.shuffle(c)
    assert sorted(map(tuple, c.get())) == sorted(map(tuple, x))
    assert g.permutation(-1).shape == (0,)


# ---------------- array-valued parameters ----------------

BROADCAST_CASES = [
    ("normal", (np.zeros((2, 1)), np.ones(3)), None),
    ("normal", (np.zeros(3), 2.0), (4, 3)),
    ("normal", (np.zeros((2, 3)), 1.0), (5, 2, 3)),
    ("uniform", (np.array([0.0, 1.0]), np.array([[2.0], [3.0], [4.0]])), None),
    ("exponential", (np.array([[1.0, 2.0]]),), (3, 2)),
    ("gamma", (np.array([0.5, 2.0, 7.0]), np.array([[1.0], [3.0]])), None),
    ("standard_gamma", (np.array([0.5, 2.0]),), (3, 2)),
    ("beta", (np.array([0.5, 2.0]), 3.0), None),
    ("binomial", (np.array([3, 30, 300]), np.array([[0.1], [0.9]])), (2, 2, 3)),
    ("poisson", (np.array([[1.0], [20.0]]),), (2, 4)),
    ("integers", (np.array([0, 5]), np.array([[10], [20], [30]])), None),
    ("integers", (np.array([3, 9]),), (4, 2)),
    ("normal", (np.zeros((0, 3)), 1.0), None),
    ("normal", (np.zeros(()), 1.0), None),
]


@pytest.mark.parametrize("case", range(len(BROADCAST_CASES)))
def test_array_params_broadcast_like_numpy(device, case):
    name, args, size = BROADCAST_CASES[case]
    want = getattr(np.random.default_rng(0), name)(*args, size=size)
    cargs = [cp.asarray(a) if isinstance(a, np.ndarray) and i % 2 == 0 else a for i, a in enumerate(args)]
    got = getattr(cp.random.default_rng(0), name)(*cargs, size=size)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    assert str(got.device) == device


def test_array_params_equal_scalar_params(device):
    """Equal parameters give equal values whether passed as numbers or as arrays."""
    for name, scalars, arrays in [
        ("normal", (1.5, 2.0), (np.full(37, 1.5), 2.0)),
        ("uniform", (-1.0, 4.0), (-1.0, np.full(37, 4.0))),
        ("exponential", (3.0,), (np.full(37, 3.0),)),
        ("gamma", (0.8, 2.0), (np.full(37, 0.8), np.full(37, 2.0))),
        ("binomial", (50, 0.3), (np.full(37, 50), 0.3)),
        ("poisson", (12.0,), (np.full(37, 12.0),)),
        ("integers", (-7, 2**35), (np.full(37, -7), 2**35)),
        ("integers", (0, 100), (0, np.full(37, 100))),
    ]:
        a = getattr(cp.random.default_rng(8), name)(*scalars, size=37).get()
        b = getattr(cp.random.default_rng(8), name)(*arrays).get()
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_array_params_from_every_source(device):
    """Parameters as lists, NumPy arrays and copper arrays on either device agree."""
    loc = [0.0, 10.0, 20.0]
    want = cp.random.default_rng(4).normal(np.array(loc), 1.0).get()
    for form in (loc, tuple(loc), cp.asarray(np.array(loc)), on_cpu_array(np.array(loc))):
        np.testing.assert_array_equal(cp.random.default_rng(4).normal(form, 1.0).get(), want)
    strided = cp.asarray(np.array([0.0, -1, 10, -1, 20, -1]))[::2]  # a non-contiguous parameter
    np.testing.assert_array_equal(cp.random.default_rng(4).normal(strided, 1.0).get(), want)


def on_cpu_array(x):
    previous = cp.get_default_device()
    cp.set_default_device("cpu")
    try:
        return cp.asarray(x)
    finally:
        cp.set_default_device(previous)


ARRAY_ERRORS = [
    (lambda g: g.normal(np.zeros(3), 1, size=(2,)), ValueError,
     r"shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape \(2,\) "
     r"and arg 1 with shape \(3,\)."),
    (lambda g: g.normal(np.zeros((2, 1)), np.ones(4), size=(2, 3)), ValueError,
     r"Mismatch is between arg 0 with shape \(2, 3\) and arg 2 with shape \(4,\)"),
    (lambda g: g.normal(np.zeros((2, 3)), 1, size=(3,)), ValueError,
     r"Output size \(3,\) is not compatible with broadcast dimensions of inputs \(2, 3\)."),
    (lambda g: g.normal(np.zeros(3), np.ones(4)), ValueError, "Mismatch is between arg 0 with shape"),
    (lambda g: g.normal(0, np.array([1, -0.0])), ValueError, "scale < 0"),
    (lambda g: g.normal(np.zeros(3), np.array([1, -1, 1])), ValueError, "scale < 0"),
    (lambda g: g.normal(np.zeros((0, 3)), -1), ValueError, "scale < 0"),
    (lambda g: g.exponential(np.array([1, -1])), ValueError, "scale < 0"),
    (lambda g: g.uniform(np.zeros(3), np.array([1, np.inf, 1])), OverflowError, "Range exceeds valid bounds"),
    (lambda g: g.uniform([0.0], [np.nan]), OverflowError, "Range exceeds valid bounds"),
    (lambda g: g.uniform(np.zeros(3), np.array([1, -1, 1])), ValueError, "high - low < 0"),
    (lambda g: g.gamma(np.array([1, -1])), ValueError, "shape < 0"),
    (lambda g: g.gamma(1, np.array([1, -1])), ValueError, "scale < 0"),
    (lambda g: g.standard_gamma(np.array([1, -1])), ValueError, "shape < 0"),
    (lambda g: g.beta(np.array([1, 0]), 1), ValueError, "a <= 0"),
    (lambda g: g.beta(1, np.array([1, -2])), ValueError, "b <= 0"),
    (lambda g: g.binomial(np.array([1, -1]), 0.5), ValueError, "n < 0"),
    (lambda g: g.binomial(np.array([1, 1]), [0.5, np.nan]), ValueError, r"p < 0, p > 1 or p contains NaNs"),
    (lambda g: g.binomial(np.array([1.5, 1]), [0.5, 0.5]), TypeError,
     r"Cannot cast array data from dtype\('float64'\) to dtype\('int64'\) according to the rule 'safe'"),
    (lambda g: g.poisson(np.array([1, -1])), ValueError, "lam < 0 or lam contains NaNs"),
    (lambda g: g.poisson(np.array([1, 1e20])), ValueError, "lam value too large"),
    (lambda g: g.poisson(np.array([1, np.nan])), ValueError, "lam value too large"),
    (lambda g: g.integers(np.array([0, 5]), np.array([3, 5])), ValueError, "low >= high"),
    (lambda g: g.integers(np.array([4, 1]), [3, 5], endpoint=True), ValueError, "low > high"),
    (lambda g: g.integers(np.array([3, 0])), ValueError, "high <= 0"),
    (lambda g: g.integers(np.array([0, -1]), endpoint=True), ValueError, "high < 0"),
    (lambda g: g.integers(0), ValueError, "high <= 0"),
    (lambda g: g.integers(np.array([0, -1]), np.array([3, 6]), dtype=np.uint8), ValueError,
     "low is out of bounds for uint8"),
    (lambda g: g.integers(np.array([0, 1]), np.array([3, 300]), dtype=np.uint8), ValueError,
     "high is out of bounds for uint8"),
    (lambda g: g.integers(np.array([0, 1]), np.array([3, 5]), size=(3,)), ValueError, "Mismatch is between arg 0"),
]


@pytest.mark.parametrize("case", range(len(ARRAY_ERRORS)))
def test_array_param_errors_match_numpy(device, case):
    fn, exc, msg = ARRAY_ERRORS[case]
    with pytest.raises(exc, match=msg):
        fn(cp.random.default_rng(0))
    with pytest.raises(exc, match=msg):  # the oracle agrees
        fn(np.random.default_rng(0))


def test_legacy_array_params(device):
    rs = cp.random.RandomState(1)
    x = rs.uniform(np.array([1.0, 2.0]), np.array([0.0, 5.0]), size=(1000, 2)).get()  # high < low allowed
    assert np.all((x[:, 0] > 0) & (x[:, 0] <= 1)) and np.all((x[:, 1] >= 2) & (x[:, 1] < 5))
    assert rs.normal(np.array([0.0, 100.0]), 1.0).shape == (2,)
    r = rs.randint(np.array([0, 1]), np.array([[5], [20]])).get()
    assert r.shape == (2, 2) and np.all(r[0] < 5) and np.all(r[1] < 20)
    for fn, exc, msg in [
        (lambda r: r.uniform([1, 2], [np.inf, 1]), OverflowError, "Range exceeds valid bounds"),
        (lambda r: r.uniform(0, np.inf), OverflowError, "Range exceeds valid bounds"),
        (lambda r: r.normal([1, 2], [-1, 1]), ValueError, "scale < 0"),
        (lambda r: r.randint([1, 2], [0, 1]), ValueError, "low >= high"),
        (lambda r: r.normal([1, 2], [1, 1], size=(3,)), ValueError, "Mismatch is between arg 0 with shape"),
    ]:
        with pytest.raises(exc, match=msg):
            fn(cp.random.RandomState(0))
        with pytest.raises(exc, match=msg):
            fn(np.random.RandomState(0))


def test_array_param_stats(device):
    """Each column of a broadcast draw follows its own parameters (KS / chi-square per column)."""
    g = cp.random.default_rng(200)
    loc, scale = np.array([-5.0, 0.0, 7.0]), np.array([[0.5], [3.0]])
    x = g.normal(loc, scale, size=(N, 2, 3)).get()
    for i in range(2):
        for j in range(3):
            assert_ks(x[:, i, j], lambda t: normal_cdf(t, loc[j], scale[i, 0]))
    low, high = np.array([0.0, -10.0]), np.array([1.0, 30.0])
    x = g.uniform(low, high, size=(N, 2)).get()
    for j in range(2):
        assert_ks(x[:, j], lambda t: (t - low[j]) / (high[j] - low[j]))
    x = g.exponential(np.array([0.5, 4.0]), size=(N, 2)).get()
    for j, sc in enumerate([0.5, 4.0]):
        assert_ks(x[:, j], lambda t: 1 - np.exp(-t / sc))
    x = g.gamma(np.array([0.5, 3.0]), np.array([1.0, 2.0]), size=(N, 2)).get()
    assert_ks(x[:, 0], lambda t: erf(np.sqrt(t)))
    assert_ks(x[:, 1], lambda t: 1 - np.exp(-t / 2) * (1 + t / 2 + (t / 2) ** 2 / 2))
    x = g.beta(np.array([2.0, 0.5]), np.array([3.0, 0.5]), size=(N, 2)).get()
    assert_ks(x[:, 0], lambda t: sum(math.comb(4, j) * t**j * (1 - t) ** (4 - j) for j in range(2, 5)))
    assert_ks(x[:, 1], lambda t: 2 / math.pi * np.arcsin(np.sqrt(t)))
    x = g.binomial(np.array([20, 1000]), np.array([0.3, 0.4]), size=(N, 2)).get()
    assert_chi2(x[:, 0], binom_pmf(20, 0.3), range(21))
    assert_chi2(x[:, 1], binom_pmf(1000, 0.4), range(1001))
    x = g.poisson(np.array([3.5, 80.0]), size=(N, 2)).get()
    assert_chi2(x[:, 0], poisson_pmf(3.5), range(40))
    assert_chi2(x[:, 1], poisson_pmf(80.0), range(200))
    x = g.integers(np.array([0, -3]), np.array([7, 4]), size=(N, 2)).get()
    assert_chi2(x[:, 0], lambda k: 1 / 7, range(7))
    assert_chi2(x[:, 1], lambda k: 1 / 7, range(-3, 4))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_groups_are_prefixes(device, dtype):
    """A thread makes 8 normals per group of counter blocks: a shorter draw is a prefix of a
    longer one from the same state, and a partial group still consumes the whole group."""
    full = cp.random.default_rng(9).standard_normal(41, dtype=dtype).get()
    for n in (0, 1, 7, 8, 9, 16, 17, 40):
        np.testing.assert_array_equal(cp.random.default_rng(9).standard_normal(n, dtype=dtype).get(), full[:n])
    g = cp.random.default_rng(9)
    g.standard_normal(3, dtype=dtype)
    np.testing.assert_array_equal(g.standard_normal(8, dtype=dtype).get(), full[8:16])


def test_float64_normal_moments_and_tail(device):
    """float64 radii come from 64 random bits (the tail reaches 9.49 sigma), angles from 32:
    moments up to the fourth and the 3-sigma tail frequency at n = 10^6."""
    x = cp.random.default_rng(202).standard_normal(10**6).get()
    assert_moments(x, 0, 1)
    assert abs(np.mean(x**4) - 3) < 0.05  # sd of the sample 4th moment: sqrt(96 / n) ~ 0.01
    tail = np.count_nonzero(np.abs(x) > 3) / x.size  # 2.7e-3 expected: ~2700 values
    assert 2.4e-3 < tail < 3.0e-3
    assert_ks(x[:N], normal_cdf)


def test_float32_normal_tail_and_moments(device):
    """float32 normals come from 32-bit uniforms: mean, variance, and both tails beyond 4 sigma."""
    x = cp.random.default_rng(201).standard_normal(10**6, dtype=np.float32).get().astype(np.float64)
    assert_moments(x, 0, 1)
    tail = np.count_nonzero(np.abs(x) > 4) / x.size  # 6.3e-5 expected: ~63 values
    assert 3e-5 < tail < 1.1e-4
    assert np.all(np.isfinite(x))


# ---------------- choice / permutation / shuffle on arrays ----------------

def test_permutation_gathers_rows_of_any_layout(device):
    base = np.arange(2 * 7 * 6 * 5, dtype=np.float64).reshape(14, 6, 5)
    views = {
        "contiguous": lambda a: a,
        "strided_rows": lambda a: a[::2],
        "inner_strided": lambda a: a[:, ::2, 1:4],
        "transposed": lambda a: a.transpose(0, 2, 1),
        "reversed": lambda a: a[::-1, :, ::-1],
        "one_d": lambda a: a[:, 0, 0],
    }
    for name, view in views.items():
        for dtype in (np.int8, np.int16, np.float32, np.float64, np.complex128, np.bool_):
            host = view(base.astype(dtype))
            c = view(cp.asarray(base.astype(dtype)))
            order = cp.random.default_rng(33).permutation(host.shape[0]).get()
            got = cp.random.default_rng(33).permutation(c)
            assert str(got.device) == device
            np.testing.assert_array_equal(got.get(), host[order], err_msg=f"{name} {dtype}")


def test_choice_rows_multidimensional(device):
    a_np = np.arange(40, dtype=np.int32).reshape(10, 4)
    a = cp.asarray(a_np)[::-1, ::2]
    want_rows = a_np[::-1, ::2]
    idx = cp.random.default_rng(12).choice(5, size=(3, 2)).get()  # the same stream as choice(a)
    got = cp.random.default_rng(12).choice(a[:5], size=(3, 2))
    assert got.shape == (3, 2, 2)
    np.testing.assert_array_equal(got.get(), want_rows[:5][idx])
    got = cp.random.default_rng(12).choice(a, size=4, replace=False).get()
    assert len({tuple(r) for r in got}) == 4 and all(tuple(r) in {tuple(w) for w in want_rows} for r in got)
    got = cp.random.default_rng(12).choice(a, size=(2, 2), p=[0.5, 0.5] + [0.0] * 8).get()
    assert got.shape == (2, 2, 2) and {tuple(r) for r in got.reshape(4, 2)} <= {tuple(want_rows[0]), tuple(want_rows[1])}


def test_shuffle_in_place_views(device):
    base_np = np.arange(8 * 3, dtype=np.float32).reshape(8, 3)
    base = cp.asarray(base_np)
    view = base[1::2, ::-1]  # shuffle a non-contiguous view: only its elements move
    order = cp.random.default_rng(77).permutation(4).get()
    cp.random.default_rng(77).shuffle(view)
    want = base_np.copy()
    want[1::2, ::-1] = base_np[1::2, ::-1][order]
    np.testing.assert_array_equal(base.get(), want)
    empty = cp.zeros((0, 3))
    cp.random.default_rng(0).shuffle(empty)
    assert cp.random.default_rng(0).permutation(cp.zeros((0, 2))).shape == (0, 2)
    assert cp.random.default_rng(0).choice(cp.zeros((5, 0)), 3).shape == (3, 0)
