"""The elementwise operations (NumPy's ufuncs) live in copper._core, bound in C++
(python/src/bind_ufuncs.cpp) for low per-call overhead: every ufunc and NumPy 2 alias,
where, clip, around/round, real, imag, angle, and ndarray's operators. Nothing to add here;
this module only names them for ``from copper._ufuncs import *``."""
from copper import _core

_NAMES = (
    "negative positive absolute reciprocal square sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan "
    "arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint sign logical_not invert "
    "isnan isinf isfinite conjugate angle add subtract multiply true_divide floor_divide remainder fmod power "
    "arctan2 hypot maximum minimum fmax fmin greater greater_equal less less_equal equal not_equal logical_and "
    "logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift clip where around round "
    "real imag abs divide mod conj bitwise_not bitwise_invert pow acos asin atan acosh asinh atanh atan2 "
    "bitwise_left_shift bitwise_right_shift "
    "signbit copysign nextafter logaddexp logaddexp2"
).split()

globals().update({name: getattr(_core, name) for name in _NAMES})
__all__ = list(_NAMES)
