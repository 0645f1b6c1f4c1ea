"""copper.random's distributions beyond uniform/normal/exponential/gamma/beta/binomial/
poisson: goodness of fit against exact CDFs and pmfs (Kolmogorov-Smirnov, chi-square,
moments; no SciPy), NumPy's parameter errors, NumPy's shapes and dtypes with array
parameters, CPU/GPU agreement, CuPy's dtype= argument, bit generators and the legacy
API's state functions. Seeds are fixed, so every test is deterministic."""
import math
import warnings
import zlib

import numpy as np
import pytest

import copper as cp
from test_random import N, assert_chi2, assert_ks, assert_moments, erf, normal_cdf, on_cpu


def rng(seed):
    return cp.random.default_rng(seed)


# ---------------- continuous: KS against the exact CDF ----------------

CONTINUOUS = [
    ("chisquare2", lambda g: g.chisquare(2.0, N), lambda x: 1 - np.exp(-x / 2)),
    ("chisquare1", lambda g: g.chisquare(1.0, N), lambda x: erf(np.sqrt(x / 2))),
    ("chisquare4", lambda g: g.chisquare(4.0, N), lambda x: 1 - np.exp(-x / 2) * (1 + x / 2)),
    ("f22", lambda g: g.f(2.0, 2.0, N), lambda x: x / (1 + x)),
    ("standard_t1", lambda g: g.standard_t(1.0, N), lambda x: 0.5 + np.arctan(x) / np.pi),
    ("standard_t2", lambda g: g.standard_t(2.0, N), lambda x: 0.5 + x / (2 * np.sqrt(2 + x * x))),
    ("noncentral_chisquare_central", lambda g: g.noncentral_chisquare(2.0, 0.0, N), lambda x: 1 - np.exp(-x / 2)),
    ("gumbel", lambda g: g.gumbel(1.0, 2.0, N), lambda x: np.exp(-np.exp(-(x - 1) / 2))),
    ("laplace", lambda g: g.laplace(-1.0, 0.5, N),
     lambda x: np.where(x < -1, 0.5 * np.exp((x + 1) / 0.5), 1 - 0.5 * np.exp(-(x + 1) / 0.5))),
    ("logistic", lambda g: g.logistic(2.0, 3.0, N), lambda x: 1 / (1 + np.exp(-(x - 2) / 3))),
    ("lognormal", lambda g: g.lognormal(0.5, 0.7, N), lambda x: normal_cdf(np.log(x), 0.5, 0.7)),
    ("pareto", lambda g: g.pareto(3.0, N), lambda x: 1 - (1 + x) ** -3.0),
    ("power", lambda g: g.power(2.5, N), lambda x: x**2.5),
    ("weibull", lambda g: g.weibull(1.7, N), lambda x: 1 - np.exp(-(x**1.7))),
    ("rayleigh", lambda g: g.rayleigh(2.0, N), lambda x: 1 - np.exp(-x * x / 8)),
    ("standard_cauchy", lambda g: g.standard_cauchy(N), lambda x: 0.5 + np.arctan(x) / np.pi),
    ("triangular", lambda g: g.triangular(-1.0, 0.0, 2.0, N),
     lambda x: np.where(x <= 0, (x + 1) ** 2 / 3, 1 - (2 - x) ** 2 / 6)),
    ("vonmises_tiny_kappa", lambda g: g.vonmises(0.0, 1e-9, N), lambda x: (x + np.pi) / (2 * np.pi)),
    ("wald", lambda g: g.wald(1.5, 2.0, N),
     lambda x: normal_cdf(np.sqrt(2.0 / x) * (x / 1.5 - 1))
     + np.exp(2 * 2.0 / 1.5) * normal_cdf(-np.sqrt(2.0 / x) * (x / 1.5 + 1))),
]


@pytest.mark.parametrize("name", [c[0] for c in CONTINUOUS])
def test_continuous_fit(device, name):
    _, draw, cdf = next(c for c in CONTINUOUS if c[0] == name)
    x = draw(rng(zlib.crc32(name.encode()) % 1000)).get()
    assert x.shape == (N,) and x.dtype == np.float64
    assert_ks(x, cdf)


def bessel_i(order, x, terms=60):
    return sum((x / 2) ** (2 * k + order) / (math.factorial(k) * math.factorial(k + order)) for k in range(terms))


def test_continuous_moments(device):
    g = rng(300)
    x = g.noncentral_chisquare(3.0, 2.0, N).get()  # df > 1: chi2 plus a shifted normal squared
    assert_moments(x, 5.0, 2 * (3 + 4))
    x = g.noncentral_chisquare(0.5, 3.0, N).get()  # df <= 1: the Poisson mixture
    assert_moments(x, 3.5, 2 * (0.5 + 6))
    x = g.noncentral_f(3.0, 20.0, 2.0, N).get()
    assert abs(x.mean() - 20 * 5 / (3 * 18)) < 5 * x.std() / math.sqrt(N)
    x = g.f(5.0, 12.0, N).get()
    assert_moments(x, 12 / 10, 2 * 144 * 15 / (5 * 100 * 8))
    x = g.standard_t(5.0, N).get()
    assert_moments(x, 0.0, 5 / 3)
    for mu, kappa in [(0.5, 1.0), (-2.0, 4.0), (1.0, 2e6)]:
        x = g.vonmises(mu, kappa, N).get()
        assert np.all(np.abs(x) <= np.pi)
        c = np.cos(x - mu)  # E[cos(x - mu)] = I1(kappa) / I0(kappa)
        want = bessel_i(1, kappa) / bessel_i(0, kappa) if kappa < 100 else 1 - 1 / (2 * kappa)
        assert abs(c.mean() - want) < 5 * c.std() / math.sqrt(N) + 1e-12
        assert abs(np.sin(x - mu).mean()) < 5 * math.sqrt(0.5 / N)
    x = g.wald(3.0, 3.0, N).get()
    assert_moments(x, 3.0, 27 / 3)
    x = g.weibull(0.0, 5).get()
    assert np.all(x == 0)
    assert np.all(g.weibull(np.inf, 5).get() == 1)


# ---------------- discrete: chi-square against the exact pmf ----------------

def nbinom_pmf(n, p):
    return lambda k: math.exp(math.lgamma(k + n) - math.lgamma(n) - math.lgamma(k + 1) + n * math.log(p)
                              + k * math.log1p(-p))


def hyper_pmf(good, bad, sample):
    return lambda k: (math.comb(good, k) * math.comb(bad, sample - k) / math.comb(good + bad, sample)
                      if 0 <= k <= min(good, sample) and sample - k <= bad else 0.0)


DISCRETE = [
    ("negative_binomial", lambda g: g.negative_binomial(5, 0.4, N), nbinom_pmf(5, 0.4), range(40)),
    ("negative_binomial_real_n", lambda g: g.negative_binomial(2.5, 0.7, N), nbinom_pmf(2.5, 0.7), range(20)),
    ("geometric_small_p", lambda g: g.geometric(0.05, N), lambda k: 0.95 ** (k - 1) * 0.05, range(1, 150)),
    ("geometric_large_p", lambda g: g.geometric(0.6, N), lambda k: 0.4 ** (k - 1) * 0.6, range(1, 15)),
    ("hypergeometric_urn", lambda g: g.hypergeometric(10, 20, 6, N), hyper_pmf(10, 20, 6), range(7)),
    ("hypergeometric_hrua", lambda g: g.hypergeometric(100, 150, 60, N), hyper_pmf(100, 150, 60), range(61)),
    ("hypergeometric_complement", lambda g: g.hypergeometric(40, 10, 45, N), hyper_pmf(40, 10, 45), range(46)),
    ("logseries", lambda g: g.logseries(0.7, N), lambda k: -(0.7**k) / (k * math.log(0.3)), range(1, 40)),
    ("logseries_high", lambda g: g.logseries(0.97, N), lambda k: -(0.97**k) / (k * math.log(0.03)), range(1, 200)),
    ("zipf", lambda g: g.zipf(2.0, N), lambda k: k**-2.0 / (math.pi**2 / 6), range(1, 60)),
    ("zipf3", lambda g: g.zipf(3.5, N), lambda k: k**-3.5 / sum(j**-3.5 for j in range(1, 200000)), range(1, 30)),
]


@pytest.mark.parametrize("name", [c[0] for c in DISCRETE])
def test_discrete_fit(device, name):
    _, draw, pmf, support = next(c for c in DISCRETE if c[0] == name)
    x = draw(rng(zlib.crc32(name.encode()) % 1000)).get()
    assert x.shape == (N,) and x.dtype == np.int64
    assert_chi2(x, pmf, support)


def test_discrete_edges(device):
    g = rng(301)
    assert np.all(g.geometric(1.0, 10).get() == 1)
    assert np.all(g.negative_binomial(3, 1.0, 10).get() == 0)
    assert np.all(g.hypergeometric(5, 10, 0, 10).get() == 0)
    assert np.all(g.hypergeometric(5, 10, 15, 10).get() == 5)
    assert np.all(g.hypergeometric(0, 10, 5, 10).get() == 0)
    assert np.all(g.hypergeometric(5, 0, 5, 10).get() == 5)
    assert np.all(g.logseries(0.0, 10).get() == 1)
    assert np.all(g.zipf(2000.0, 10).get() == 1)
    x = g.hypergeometric(10**8, 10**8, 10**7, 2000).get()  # large populations: HRUA
    assert_moments(x, 5e6, 1e7 * 0.25 * (2e8 - 1e7) / (2e8 - 1))


# ---------------- vector distributions ----------------

def test_dirichlet(device):
    g = rng(302)
    alpha = np.array([0.5, 2.0, 3.5])
    x = g.dirichlet(alpha, N).get()
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    s = alpha.sum()
    for i, a in enumerate(alpha):  # marginals are Beta(a, s - a)
        assert_moments(x[:, i], a / s, a * (s - a) / (s * s * (s + 1)))
    tiny = g.dirichlet([1e-3, 1e-3], 1000).get()  # gammas underflow: still on the simplex
    assert np.all(np.isfinite(tiny)) and np.allclose(tiny.sum(axis=1), 1)
    assert g.dirichlet([1.0, 2.0]).shape == (2,)
    assert g.dirichlet([1.0, 2.0], (2, 3)).shape == (2, 3, 2)
    assert cp.random.RandomState(0).dirichlet([1.0, 1.0], 4, dtype=np.float32).dtype == np.float32


def test_multinomial(device):
    g = rng(303)
    p = [0.2, 0.3, 0.5]
    x = g.multinomial(100, p, N).get()
    assert x.shape == (N, 3) and x.dtype == np.int64
    assert np.all(x.sum(axis=1) == 100)
    for i, pi in enumerate(p):
        assert_moments(x[:, i], 100 * pi, 100 * pi * (1 - pi))
    assert g.multinomial(10, p).shape == (3,)
    assert g.multinomial([5, 7], p).get().sum(axis=1).tolist() == [5, 7]
    y = g.multinomial(np.array([10, 20]), [[0.5, 0.5], [0.1, 0.9]], size=(4, 2)).get()
    assert y.shape == (4, 2, 2) and np.all(y.sum(axis=2) == [10, 20])
    assert np.all(g.multinomial(10, [0.0, 1.0], 5).get()[:, 1] == 10)
    rs = cp.random.RandomState(1)
    assert rs.multinomial(20, [0.5, 0.5], size=(2, 3)).shape == (2, 3, 2)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(device, method):
    g = rng(304)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, 0.2], [0.6, 1.0, -0.3], [0.2, -0.3, 0.5]])
    x = g.multivariate_normal(mean, cov, N, method=method).get()
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.mean(axis=0), mean, atol=5 * math.sqrt(2 / N))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.06)
    assert g.multivariate_normal(mean, cov, method=method).shape == (3,)
    assert g.multivariate_normal(mean, cov, (2, 4), method=method).shape == (2, 4, 3)


def test_multivariate_normal_checks(device):
    g = rng(305)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite."):
        g.multivariate_normal([0, 0], bad)
    with pytest.raises(ValueError, match="covariance is not symmetric positive-semidefinite."):
        g.multivariate_normal([0, 0], bad, check_valid="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.multivariate_normal([0, 0], bad, check_valid="ignore")
    with pytest.raises(ValueError, match="check_valid must equal 'warn', 'raise', or 'ignore'"):
        g.multivariate_normal([0, 0], bad, check_valid="bogus")
    with pytest.raises(ValueError, match="method must be one of"):
        g.multivariate_normal([0, 0], bad, method="qr")
    with pytest.raises(ValueError, match="mean must be 1 dimensional"):
        g.multivariate_normal([[0]], [[1]])
    with pytest.raises(ValueError, match="cov must be 2 dimensional and square"):
        g.multivariate_normal([0, 0], [1, 0])
    with pytest.raises(ValueError, match="mean and cov must have same length"):
        g.multivariate_normal([0], np.eye(2))
    rs = cp.random.RandomState(0)
    x = rs.multivariate_normal([0.0, 0.0], np.eye(2), size=3, tol=1e-6, dtype=np.float32)
    assert x.shape == (3, 2) and x.dtype == np.float32


# ---------------- NumPy's parameter errors ----------------

ERRORS = [
    ("chisquare", (0,)), ("chisquare", ([1, -1],)), ("f", (0, 1)), ("f", (1, 0)), ("standard_t", (0,)),
    ("noncentral_chisquare", (0, 1)), ("noncentral_chisquare", (1, -1)), ("noncentral_chisquare", (1, -0.0)),
    ("noncentral_f", (0, 1, 1)), ("noncentral_f", (1, 0, 1)), ("noncentral_f", (1, 1, -1)),
    ("negative_binomial", (0, 0.5)), ("negative_binomial", (1, 0)), ("negative_binomial", (1, 1.1)),
    ("negative_binomial", (1, [0.5, np.nan])), ("negative_binomial", (np.nan, 0.5)),
    ("negative_binomial", (1e30, 1e-30)),
    ("geometric", (0,)), ("geometric", (1.1,)), ("geometric", ([0.5, np.nan],)),
    ("hypergeometric", (-1, 5, 1)), ("hypergeometric", (5, -1, 1)), ("hypergeometric", (5, 5, -1)),
    ("hypergeometric", (5, 5, 0)), ("hypergeometric", (5, 5, 11)), ("hypergeometric", (-1, 1, 1)),
    ("hypergeometric", (10**9, 1, 1)), ("hypergeometric", ([5], [-1], [1])),
    ("logseries", (1,)), ("logseries", (-0.1,)), ("logseries", (np.nan,)), ("logseries", ([0.5, 1],)),
    ("zipf", (1,)), ("zipf", (np.nan,)), ("zipf", ([2, 1],)),
    ("vonmises", (0, -1)), ("vonmises", (0, [1, -1])), ("wald", (0, 1)), ("wald", (1, 0)), ("wald", ([1, 0], 1)),
    ("gumbel", (0, -1)), ("laplace", (0, -0.0)), ("logistic", (0, [1, -1])), ("lognormal", (0, -1)),
    ("pareto", (0,)), ("power", (-1,)), ("weibull", (-1,)), ("weibull", (-0.0,)), ("rayleigh", (-1,)),
    ("triangular", (1, 0, 2)), ("triangular", (-2, 0, -1)), ("triangular", (0, 0, 0)),
    ("triangular", ([0, 0], 0, [0, 1])),
    ("dirichlet", ([1, -1],)), ("dirichlet", ([1, 0],)), ("dirichlet", (1.0,)), ("dirichlet", ([[1, 2]],)),
    ("multinomial", (10, [0.6, 0.6, 0.1])), ("multinomial", (10, [-0.1, 1.1])), ("multinomial", (-1, [0.5, 0.5])),
    ("multinomial", (10, [0.5, np.nan])),
]


def outcome(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the oracle's exception, whatever it is)
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("api", ["Generator", "RandomState"])
@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_match_numpy(device, api, case):
    name, args = ERRORS[case]
    np_obj = np.random.default_rng(0) if api == "Generator" else np.random.RandomState(0)
    cp_obj = cp.random.default_rng(0) if api == "Generator" else cp.random.RandomState(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = outcome(lambda: getattr(np_obj, name)(*args, size=3))
        got = outcome(lambda: getattr(cp_obj, name)(*args, size=3))
    if want is None:
        assert got is None, got
    else:
        assert got is not None and got[0] == want[0] and got[1] == want[1], (got, want)


# ---------------- shapes and dtypes with array parameters ----------------

SHAPES = [
    ("chisquare", ([1.0, 2.0, 3.0],), None), ("f", ([[1.0], [2.0]], [3.0, 4.0, 5.0]), None),
    ("standard_t", (3.0,), (2, 3)), ("noncentral_chisquare", ([1.0, 2.0], [[0.5], [1.5]]), (4, 2, 2)),
    ("noncentral_f", ([2.0, 3.0], 4.0, [[1.0], [0.0]]), None), ("vonmises", ([0.0, 1.0], 2.0), (3, 2)),
    ("wald", (np.ones((2, 1)), [1.0, 2.0, 3.0]), None), ("gumbel", (), None), ("laplace", ([1.0, 2.0],), None),
    ("logistic", (0.0, [[1.0], [2.0]]), (3, 2, 1)), ("lognormal", ([0.0, 1.0], [1.0, 2.0]), (5, 2)),
    ("pareto", ([1.0, 2.0],), (3, 2)), ("power", (0.5,), 4), ("weibull", ([[1.0, 2.0]],), None),
    ("rayleigh", ([1.0, 2.0],), None), ("standard_cauchy", (), (2, 2)), ("standard_cauchy", (), None),
    ("triangular", ([-1.0, 0.0], 0.5, [[1.0], [2.0]]), None), ("negative_binomial", ([3, 4], 0.5), (2, 2)),
    ("geometric", ([0.5, 0.2],), None), ("hypergeometric", ([5, 6], 5, [[1], [2]]), None),
    ("logseries", (0.5,), 3), ("zipf", ([2.0, 3.0],), None),
]


@pytest.mark.parametrize("api", ["Generator", "RandomState"])
@pytest.mark.parametrize("case", range(len(SHAPES)))
def test_shapes_dtypes_like_numpy(device, api, case):
    name, args, size = SHAPES[case]
    np_obj = np.random.default_rng(0) if api == "Generator" else np.random.RandomState(0)
    cp_obj = cp.random.default_rng(0) if api == "Generator" else cp.random.RandomState(0)
    want = np.asarray(getattr(np_obj, name)(*args, size=size))
    cp_args = [cp.asarray(np.asarray(a)) if isinstance(a, (list, np.ndarray)) else a for a in args]
    got = getattr(cp_obj, name)(*cp_args, size=size)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert str(got.device) == device


def test_size_mismatch_like_numpy(device):
    for call in [lambda g: g.wald([1.0, 2.0], [1.0, 2.0, 3.0]),
                 lambda g: g.triangular([0.0, 0.0, 0.0], 1.0, 2.0, size=2),
                 lambda g: g.chisquare([1.0, 2.0], size=(3, 3)),
                 lambda g: g.zipf([2.0, 3.0], size=(2, 1))]:
        want = outcome(lambda: call(np.random.default_rng(0)))
        got = outcome(lambda: call(rng(0)))
        assert want is not None and got == want


def test_array_params_equal_scalar_params(device):
    """A parameter given as an array gives the same values as the number."""
    a = rng(7).gumbel(1.0, np.full(50, 2.0)).get()
    b = rng(7).gumbel(1.0, 2.0, 50).get()
    np.testing.assert_array_equal(a, b)
    a = rng(8).hypergeometric(np.full(30, 20), 30, 10).get()
    b = rng(8).hypergeometric(20, 30, 10, 30).get()
    np.testing.assert_array_equal(a, b)


# ---------------- CuPy's dtype= on RandomState and the module functions ----------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cupy_dtype_float(device, dtype):
    rs = cp.random.RandomState(5)
    for name, args in [("chisquare", (3.0,)), ("gumbel", ()), ("vonmises", (0.0, 1.0)), ("triangular", (0, 1, 2)),
                       ("beta", (2.0, 3.0)), ("gamma", (2.0,)), ("normal", ()), ("uniform", ()), ("lognormal", ()),
                       ("standard_normal", ()), ("random_sample", ()), ("standard_cauchy", ())]:
        x = getattr(rs, name)(*args, size=(3, 2), dtype=dtype)
        assert x.dtype == dtype and x.shape == (3, 2), name
    assert cp.random.rand(2, 3, dtype=dtype).dtype == dtype
    assert cp.random.randn(4, dtype=dtype).shape == (4,)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64])
def test_cupy_dtype_int(device, dtype):
    rs = cp.random.RandomState(6)
    for name, args in [("binomial", (5, 0.5)), ("poisson", (3.0,)), ("geometric", (0.5,)),
                       ("hypergeometric", (5, 5, 3)), ("zipf", (2.0,)), ("negative_binomial", (3, 0.5)),
                       ("noncentral_chisquare", (1.0, 1.0))]:
        x = getattr(rs, name)(*args, size=5, dtype=dtype)
        assert x.dtype == dtype and x.shape == (5,), name


def test_float32_draws_round_the_float64_values(device):
    """dtype=float32 stores the float64 sample rounded (same stream)."""
    a = cp.random.RandomState(9).chisquare(3.0, 100).get()
    b = cp.random.RandomState(9).chisquare(3.0, 100, dtype=np.float32).get()
    np.testing.assert_array_equal(a.astype(np.float32), b)


# ---------------- CPU/GPU agreement ----------------

EXACT_DRAWS = {
    "geometric": lambda g: g.geometric(np.array([0.01, 0.3, 0.9]), size=(50, 3)),
    "negative_binomial": lambda g: g.negative_binomial(4, 0.3, 200),
    "hypergeometric": lambda g: g.hypergeometric(np.array([5, 500]), 300, 40, size=(60, 2)),
    "logseries": lambda g: g.logseries(0.9, 200),
    "zipf": lambda g: g.zipf(2.5, 200),
    "multinomial": lambda g: g.multinomial(50, [0.1, 0.2, 0.7], 40),
    # uniforms through +, *, / and sqrt only (correctly rounded everywhere, nothing to fuse)
    "triangular": lambda g: g.triangular(-1.0, 0.5, np.array([2.0, 3.0]), size=(100, 2)),
}
CLOSE_DRAWS = {
    "chisquare": lambda g: g.chisquare(np.array([0.5, 3.0, 40.0]), size=(50, 3)),
    "f": lambda g: g.f(3.0, 7.0, 200),
    "standard_t": lambda g: g.standard_t(4.0, 200),
    "noncentral_chisquare": lambda g: g.noncentral_chisquare(np.array([0.5, 4.0]), 2.0, size=(60, 2)),
    "noncentral_f": lambda g: g.noncentral_f(3.0, 5.0, 1.5, 200),
    "vonmises": lambda g: g.vonmises(0.3, np.array([0.5, 5.0]), size=(60, 2)),
    "wald": lambda g: g.wald(2.0, 3.0, 200),
    "gumbel": lambda g: g.gumbel(1.0, 2.0, 200),
    "laplace": lambda g: g.laplace(0.0, 1.0, 200),
    "logistic": lambda g: g.logistic(0.0, 1.0, 200),
    "lognormal": lambda g: g.lognormal(0.0, 1.0, 200),
    "pareto": lambda g: g.pareto(2.0, 200),
    "power": lambda g: g.power(3.0, 200),
    "weibull": lambda g: g.weibull(1.5, 200),
    "rayleigh": lambda g: g.rayleigh(2.0, 200),
    "standard_cauchy": lambda g: g.standard_cauchy(200),
    "dirichlet": lambda g: g.dirichlet([0.5, 1.0, 4.0], 50),
    "multivariate_normal": lambda g: g.multivariate_normal([0.0, 1.0], [[2.0, 0.5], [0.5, 1.0]], 50),
}


@pytest.mark.parametrize("name", sorted(EXACT_DRAWS))
def test_identical_to_cpu(device, name):
    """Integer-valued samplers and triangular: the same values on every device (a
    rejection test would have to land within an ulp of its edge to differ)."""
    fn = EXACT_DRAWS[name]
    want = on_cpu(lambda: fn(rng(12)))
    got = fn(rng(12)).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CLOSE_DRAWS))
def test_continuous_close_to_cpu(device, name):
    """Continuous samplers call log/exp/pow/cos: CUDA's and the host libm's may differ in the
    last bit (gamma-based ones carry that through exp, as gamma does)."""
    fn = CLOSE_DRAWS[name]
    want = on_cpu(lambda: fn(rng(13)))
    got = fn(rng(13)).get()
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


# ---------------- bit generators, Generator(bit_generator), legacy state ----------------

@pytest.mark.parametrize("bg", ["Philox4x3210", "XORWOW", "MRG32k3a"])
def test_bit_generators(device, bg):
    cls = getattr(cp.random, bg)
    a, b, c = cls(5).random_raw(10).get(), cls(5).random_raw(10).get(), cls(None).random_raw(10).get()
    assert a.dtype == np.uint64 and np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.array_equal(cls(np.int8(3)).random_raw(4).get(), cls(3).random_raw(4).get())
    assert not np.array_equal(cls([1, 2, 3]).random_raw(4).get(), cls([1, 2, 4]).random_raw(4).get())
    with pytest.raises(TypeError):
        cls(1.0)
    with pytest.raises(TypeError):
        cls(1j)
    g = cp.random.Generator(cls(7))
    x = g.standard_normal(5).get()
    g.bit_generator = cls(7)  # a fresh stream: the same draws again
    np.testing.assert_array_equal(g.standard_normal(5).get(), x)
    bits = cls(8)
    g = cp.random.Generator(bits)
    g.random(3)
    h = cp.random.Generator(cls(8))
    h.random(3)
    np.testing.assert_array_equal(bits.random_raw(2).get(), h.bit_generator.random_raw(2).get())  # shared stream
    state = bits.state
    first = g.random(4).get()
    bits.state = state
    np.testing.assert_array_equal(g.random(4).get(), first)


def test_bit_generator_families_differ():
    assert not np.array_equal(cp.random.XORWOW(1).random_raw(4).get(), cp.random.MRG32k3a(1).random_raw(4).get())
    # Philox4x3210 is default_rng's stream
    np.testing.assert_array_equal(cp.random.Philox4x3210(3).random_raw(4).get(), rng(3).random_raw(4).get())


def test_legacy_state_and_seed(device):
    rs = cp.random.RandomState(11)
    rs.normal(size=3)
    state = rs.get_state()
    a = rs.gamma(2.0, size=5).get()
    rs.set_state(state)
    np.testing.assert_array_equal(rs.gamma(2.0, size=5).get(), a)
    with pytest.raises(ValueError):
        rs.set_state(np.random.RandomState(0).get_state())
    rs.seed(np.array([1, 2, 3]))
    x = rs.rand(3).get()
    rs.seed([1, 2, 3])
    np.testing.assert_array_equal(rs.rand(3).get(), x)
    for bad in (1.5, np.float32(0), 1j):
        with pytest.raises(TypeError):
            rs.seed(bad)
    cp.random.seed(4)
    st = cp.random.get_state()
    y = cp.random.uniform(size=3).get()
    cp.random.set_state(st)
    np.testing.assert_array_equal(cp.random.uniform(size=3).get(), y)


def test_bytes(device):
    b = cp.random.bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    assert rng(1).bytes(13) == rng(1).bytes(13)
    assert cp.random.RandomState(2).bytes(0) == b""


def test_random_state_registry():
    rs = cp.random.RandomState(3)
    cp.random.set_random_state(rs)
    assert cp.random.get_random_state() is rs
    cp.random.reset_states()
    assert cp.random.get_random_state() is not rs
    cp.random.seed(10)
    a = cp.random.uniform(size=3).get()
    cp.random.reset_states()
    cp.random.seed(10)
    np.testing.assert_array_equal(cp.random.uniform(size=3).get(), a)


def test_module_level_functions(device):
    cp.random.seed(21)
    for name in ["chisquare", "f", "standard_t", "noncentral_chisquare", "noncentral_f", "vonmises", "wald",
                 "gumbel", "laplace", "logistic", "lognormal", "pareto", "power", "weibull", "rayleigh",
                 "standard_cauchy", "standard_exponential", "standard_gamma", "triangular", "negative_binomial",
                 "geometric", "hypergeometric", "logseries", "zipf", "exponential", "gamma", "beta", "binomial",
                 "poisson", "tomaxint"]:
        fn = getattr(cp.random, name)
        npfn = getattr(np.random.RandomState(0), name)
        nparams = sum(1 for p in __import__("inspect").signature(npfn).parameters.values()
                      if p.default is p.empty)
        args = {"triangular": (0, 1, 2), "hypergeometric": (5, 5, 3), "noncentral_f": (2.0, 3.0, 1.0),
                "negative_binomial": (3, 0.5), "binomial": (5, 0.5), "zipf": (2.0,), "logseries": (0.5,),
                "geometric": (0.5,), "wald": (1.0, 1.0), "vonmises": (0.0, 1.0), "beta": (1.0, 2.0),
                "noncentral_chisquare": (2.0, 1.0), "f": (2.0, 3.0)}.get(name, (2.0,) * nparams)
        x = fn(*args, size=(2, 3))
        assert x.shape == (2, 3) and str(x.device) == device, name
        assert x.dtype == np.asarray(npfn(*args, size=2)).dtype, name
    a = cp.arange(10)
    cp.random.shuffle(a)
    assert sorted(a.get().tolist()) == list(range(10))
    assert sorted(cp.random.permutation(10).get().tolist()) == list(range(10))
    assert cp.random.choice(5, 3, replace=False).shape == (3,)
    assert cp.random.random_integers(3, 5, 100).get().max() <= 5


def test_legacy_choice_errors_match_numpy(device):
    cases = [dict(a=3.1, size=1), dict(a=None, size=1), dict(a=-3, size=1), dict(a=[[0, 1], [2, 3]], size=1),
             dict(a=[], size=1), dict(a=4, size=1, p=[[0.1, 0.2], [0.3, 0.4]]), dict(a=2, size=1, p=[0.1, 0.1, 0.8]),
             dict(a=3, size=1, p=[-0.1, 0.3, 0.8]), dict(a=3, size=1, p=[0.1, 0.1, 0.7]),
             dict(a=3, size=5, replace=False)]
    for kw in cases:
        want = outcome(lambda: np.random.RandomState(0).choice(**kw))
        got = outcome(lambda: cp.random.RandomState(0).choice(**kw))
        assert want is not None and got is not None and got[0] == want[0], (kw, got, want)


def test_generator_choice_permutation_axis(device):
    x = np.arange(24.0).reshape(2, 3, 4)
    g = rng(31)
    c = g.choice(x, 5, axis=2).get()
    assert c.shape == (2, 3, 5)
    assert all(np.any(np.all(x == c[:, :, [k]], axis=(0, 1))) for k in range(5))
    p = g.permutation(x, axis=1).get()
    assert p.shape == x.shape and sorted(p[0, :, 0].tolist()) == [0.0, 4.0, 8.0]
    a = cp.asarray(x)
    g.shuffle(a, axis=-1)
    assert np.array_equal(np.sort(a.get(), axis=-1), x)
    assert g.choice(x, (2, 2), axis=1).shape == (2, 2, 2, 4)


def test_integer_bounds_given_as_floats_truncate_like_numpy(device):
    """NumPy's randint/integers take float bounds and truncate them toward zero."""
    assert cp.random.randint(-0.9, 1.1, size=3).get().tolist() == [0, 0, 0]
    assert cp.random.randint(-1.1, -0.9, size=(2, 2)).get().tolist() == [[-1, -1], [-1, -1]]
    x = rng(0).integers(-1.2, 3.4, 500).get()
    assert x.min() == -1 and x.max() == 2
    with pytest.raises(ValueError):
        cp.random.randint(-0.2, 0.3)


def test_empty_choice_of_empty_population(device):
    rs = cp.random.RandomState(0)
    assert rs.choice(np.array([]), size=0).shape == (0,)
    assert rs.choice(0, size=0).shape == (0,)
    with pytest.raises(ValueError, match="'a' cannot be empty unless no samples are taken"):
        rs.choice(np.array([]), size=1)
