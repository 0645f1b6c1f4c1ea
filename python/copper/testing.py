"""Array assertions in CuPy's shape (``cupy.testing``): NumPy's ``numpy.testing`` checks,
accepting copper arrays, NumPy arrays and scalars on either side. copper arrays are copied
to the host and compared there by NumPy, so messages and tolerances are NumPy's own.
"""
import numpy as _np
import numpy.testing as _npt

from copper import _core

__all__ = [
    "assert_allclose", "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_max_ulp",
    "assert_array_equal", "assert_array_list_equal", "assert_array_less", "assert_equal",
    "assert_almost_equal", "assert_raises", "assert_warns",
]

assert_raises = _npt.assert_raises
assert_warns = _npt.assert_warns


def _host(x):
    """NumPy's view of `x`: copper arrays (also inside lists and tuples) come to the host."""
    if isinstance(x, _core.ndarray):
        return x.get()
    if isinstance(x, (list, tuple)) and any(isinstance(e, _core.ndarray) for e in x):
        return type(x)(_host(e) for e in x)
    return x


def assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg="", verbose=True, *, strict=False):
    """numpy.testing.assert_allclose with copper arrays on either side."""
    _npt.assert_allclose(_host(actual), _host(desired), rtol=rtol, atol=atol, equal_nan=equal_nan,
                         err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    """numpy.testing.assert_array_almost_equal with copper arrays on either side."""
    _npt.assert_array_almost_equal(_host(x), _host(y), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    """numpy.testing.assert_almost_equal with copper arrays on either side."""
    _npt.assert_almost_equal(_host(actual), _host(desired), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    """numpy.testing.assert_array_almost_equal_nulp with copper arrays on either side."""
    _npt.assert_array_almost_equal_nulp(_host(x), _host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    """numpy.testing.assert_array_max_ulp with copper arrays on either side."""
    _npt.assert_array_max_ulp(_host(a), _host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False, strides_check=False):
    """numpy.testing.assert_array_equal with copper arrays on either side; CuPy's
    strides_check=True also compares the strides of array operands."""
    x_h, y_h = _host(actual), _host(desired)
    _npt.assert_array_equal(x_h, y_h, err_msg=err_msg, verbose=verbose, strict=strict)
    if strides_check and isinstance(x_h, _np.ndarray) and isinstance(y_h, _np.ndarray):
        if actual.strides != desired.strides:
            raise AssertionError(f"strides do not match: {actual.strides} != {desired.strides}" + (f"\n{err_msg}" if err_msg else ""))


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """CuPy's assert_array_list_equal: two lists of arrays, equal pairwise."""
    if len(xlist) != len(ylist):
        raise AssertionError(f"List size is different: {len(xlist)} != {len(ylist)}")
    for x, y in zip(xlist, ylist):
        assert_array_equal(x, y, err_msg=err_msg, verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    """numpy.testing.assert_array_less with copper arrays on either side."""
    _npt.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose, strict=strict)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """numpy.testing.assert_equal with copper arrays on either side."""
    _npt.assert_equal(_host(actual), _host(desired), err_msg=err_msg, verbose=verbose, strict=strict)
