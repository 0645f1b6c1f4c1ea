"""bincount with NumPy's positional-only x (the rest of the counting functions are bound
in C++: copper._core.histogram, histogram_bin_edges, histogram2d, histogramdd)."""
from copper import _core

__all__ = ["bincount"]


def bincount(x, /, weights=None, minlength=0):
    """Counts of each non-negative integer in x (numpy.bincount)."""
    return _core._bincount(x, weights, minlength)
