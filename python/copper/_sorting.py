"""Sorting, searching and sets. sort, argsort, lexsort, partition, argpartition,
sort_complex, searchsorted, digitize, isin, union1d, setdiff1d and setxor1d are bound in
C++ (copper._core); here only NumPy's result shapes for unique and intersect1d."""
from collections import namedtuple

from copper import _core

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "intersect1d"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """numpy.unique; the result is always sorted (sorted=False is accepted)."""
    values, index, inverse, counts = _core._unique(ar, bool(return_index), bool(return_inverse),
                                                   bool(return_counts), axis, bool(equal_nan))
    extra = [x for flag, x in ((return_index, index), (return_inverse, inverse), (return_counts, counts)) if flag]
    return (values, *extra) if extra else values


def unique_all(x):
    values, index, inverse, counts = _core._unique(x, True, True, True, None, False)
    return UniqueAllResult(values, index, inverse, counts)


def unique_counts(x):
    values, _, _, counts = _core._unique(x, False, False, True, None, False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    values, _, inverse, _ = _core._unique(x, False, True, False, None, False)
    return UniqueInverseResult(values, inverse)


def unique_values(x):
    return _core._unique(x, False, False, False, None, False)[0]


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    values, ind1, ind2 = _core._intersect1d(ar1, ar2, bool(assume_unique), bool(return_indices))
    return (values, ind1, ind2) if return_indices else values
