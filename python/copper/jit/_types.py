"""Types of translated expressions: NumPy dtypes for scalars (promoted by NumPy's rules,
Python literals weak as in NEP 50), arrays, tuples, and Python objects known at
translation time (modules, intrinsics, constants)."""
import math

import numpy as np

C_NAMES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
    "float16": "float16", "float32": "float", "float64": "double",
}

INT64, FLOAT64, BOOL, INT32, UINT32 = (np.dtype(t) for t in ("int64", "float64", "bool", "int32", "uint32"))


_DTYPE_NAMES = {}


def dname(dtype):
    """dtype.name, memoised (NumPy computes it anew on every access)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name
    return name


def c_name(dtype, what="copper.jit"):
    try:
        return C_NAMES[dname(np.dtype(dtype))]
    except KeyError:
        raise TypeError(f"{what} does not support dtype {np.dtype(dtype).name}") from None


class ArrayT:
    """An array: a kernel argument ('c': C-contiguous, indexed flat; 'strided': byte strides),
    or a shared/local array with constant dims ('shared', 'local'; dims None: dynamic shared)."""

    def __init__(self, dtype, ndim, layout, dims=None):
        self.dtype, self.ndim, self.layout, self.dims = np.dtype(dtype), ndim, layout, dims


class TupleT:
    """A tuple of values (grid(2), x.shape, (a, b)); `Val.code` holds the element Vals."""


TUPLE = TupleT()


class ObjectT:
    """A Python object known at translation time (a module, a function, a type)."""


OBJECT = ObjectT()


class Val:
    """A translated expression: C++ code and type; `weak` marks a Python literal (NEP 50: its
    dtype yields to the other operand's) whose value is `const`."""

    __slots__ = ("code", "type", "weak", "const", "positive")

    def __init__(self, code, type_, weak=False, const=None, positive=False):
        self.code, self.type, self.weak, self.const = code, type_, weak, const
        self.positive = positive  # known > 0 (blockDim, gridsize): a range() step needing no sign test

    @property
    def is_lit(self):
        """A literal: a weak value known at translation time."""
        return self.weak and self.const is not None

    @property
    def is_scalar(self):
        return isinstance(self.type, np.dtype)


_PY_SAMPLE = {"b": False, "i": 0, "f": 0.0}


def promote(a, b):
    """NumPy's result dtype of a binary operation on two scalar Vals: a weak value (a Python
    int/float/bool, typed int64/float64/bool) yields to a strong one's dtype (NEP 50)."""
    if a.weak and not b.weak:
        return np.result_type(b.type, _PY_SAMPLE[a.type.kind])
    if b.weak and not a.weak:
        return np.result_type(a.type, _PY_SAMPLE[b.type.kind])
    return np.result_type(a.type, b.type)


def promote_all(vals):
    """promote() over several Vals."""
    out = vals[0]
    for v in vals[1:]:
        out = Val("", promote(out, v), out.weak and v.weak)
    return out.type


def literal(value, dtype):
    """`value` as C++ code of type `dtype`."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "true" if value else "false"
    if dtype.kind in "iu":
        v = int(value)
        suffix = {"int64": "LL", "uint64": "ULL", "uint32": "u", "int32": ""}.get(dname(dtype))
        if suffix is None:
            return f"(({c_name(dtype)}){v})"
        if dname(dtype) == "int64" and v == -2**63:
            return "(-9223372036854775807LL - 1)"
        return f"{v}{suffix}"
    v = float(value)
    if math.isnan(v):
        text = "__builtin_nan(\"\")"
    elif math.isinf(v):
        text = "__builtin_huge_val()" if v > 0 else "(-__builtin_huge_val())"
    else:
        text = repr(v)
    if dname(dtype) == "float64":
        return text
    if dname(dtype) == "float32":
        return text + "f" if math.isfinite(v) else f"((float){text})"
    return f"(({c_name(dtype)}){text})"


def cast(val, dtype):
    """Code of a scalar Val converted to `dtype`."""
    dtype = np.dtype(dtype)
    if isinstance(val.const, (bool, int, float, np.generic)):
        return literal(val.const, dtype)
    if val.type == dtype:
        return val.code
    return f"(({c_name(dtype)})({val.code}))"
