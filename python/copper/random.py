"""Random numbers in NumPy's ``numpy.random`` shape (and CuPy's ``cupy.random``).

``default_rng(seed)`` returns a ``Generator`` on a counter-based Philox4x32-10 bit
generator: the same seed gives the same raw bits and the same uniforms and integers on
the CPU and on a GPU. Arrays land on the default device; ``size=None`` gives a 0-d
array (as CuPy), not a Python scalar. The legacy functions (``rand``, ``randn``,
``randint``, ``seed``, ...) use one process-wide ``RandomState`` on the same engine:
``seed(s); rand(n)`` equals ``default_rng(s).random(n)``. ``RandomState`` methods and the
module functions take CuPy's extra ``dtype`` argument.

CuPy's bit generator names (``Philox4x3210``, ``XORWOW``, ``MRG32k3a``) all run copper's
Philox streams (each name its own family of streams): their bits differ from CuPy's and
cuRAND's, their distributions do not.
"""
import os as _os
import threading as _threading

import numpy as _np

from copper import _core

_random = _core._random


# ---------------- bit generators ----------------

class BitGenerator:
    """A seeded Philox4x32-10 stream (NumPy's BitGenerator interface)."""

    _salt = 0

    def __init__(self, seed=None):
        self._engine = _random.Generator(seed, self._salt)

    def random_raw(self, size=None, output=True):
        out = self._engine.random_raw(size)
        return out if output else None

    @property
    def state(self):
        key, counter = self._engine._get_state()
        return {"bit_generator": type(self).__name__, "state": {"key": key, "counter": counter}}

    @state.setter
    def state(self, value):
        _set_engine_state(self._engine, value, type(self).__name__)


class Philox4x3210(BitGenerator):
    """CuPy's name for the Philox4x32-10 bit generator (default_rng's)."""
    _salt = 0


class XORWOW(BitGenerator):
    """CuPy's XORWOW name, backed by copper's Philox streams (different bits from cuRAND's)."""
    _salt = 1


class MRG32k3a(BitGenerator):
    """CuPy's MRG32k3a name, backed by copper's Philox streams (different bits from cuRAND's)."""
    _salt = 2


Philox = Philox4x3210


def _set_engine_state(engine, value, expected):
    if not isinstance(value, dict) or value.get("bit_generator") != expected or "state" not in value:
        raise ValueError(f"state must be a {expected} state dict as get_state / .state returns it")
    st = value["state"]
    engine._set_state(int(st["key"]), int(st["counter"]))


# ---------------- Generator ----------------

class Generator(_random.Generator):
    """NumPy's Generator on a copper bit generator (a seed works too: default_rng's)."""

    def __init__(self, bit_generator=None):
        if not isinstance(bit_generator, BitGenerator):
            bit_generator = Philox4x3210(bit_generator)
        super().__init__()
        self.bit_generator = bit_generator

    @property
    def bit_generator(self):
        return self._bit_generator

    @bit_generator.setter
    def bit_generator(self, value):
        if not isinstance(value, BitGenerator):
            raise TypeError("bit_generator must be a copper.random bit generator")
        self._share(value._engine)
        self._bit_generator = value

    def chisquare(self, df, size=None):
        return self._dist("chisquare", (df,), size)

    def f(self, dfnum, dfden, size=None):
        return self._dist("f", (dfnum, dfden), size)

    def standard_t(self, df, size=None):
        return self._dist("standard_t", (df,), size)

    def noncentral_chisquare(self, df, nonc, size=None):
        return self._dist("noncentral_chisquare", (df, nonc), size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._dist("noncentral_f", (dfnum, dfden, nonc), size)

    def vonmises(self, mu, kappa, size=None):
        return self._dist("vonmises", (mu, kappa), size)

    def wald(self, mean, scale, size=None):
        return self._dist("wald", (mean, scale), size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._dist("gumbel", (loc, scale), size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._dist("laplace", (loc, scale), size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._dist("logistic", (loc, scale), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._dist("lognormal", (mean, sigma), size)

    def pareto(self, a, size=None):
        return self._dist("pareto", (a,), size)

    def power(self, a, size=None):
        return self._dist("power", (a,), size)

    def weibull(self, a, size=None):
        return self._dist("weibull", (a,), size)

    def rayleigh(self, scale=1.0, size=None):
        return self._dist("rayleigh", (scale,), size)

    def standard_cauchy(self, size=None):
        return self._dist("standard_cauchy", (), size)

    def triangular(self, left, mode, right, size=None):
        return self._dist("triangular", (left, mode, right), size)

    def negative_binomial(self, n, p, size=None):
        return self._dist("negative_binomial", (n, p), size)

    def geometric(self, p, size=None):
        return self._dist("geometric", (p,), size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._dist("hypergeometric", (ngood, nbad, nsample), size)

    def logseries(self, p, size=None):
        return self._dist("logseries", (p,), size)

    def zipf(self, a, size=None):
        return self._dist("zipf", (a,), size)


def default_rng(seed=None):
    """A Generator seeded with a non-negative int or sequence of ints (OS entropy for None)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


# ---------------- RandomState (legacy API, CuPy's dtype argument) ----------------

class RandomState(_random.RandomState):
    """NumPy's legacy generator API on the Philox engine. ``method`` (CuPy's cuRAND
    generator choice) is accepted and ignored: every RandomState runs copper's Philox."""

    def __init__(self, seed=None, method=None):
        super().__init__(seed)

    def rand(self, *size, dtype=float):
        return self.random_sample(size, dtype)

    def randn(self, *size, dtype=float):
        return self.standard_normal(size, dtype)

    def random(self, size=None, dtype=float):
        return self.random_sample(size, dtype)

    ranf = sample = random

    def _interval(self, mx, size):
        """CuPy's helper: integers in [0, mx]."""
        return self.randint(0, mx + 1, size)

    def get_state(self, legacy=True):
        key, counter = self._generator._get_state()
        return {"bit_generator": "Philox4x3210", "state": {"key": key, "counter": counter},
                "has_gauss": 0, "gauss": 0.0}

    def set_state(self, state):
        if isinstance(state, tuple):
            raise ValueError("copper's RandomState runs Philox4x32-10: it cannot take an MT19937 state tuple")
        _set_engine_state(self._generator, state, "Philox4x3210")

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        return self._dist("lognormal", (mean, sigma), size, dtype)

    def exponential(self, scale=1.0, size=None, dtype=float):
        return self._dist("exponential", (scale,), size, dtype)

    def standard_exponential(self, size=None, dtype=float):
        return self._dist("standard_exponential", (), size, dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        return self._dist("gamma", (shape, scale), size, dtype)

    def standard_gamma(self, shape, size=None, dtype=float):
        return self._dist("standard_gamma", (shape,), size, dtype)

    def beta(self, a, b, size=None, dtype=float):
        return self._dist("beta", (a, b), size, dtype)

    def binomial(self, n, p, size=None, dtype=int):
        return self._dist("binomial", (n, p), size, dtype)

    def poisson(self, lam=1.0, size=None, dtype=int):
        return self._dist("poisson", (lam,), size, dtype)

    def chisquare(self, df, size=None, dtype=float):
        return self._dist("chisquare", (df,), size, dtype)

    def f(self, dfnum, dfden, size=None, dtype=float):
        return self._dist("f", (dfnum, dfden), size, dtype)

    def standard_t(self, df, size=None, dtype=float):
        return self._dist("standard_t", (df,), size, dtype)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        return self._dist("noncentral_chisquare", (df, nonc), size, dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        return self._dist("noncentral_f", (dfnum, dfden, nonc), size, dtype)

    def vonmises(self, mu, kappa, size=None, dtype=float):
        return self._dist("vonmises", (mu, kappa), size, dtype)

    def wald(self, mean, scale, size=None, dtype=float):
        return self._dist("wald", (mean, scale), size, dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._dist("gumbel", (loc, scale), size, dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._dist("laplace", (loc, scale), size, dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._dist("logistic", (loc, scale), size, dtype)

    def pareto(self, a, size=None, dtype=float):
        return self._dist("pareto", (a,), size, dtype)

    def power(self, a, size=None, dtype=float):
        return self._dist("power", (a,), size, dtype)

    def weibull(self, a, size=None, dtype=float):
        return self._dist("weibull", (a,), size, dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        return self._dist("rayleigh", (scale,), size, dtype)

    def standard_cauchy(self, size=None, dtype=float):
        return self._dist("standard_cauchy", (), size, dtype)

    def triangular(self, left, mode, right, size=None, dtype=float):
        return self._dist("triangular", (left, mode, right), size, dtype)

    def negative_binomial(self, n, p, size=None, dtype=int):
        return self._dist("negative_binomial", (n, p), size, dtype)

    def geometric(self, p, size=None, dtype=int):
        return self._dist("geometric", (p,), size, dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=int):
        return self._dist("hypergeometric", (ngood, nbad, nsample), size, dtype)

    def logseries(self, p, size=None, dtype=int):
        return self._dist("logseries", (p,), size, dtype)

    def zipf(self, a, size=None, dtype=int):
        return self._dist("zipf", (a,), size, dtype)


def _check_and_get_dtype(dtype):
    """CuPy's check for the float-only samplers: float32 or float64, TypeError otherwise."""
    dtype = _np.dtype(dtype)
    if dtype.char not in "fd":
        raise TypeError("copper.random only supports float32 and float64")
    return dtype


# ---------------- the process-wide RandomState ----------------

_state = None
_state_lock = _threading.Lock()


def get_random_state():
    """The RandomState behind the module functions (CuPy's name). A fresh one is seeded
    from $CUPY_SEED when set, else from OS entropy."""
    global _state
    with _state_lock:
        if _state is None:
            seed = _os.getenv("CUPY_SEED")
            _state = RandomState(None if seed is None else int(seed))
        return _state


def set_random_state(rs):
    """Makes `rs` the RandomState behind the module functions."""
    global _state
    if not isinstance(rs, RandomState):
        raise TypeError("set_random_state needs a copper.random.RandomState")
    with _state_lock:
        _state = rs


def reset_states():
    """Drops the module functions' RandomState; the next call makes a fresh one."""
    global _state
    with _state_lock:
        _state = None


def get_bit_generator():
    """numpy.random.get_bit_generator: the bit generator behind the module functions; it
    draws from their stream, so using it advances them."""
    bg = Philox4x3210.__new__(Philox4x3210)
    bg._engine = _random.Generator()
    bg._engine._share(get_random_state()._generator)
    return bg


def set_bit_generator(bitgen):
    """numpy.random.set_bit_generator: the module functions draw from `bitgen`'s stream from now on."""
    if not isinstance(bitgen, BitGenerator):
        raise TypeError("set_bit_generator needs a copper.random.BitGenerator")
    get_random_state()._use_generator(bitgen._engine)


def seed(seed=None):
    get_random_state().seed(seed)


def get_state(legacy=True):
    return get_random_state().get_state(legacy)


def set_state(state):
    get_random_state().set_state(state)


def rand(*size, dtype=float):
    return get_random_state().random_sample(size, dtype)


def randn(*size, dtype=float):
    return get_random_state().standard_normal(size, dtype)


def randint(low, high=None, size=None, dtype=int):
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    return get_random_state().random_integers(low, high, size)


def random_sample(size=None, dtype=float):
    return get_random_state().random_sample(size, dtype)


random = ranf = sample = random_sample


def choice(a, size=None, replace=True, p=None):
    return get_random_state().choice(a, size, replace, p)


def permutation(x):
    return get_random_state().permutation(x)


def shuffle(x):
    get_random_state().shuffle(x)


def bytes(length):  # noqa: A001 (NumPy's name)
    return get_random_state().bytes(length)


def multinomial(n, pvals, size=None):
    return get_random_state().multinomial(n, pvals, size)


def dirichlet(alpha, size=None, dtype=float):
    return get_random_state().dirichlet(alpha, size, dtype)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-08, method="svd", dtype=float):
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


def _forward(name):
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The process-wide RandomState's {name} (see RandomState.{name})."
    try:  # the method's signature, without self
        import inspect
        sig = inspect.signature(getattr(RandomState, name))
        f.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    except (TypeError, ValueError):
        pass
    return f


_DISTRIBUTIONS = ["uniform", "normal", "standard_normal", "lognormal", "exponential", "standard_exponential",
                  "gamma", "standard_gamma", "beta", "binomial", "poisson", "chisquare", "f", "standard_t",
                  "noncentral_chisquare", "noncentral_f", "vonmises", "wald", "gumbel", "laplace", "logistic",
                  "pareto", "power", "weibull", "rayleigh", "standard_cauchy", "triangular", "negative_binomial",
                  "geometric", "hypergeometric", "logseries", "zipf", "tomaxint"]
for _name in _DISTRIBUTIONS:
    globals()[_name] = _forward(_name)
del _name

__all__ = ["BitGenerator", "Philox4x3210", "XORWOW", "MRG32k3a", "Generator", "RandomState", "default_rng",
           "get_random_state", "set_random_state", "reset_states", "get_bit_generator", "set_bit_generator", "seed", "get_state", "set_state", "rand",
           "randn", "randint", "random_integers", "random_sample", "random", "ranf", "sample", "choice",
           "permutation", "shuffle", "bytes", "multinomial", "dirichlet", "multivariate_normal"] + _DISTRIBUTIONS
