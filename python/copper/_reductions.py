"""Reductions, statistics and scans. All are bound in C++ (copper._core: sum, prod,
mean, var, std, min, max, amin, amax, all, any, argmin, argmax, cumsum, cumprod,
count_nonzero and the nan forms), so nothing here but the names it exports."""

__all__ = []
