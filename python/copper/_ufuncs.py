"""The elementwise operations (NumPy's ufuncs) live in copper._core, bound in C++
(python/src/bind_ufunc_type.cpp, bind_ufuncs.cpp) for low per-call overhead: the
``copper.ufunc`` type with one instance per op of the catalogue (and NumPy 2's aliases),
where, clip, around/round, real, imag, angle, and ndarray's operators. This module only
names them for ``from copper._ufuncs import *``."""
from copper import _core

_FUNCTIONS = ("ufunc", "clip", "where", "around", "round", "real", "imag", "angle")
_NAMES = tuple(sorted(name for name, obj in vars(_core).items() if isinstance(obj, _core.ufunc))) + _FUNCTIONS

globals().update({name: getattr(_core, name) for name in _NAMES})
__all__ = list(_NAMES)
