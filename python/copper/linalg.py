"""numpy.linalg for copper arrays (CuPy's cupy.linalg).

The work happens in C++ (copper._core._linalg); this module only shapes arguments and
wraps results into NumPy's named tuples. Factorizations run where the array lives: CPU
arrays in LAPACK (loaded at run time: $COPPER_LAPACK_PATH, OpenBLAS or liblapack.so.3;
float32/complex64 computed in double precision, as NumPy does), GPU arrays in cuSOLVER
($COPPER_CUSOLVER_PATH, libcusolver.so.12; float32/complex64 in single precision, as
CuPy does). Errors are numpy.linalg.LinAlgError, as NumPy raises them.
"""
from collections import namedtuple

import numpy as _np

from copper import _core
from copper import _numerical

_l = _core._linalg
LinAlgError = _np.linalg.LinAlgError

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
QRResult = namedtuple("QRResult", ["Q", "R"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])

norm = _l.norm
cond = _l.cond
det = _l.det
inv = _l.inv
solve = _l.solve
cholesky = _l.cholesky
eigvalsh = _l.eigvalsh
lstsq = _l.lstsq
matrix_power = _l.matrix_power
multi_dot = _l.multi_dot
tensorinv = _l.tensorinv
tensorsolve = _l.tensorsolve


# eig and eigvals return complex arrays (NumPy 2.5, CuPy; the C++ API always does). With an
# older NumPy installed, copper follows it instead: real arrays when every eigenvalue is real
# (NumPy up to 2.4 cast them), so that code written against the installed NumPy sees the same
# dtypes. That check reads the eigenvalues back, as NumPy's does.
_EIG_VALUE_DEPENDENT = _np.lib.NumpyVersion(_np.__version__) < "2.5.0"


def _legacy_real(w, arrays):
    if w.size == 0 or not bool(_core.any(_core.imag(w) != 0)):
        return [_core.real(x).copy() for x in arrays]
    return arrays


def eig(a):
    w, v = _l.eig(a)
    if _EIG_VALUE_DEPENDENT and not _is_complex_input(a):
        w, v = _legacy_real(w, [w, v])
    return EigResult(w, v)


def eigvals(a):
    w = _l.eigvals(a)
    if _EIG_VALUE_DEPENDENT and not _is_complex_input(a):
        (w,) = _legacy_real(w, [w])
    return w


def _is_complex_input(a):
    dt = getattr(a, "dtype", None)
    return _np.dtype(dt).kind == "c" if dt is not None else _np.asarray(a).dtype.kind == "c"

_no_value = object()

# numpy.linalg's Array API names that are top-level functions with the same meaning.
matmul = _core.matmul
tensordot = _core.tensordot


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return _l.norm(x, ord, (-2, -1), keepdims)


def slogdet(a):
    return SlogdetResult(*_l.slogdet(a))


def eigh(a, UPLO="L"):
    return EighResult(*_l.eigh(a, UPLO))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    r = _l.svd(a, full_matrices, compute_uv, hermitian)
    return SVDResult(*r) if compute_uv else r


def svdvals(x, /):
    return _l.svd(x, True, False, False)


def qr(a, mode="reduced"):
    r = _l.qr(a, mode)
    return QRResult(*r) if mode in ("reduced", "complete") else r


def _eps_times_size(a):
    shape = a.shape if hasattr(a, "shape") else _np.shape(a)
    dtype = getattr(a, "dtype", None)
    real = _np.float32 if dtype in (_np.float32, _np.complex64) else _np.float64
    return max(shape[-2:]) * _np.finfo(real).eps


def pinv(a, rcond=None, hermitian=False, *, rtol=_no_value):
    if rcond is None:
        if rtol is _no_value:
            rcond = 1e-15
        elif rtol is None:
            rcond = _eps_times_size(a)
        else:
            rcond = rtol
    elif rtol is not _no_value:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if (rcond.ndim if isinstance(rcond, _core.ndarray) else _np.ndim(rcond)) == 0:
        return _l.pinv(a, float(rcond), hermitian)
    return _pinv_per_matrix(a, rcond, hermitian)


def _pinv_per_matrix(a, rcond, hermitian):
    """pinv with one cutoff per matrix of a stack (an array rcond/rtol broadcast against the
    stack's leading dimensions, as NumPy's): A+ = V diag(1/s where s > rcond * max(s)) U^H."""
    if not isinstance(a, _core.ndarray):
        a = _core.asarray(a)
    rc = _core.asarray(rcond, device=a.device)
    if a.size == 0:
        _np.broadcast_shapes(tuple(rc.shape) + (1,), tuple(a.shape[:-1]))  # NumPy's shape error
        return _l.pinv(a, 0.0, hermitian)
    u, s, vt = svd(a, full_matrices=False, hermitian=hermitian)
    cutoff = _core.expand_dims(rc, -1) * _core.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    s_inv = _core.where(large, 1 / _core.where(large, s, 1), 0)
    vh_t = _core.conj(_core.swapaxes(vt, -1, -2))
    u_h = _core.conj(_core.swapaxes(u, -1, -2))
    return _core.matmul(vh_t, _core.expand_dims(s_inv, -1) * u_h)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    if _is_number(tol) and _is_number(rtol):
        return _l.matrix_rank(A, tol, hermitian, rtol)
    # Array tolerances, one per matrix of a stack (broadcast against it), as NumPy's.
    A = _core.asarray(A)
    if A.ndim < 2:
        return _l.matrix_rank(A, None, hermitian, None)
    s = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        tol = _core.max(s, axis=-1, keepdims=True) * _core.expand_dims(_core.asarray(rtol, device=A.device), -1)
    else:
        tol = _core.expand_dims(_core.asarray(tol, device=A.device), -1)
    return _core.count_nonzero(s > tol, axis=-1)


def _is_number(x):
    """None or a Python/NumPy real number (what the C++ matrix_rank takes)."""
    return x is None or (isinstance(x, (int, float, _np.integer, _np.floating)) and not isinstance(x, bool))


# The array API standard's linalg extension: its names and keyword-only signatures over
# copper's top-level functions (NumPy 2's numpy.linalg has the same ones).
def cross(x1, x2, /, *, axis=-1):
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: both inputs must have 3 elements along the axis "
                         f"(got {x1.shape[axis]} and {x2.shape[axis]})")
    return _core.cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    return _core.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    return _core.trace(x, offset, -2, -1, dtype)


def outer(x1, x2, /):
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: inputs must be 1-d (got {x1.ndim}-d and {x2.ndim}-d)")
    return _core.outer(x1, x2)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    return _core._vector_norm(x, axis, keepdims, float(ord))


matrix_transpose = _core.matrix_transpose


def vecdot(x1, x2, /, *, axis=-1):
    # NumPy's gufunc (copper.vecdot) with the array API's signature: axis is each operand's own.
    return _numerical.vecdot(x1, x2, axis=axis)


# Keep last: C++ functions bound above become inspectable (inspect.signature).
from copper import _signatures  # noqa: E402

_signatures.make_inspectable(globals(), __name__)
