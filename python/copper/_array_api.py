"""The Python array API standard on copper (the version the installed NumPy implements:
2024.12, or 2025.12 from NumPy 2.5, whose eig is always complex as that version asks): the namespace is the ``copper``
package itself (``x.__array_namespace__()`` returns it), not a wrapper. This module adds
the standard's introspection (``__array_namespace_info__``, ``finfo``, ``iinfo``,
``isdtype``), ``astype`` as a function, ``ndarray.to_device`` / ``mT``, and the standard's
names for functions NumPy spells otherwise. Dtype facts and argument shaping only: the
functions it names are copper's C++ ones.
"""
import numpy as _np

from copper import _core

_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
# copper follows NumPy, and the standard's versions differ where NumPy changed (eig's
# dtype, tuples for broadcast_arrays and devices()): claim the version NumPy claims.
__array_api_version__ = getattr(_np, "__array_api_version__", "2024.12")
if __array_api_version__ not in _SUPPORTED_VERSIONS:
    __array_api_version__ = _SUPPORTED_VERSIONS[-1]

bool = _np.bool_  # noqa: A001  (the standard's name for the boolean dtype)

_DTYPES = {
    "bool": _np.dtype("bool"),
    "int8": _np.dtype("int8"), "int16": _np.dtype("int16"),
    "int32": _np.dtype("int32"), "int64": _np.dtype("int64"),
    "uint8": _np.dtype("uint8"), "uint16": _np.dtype("uint16"),
    "uint32": _np.dtype("uint32"), "uint64": _np.dtype("uint64"),
    "float32": _np.dtype("float32"), "float64": _np.dtype("float64"),
    "complex64": _np.dtype("complex64"), "complex128": _np.dtype("complex128"),
}
_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
          "numeric")


def _dtype_of(x):
    """A NumPy dtype from a dtype, a scalar type or anything with a .dtype (a copper array)."""
    if isinstance(x, _np.dtype):
        return x
    if isinstance(x, _core.ndarray) or (hasattr(x, "dtype") and not isinstance(x, type)):
        return _np.dtype(x.dtype)
    return _np.dtype(x)


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind`: a dtype, one of the standard's kind names ('bool',
    'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric'), or a tuple of these."""
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if not isinstance(dtype, _np.dtype):
        if isinstance(dtype, str) or not (isinstance(dtype, type) and issubclass(dtype, _np.generic)):
            raise TypeError(f"isdtype: expected a dtype, got {dtype!r}")
        dtype = _np.dtype(dtype)
    if isinstance(kind, str):
        return _core._isdtype_kind(dtype, kind)
    if isinstance(kind, _np.dtype) or (isinstance(kind, type) and issubclass(kind, _np.generic)):
        return dtype == _np.dtype(kind)
    raise TypeError(f"isdtype: kind must be a dtype, a kind name or a tuple of them, not {kind!r}")


class finfo:
    """Machine limits of a floating dtype (complex: of its real part), with the standard's
    attributes as Python floats; NumPy's other attributes pass through."""

    def __init__(self, type, /):  # noqa: A002  (NumPy's and the standard's parameter name)
        self._np = _np.finfo(_dtype_of(type))
        self.bits = int(self._np.bits)
        self.eps = float(self._np.eps)
        self.max = float(self._np.max)
        self.min = float(self._np.min)
        self.smallest_normal = float(self._np.smallest_normal)
        self.dtype = self._np.dtype

    def __getattr__(self, name):
        return getattr(self._np, name)

    def __repr__(self):
        return repr(self._np).replace("finfo(", "copper.finfo(", 1)


class iinfo:
    """Machine limits of an integer dtype (bits, min, max as Python ints)."""

    def __init__(self, type, /):  # noqa: A002
        self._np = _np.iinfo(_dtype_of(type))
        self.bits = int(self._np.bits)
        self.min = int(self._np.min)
        self.max = int(self._np.max)
        self.dtype = self._np.dtype

    def __getattr__(self, name):
        return getattr(self._np, name)

    def __repr__(self):
        return repr(self._np).replace("iinfo(", "copper.iinfo(", 1)


def astype(x, dtype, /, *, copy=True, device=None):
    """x as `dtype` (and on `device`); copy=False returns x itself where nothing changes."""
    out = x.astype(dtype, copy=copy)
    if device is not None and out.device != _core.Device(device):
        out = _core.asarray(out, device=device)
    return out


def concat(arrays, /, *, axis=0):
    """The standard's name for concatenate (axis=None joins the flattened arrays)."""
    return _core.concatenate(arrays, axis=axis)


class _Info:
    """What copper supports, as the standard's inspection API reports it."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _core.get_default_device()

    def devices(self):
        out = [_core.Device("cpu")]
        try:
            from copper import cuda
            out += [_core.Device(f"cuda:{i}") for i in range(cuda.runtime.getDeviceCount())]
        except Exception:  # no driver: the CPU only
            pass
        return tuple(out) if __array_api_version__ >= "2025.12" else out

    def default_dtypes(self, *, device=None):
        return {"real floating": _DTYPES["float64"], "complex floating": _DTYPES["complex128"],
                "integral": _DTYPES["int64"], "indexing": _DTYPES["int64"]}

    def dtypes(self, *, device=None, kind=None):
        if kind is None:
            return dict(_DTYPES)
        if isinstance(kind, str) and kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}")
        return {name: d for name, d in _DTYPES.items() if isdtype(d, kind)}


_info = _Info()


def __array_namespace_info__():
    return _info


def _array_namespace(self, /, *, api_version=None):
    if api_version is not None and api_version not in _SUPPORTED_VERSIONS:
        raise ValueError(f"copper implements the array API versions {', '.join(_SUPPORTED_VERSIONS)}, "
                         f"not {api_version!r}")
    import copper
    return copper


def _to_device(self, device, /, *, stream=None):
    """A copy on `device` (self where it already lives there). The copy is enqueued on
    copper's current stream (`stream`, a copper.cuda.Stream, while it runs)."""
    if stream is not None and hasattr(stream, "__enter__"):
        with stream:
            return _to_device(self, device)
    if self.device == _core.Device(device):
        return self
    return _core.asarray(self, device=device)


def _matrix_transpose_property(self):
    if self.ndim < 2:  # NumPy's ndarray.mT words this apart from matrix_transpose()
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return _core.matrix_transpose(self)


_core.ndarray.__array_namespace__ = _array_namespace
_core.ndarray.to_device = _to_device
_core.ndarray.mT = property(_matrix_transpose_property)

__all__ = ["__array_api_version__", "__array_namespace_info__", "bool", "isdtype", "finfo", "iinfo", "astype",
           "concat"]
