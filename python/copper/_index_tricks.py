"""r_, c_, s_, index_exp, mgrid and ogrid: index-syntax shorthands, argument shaping over
concatenate, arange and indices.

r_ and c_ follow NumPy for arrays, sequences and scalars (scalars take part in the
result dtype as Python scalars do in result_type); like CuPy's, they raise
NotImplementedError for slices (ranges) and string directives.
"""
import math
import numbers

import numpy as _numpy

from copper import _core

__all__ = ["AxisConcatenator", "RClass", "CClass", "r_", "c_", "IndexExpression", "s_", "index_exp",
           "MGridClass", "OGridClass", "mgrid", "ogrid"]


def _device_of(items):
    for item in items:
        if isinstance(item, _core.ndarray):
            return item.device
    return None


def _at_least(a, ndmin, trans1d):
    """a with ndmin dimensions: new axes go in front, then, for trans1d != -1, the
    array's own axes move to position trans1d (NumPy's rule for 1-d items of c_)."""
    nd = a.ndim
    if nd >= ndmin:
        return a
    a = _core.reshape(a, (1,) * (ndmin - nd) + tuple(a.shape))
    if trans1d != -1:
        k1 = trans1d if trans1d >= 0 else trans1d + ndmin + 1 - nd
        k2 = ndmin - nd
        axes = list(range(ndmin))
        a = _core.transpose(a, axes[:k1] + axes[k2:] + axes[k1:k2])
    return a


class AxisConcatenator:
    """Concatenates the items of an index along `axis` (see r_ and c_)."""

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        if matrix:
            raise NotImplementedError("matrix output is not supported")
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        device = _device_of(items)
        objs, dtype_objs = [], []
        for item in items:
            if isinstance(item, slice):
                raise NotImplementedError("slices (ranges) in r_/c_ are not supported")
            if isinstance(item, str):
                raise NotImplementedError("string directives in r_/c_ are not supported")
            if isinstance(item, (numbers.Number, _numpy.generic)):
                obj = _core.array(item, device=device)
                dtype_objs.append(item)
            else:
                obj = item if isinstance(item, _core.ndarray) else _core.array(item, device=device)
                dtype_objs.append(obj)
            objs.append(_at_least(obj, self.ndmin, self.trans1d))
        if not objs:
            return _core.concatenate(objs, axis=self.axis)  # NumPy's "need at least one array" error
        dtype = _core.result_type_of(*dtype_objs)
        return _core.concatenate([o.astype(dtype, copy=False) for o in objs], axis=self.axis)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """r_[a, b, ...]: concatenation along the first axis (1-d at least)."""

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """c_[a, b, ...]: concatenation along the last axis, 1-d items as columns."""

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


class IndexExpression:
    """s_[...] returns the index itself; index_exp[...] the index as a tuple."""

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


index_exp = IndexExpression(maketuple=True)
s_ = IndexExpression(maketuple=False)


def _grid_axis(key):
    """(start, stop, step, count) of one slice of mgrid/ogrid. A complex step means "count
    points from start to stop inclusive" (linspace-like); then step is the spacing."""
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, (complex, _numpy.complexfloating)):
        count = int(abs(step))
        spacing = 1 if count == 1 else (key.stop - start) / float(count - 1)
        return start, key.stop, spacing, count, abs(step)
    return start, key.stop, step, int(math.ceil((key.stop - start) / (step * 1.0))), step


class _GridClass:
    """mgrid/ogrid: slices become coordinate grids, as NumPy's nd_grid (dense or sparse)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        axes = [_grid_axis(k) for k in key]
        dtype = _core.result_type_of(0, *[v for start, stop, _, _, raw in axes for v in (start, stop, raw)])
        sizes = [count for _, _, _, count, _ in axes]
        if self.sparse:
            grids = []
            for k, (start, _, step, count, _) in enumerate(axes):
                g = _core.arange(count, dtype=dtype) * step + start
                grids.append(g[tuple(slice(None) if j == k else None for j in range(len(axes)))])
            return tuple(grids)
        grid = _core.indices(sizes, dtype=dtype)
        for k, (start, _, step, _, _) in enumerate(axes):
            grid[k] = grid[k] * step + start
        return grid

    @staticmethod
    def _one(key):
        """A single slice: a 1-d range (arrays as bounds broadcast against it)."""
        step = key.step
        if not isinstance(step, (complex, _numpy.complexfloating)):
            return _core.arange(0 if key.start is None else key.start, key.stop, step)
        start, stop, spacing, count, raw = _grid_axis(key)
        return _core.arange(0, count, 1, dtype=_core.result_type_of(start, stop, raw)) * spacing + start

    def __len__(self):
        return 0


class MGridClass(_GridClass):
    """mgrid[0:3, 0:1:5j]: a dense grid, one coordinate array per slice stacked on axis 0."""

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(_GridClass):
    """ogrid[0:3, 0:1:5j]: an open grid, a tuple of arrays that broadcast against each other."""

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()
