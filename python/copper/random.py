"""Random numbers in NumPy's ``numpy.random`` shape (and CuPy's ``cupy.random``).

``default_rng(seed)`` returns a ``Generator`` on a counter-based Philox4x32-10 bit
generator: the same seed gives the same raw bits and the same uniforms and integers on
the CPU and on a GPU. Arrays land on the default device; ``size=None`` gives a 0-d
array (as CuPy), not a Python scalar. The legacy functions (``rand``, ``randn``,
``randint``, ``seed``, ...) use one process-wide ``RandomState`` on the same engine:
``seed(s); rand(n)`` equals ``default_rng(s).random(n)``.
"""
from copper import _core

_random = _core._random
Generator = _random.Generator


class RandomState(_random.RandomState):
    """NumPy's legacy generator API on the Philox engine."""

    def rand(self, *size):
        return self._rand(size)

    def randn(self, *size):
        return self._randn(size)


def default_rng(seed=None):
    """A Generator seeded with a non-negative int (or entropy from the OS for None)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


_global = _random._global_state()


def seed(seed=None):
    _global.seed(seed)


def rand(*size):
    return _global._rand(size)


def randn(*size):
    return _global._randn(size)


def randint(low, high=None, size=None, dtype=int):
    return _global.randint(low, high, size, dtype)


def random_sample(size=None):
    return _global.random_sample(size)


def random(size=None):
    return _global.random_sample(size)


ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None):
    return _global.uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _global.normal(loc, scale, size)


def standard_normal(size=None):
    return _global.standard_normal(size)


def get_random_state():
    """The RandomState behind the module functions (CuPy's name)."""
    return _global


__all__ = ["Generator", "RandomState", "default_rng", "seed", "rand", "randn", "randint", "random_sample",
           "random", "ranf", "sample", "uniform", "normal", "standard_normal", "get_random_state"]
