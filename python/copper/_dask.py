"""Dask's per-type dispatch for copper chunks, registered when Dask is imported (now, or
later through a post-import hook: copper does not import Dask itself).

Dask computes element counts for mean/var/std as NumPy arrays unless a chunk type
registers otherwise (it does so for CuPy); mixing those with copper chunks would need an
implicit host-to-device conversion, which copper refuses. Here the counts are copper
arrays on the chunk's device, and Dask's memory accounting sees a chunk's real size.
"""
import importlib.abc
import importlib.util
import math
import sys

import numpy as np

from copper import _core


def _numel(x, **kwargs):
    """The element count of a chunk reduced as Dask asks (axis, keepdims, dtype), as a
    copper array on x's device (a NumPy scalar for a full reduction, as Dask's own)."""
    shape = x.shape
    keepdims = kwargs.get("keepdims", False)
    axis = kwargs.get("axis")
    dtype = kwargs.get("dtype", np.float64)
    if axis is None:
        count = np.prod(shape, dtype=dtype)
        if not keepdims:
            return count
        return _core.full((1,) * len(shape), count.item(), dtype=dtype, device=x.device)
    axes = axis if isinstance(axis, (tuple, list)) else [axis]
    axes = [a % len(shape) for a in axes]
    count = math.prod(shape[d] for d in axes)
    if keepdims:
        new_shape = tuple(1 if d in axes else n for d, n in enumerate(shape))
    else:
        new_shape = tuple(n for d, n in enumerate(shape) if d not in axes)
    return _core.full(new_shape, count, dtype=dtype, device=x.device)


def _nannumel(x, **kwargs):
    return _core.sum(_core.logical_not(_core.isnan(x)), **kwargs)


def _register(dispatch_module=None, sizeof_module=None):
    if dispatch_module is not None:
        dispatch_module.numel_lookup.register(_core.ndarray, _numel)
        dispatch_module.nannumel_lookup.register(_core.ndarray, _nannumel)
    if sizeof_module is not None:
        sizeof_module.sizeof.register(_core.ndarray, lambda x: int(x.nbytes))


_WATCHED = {"dask.array.dispatch": "dispatch_module", "dask.sizeof": "sizeof_module"}


class _PostImportHook(importlib.abc.MetaPathFinder):
    """Runs _register on a watched Dask module right after it is executed."""

    def find_spec(self, name, path, target=None):
        if name not in _WATCHED:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_register(module):
            exec_module(module)
            _register(**{_WATCHED[name]: module})

        spec.loader.exec_module = exec_and_register
        return spec


def install():
    for name, keyword in _WATCHED.items():
        if name in sys.modules:
            _register(**{keyword: sys.modules[name]})
    if not any(isinstance(f, _PostImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _PostImportHook())


install()
