"""NumPy's alias and abstract scalar-type names: the same objects as NumPy's, usable as
dtype= on both devices and in issubdtype."""
import numpy as np
import pytest

import copper as cp

ALIASES = ["byte", "short", "intc", "int_", "intp", "long", "longlong", "ubyte", "ushort", "uintc", "uint", "uintp",
           "ulong", "ulonglong", "half", "single", "double", "csingle", "cdouble"]
ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating"]


@pytest.mark.parametrize("name", ALIASES)
def test_alias_makes_numpys_dtype(device, name):
    assert getattr(cp, name) is getattr(np, name)
    assert cp.zeros(3, dtype=getattr(cp, name)).dtype == np.zeros(3, dtype=getattr(np, name)).dtype


@pytest.mark.parametrize("name", ABSTRACT)
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.int64, np.float16, np.float64, np.complex64])
def test_issubdtype_abstract(device, name, dtype):
    a = cp.ones(2, dtype=dtype)
    assert cp.issubdtype(a.dtype, getattr(cp, name)) == np.issubdtype(np.dtype(dtype), getattr(np, name))
