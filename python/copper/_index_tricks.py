"""r_, c_, s_ and index_exp: index-syntax shorthands, argument shaping over concatenate.

r_ and c_ follow NumPy for arrays, sequences and scalars (scalars take part in the
result dtype as Python scalars do in result_type); like CuPy's, they raise
NotImplementedError for slices (ranges) and string directives.
"""
import numbers

import numpy as _numpy

from copper import _core

__all__ = ["AxisConcatenator", "RClass", "CClass", "r_", "c_", "IndexExpression", "s_", "index_exp"]


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
