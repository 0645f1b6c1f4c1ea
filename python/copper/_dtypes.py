"""NumPy's dtype objects and names, re-exported so ``cp.float32`` works as ``np.float32``."""
import numpy as _np

from copper import _core

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
# NumPy's other names for the same scalar types (C names, platform aliases), and its
# abstract type hierarchy for issubdtype/isinstance checks (CuPy re-exports them too).
byte, short, intc, int_, intp, long, longlong = _np.byte, _np.short, _np.intc, _np.int_, _np.intp, _np.long, _np.longlong
ubyte, ushort, uintc, uint, uintp, ulong, ulonglong = (_np.ubyte, _np.ushort, _np.uintc, _np.uint, _np.uintp, _np.ulong,
                                                       _np.ulonglong)
half, single, double, csingle, cdouble = _np.half, _np.single, _np.double, _np.csingle, _np.cdouble
generic, number, integer, signedinteger, unsignedinteger = (_np.generic, _np.number, _np.integer, _np.signedinteger,
                                                            _np.unsignedinteger)
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating
issubdtype = _np.issubdtype
dtype = _np.dtype
newaxis = None
inf, nan, pi, e = _np.inf, _np.nan, _np.pi, _np.e
promote_types = _core.promote_types
can_cast = _core.can_cast


def result_type(*arrays_and_dtypes):
    """numpy.result_type with NEP 50 rules: Python scalars are weak."""
    return _core.result_type_of(*arrays_and_dtypes)


def common_type(*arrays):
    """numpy.common_type: the inexact scalar type the arrays share (integers count as
    float64). Only their dtypes are read."""
    return _np.common_type(*[_np.empty(0, dtype=a.dtype) for a in arrays])


__all__ = [
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "dtype", "newaxis",
    "inf", "nan", "pi", "e", "promote_types", "can_cast", "result_type", "common_type",
    "byte", "short", "intc", "int_", "intp", "long", "longlong", "ubyte", "ushort", "uintc", "uint", "uintp", "ulong",
    "ulonglong", "half", "single", "double", "csingle", "cdouble", "generic", "number", "integer", "signedinteger",
    "unsignedinteger", "inexact", "floating", "complexfloating", "issubdtype",
]
