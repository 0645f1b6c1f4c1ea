"""NumPy's dispatch protocols (NEP 13 __array_ufunc__, NEP 18 __array_function__): NumPy
functions called on copper arrays run in copper and return copper arrays; what copper
lacks, and mixes with NumPy arrays, raise TypeError; implicit conversion stays refused."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array


@pytest.fixture
def xy(device):
    rng = np.random.default_rng(5)
    a, b = random_array(rng, (3, 4), np.float64), random_array(rng, (3, 4), np.float64)
    return a, b, cp.asarray(a), cp.asarray(b)


@pytest.mark.parametrize("name", ["sin", "exp", "negative", "absolute", "sqrt", "isnan", "signbit"])
def test_unary_ufuncs(xy, name):
    a, _, x, _ = xy
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a)
    got = getattr(np, name)(x)
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power", "maximum", "hypot",
                                  "copysign", "logaddexp", "greater", "arctan2"])
def test_binary_ufuncs_with_scalars_and_arrays(xy, name):
    a, b, x, y = xy
    f = getattr(np, name)
    with np.errstate(all="ignore"):
        for got, want in ((f(x, y), f(a, b)), (f(x, 2), f(a, 2)), (f(1.5, y), f(1.5, b)),
                          (f(x, np.float32(3)), f(a, np.float32(3)))):
            assert isinstance(got, cp.ndarray)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-12, equal_nan=True)


def test_out_argument(xy):
    a, b, x, y = xy
    out = cp.empty_like(x)
    r = np.add(x, y, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), a + b)
    np.sin(x, out=(out,))
    np.testing.assert_allclose(out.get(), np.sin(a))


def test_operators_with_numpy_scalars_on_the_left(xy):
    a, _, x, _ = xy
    got = np.float64(2) * x
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(got.get(), 2 * a)


def test_mixing_numpy_arrays_raises(xy):
    """As in CuPy: NumPy's functions never mix NumPy and copper arrays (no silent host
    round trip), whichever comes first."""
    a, b, x, y = xy
    with pytest.raises(TypeError):
        np.add(x, b)
    with pytest.raises(TypeError):
        np.add(a, y)
    with pytest.raises(TypeError):
        a - y  # NumPy's operator goes through np.subtract
    with pytest.raises(TypeError):
        np.add(a, b, out=cp.empty((3, 4)))
    with pytest.raises(TypeError):
        np.add(x, y, out=np.empty((3, 4)))
    with pytest.raises(TypeError):
        np.concatenate([x, b])


def test_implicit_conversion_refused(xy):
    _, _, x, _ = xy
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(x)


@pytest.mark.parametrize("method, axis", [("reduce", None), ("reduce", 0), ("reduce", 1), ("accumulate", 1)])
@pytest.mark.parametrize("ufunc", ["add", "multiply", "maximum", "minimum", "logical_and"])
def test_ufunc_methods_fall_back_to_copper_equivalents(device, ufunc, method, axis):
    rng = np.random.default_rng(6)
    a = random_array(rng, (4, 5), np.int32, -3, 3)
    x = cp.asarray(a)
    f = getattr(getattr(np, ufunc), method)
    kwargs = {} if axis is None else {"axis": axis}
    try:
        want = f(a, **kwargs)
    except TypeError:
        return
    try:
        got = f(x, **kwargs)
    except TypeError:  # copper has no equivalent yet (maximum.accumulate, ...)
        assert method == "accumulate" and ufunc not in ("add", "multiply")
        return
    assert isinstance(got, cp.ndarray)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


def test_ufunc_outer_reduceat_and_at(xy):
    a, b, x, y = xy
    got = np.multiply.outer(x[0], y[:, 1])
    np.testing.assert_allclose(got.get(), np.multiply.outer(a[0], b[:, 1]))
    # copper's ufunc objects have reduceat and at: NumPy's calls run them on copper arrays.
    got = np.add.reduceat(x[0], [0, 2])
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(got.get(), np.add.reduceat(a[0], [0, 2]))
    want = a.copy()
    np.add.at(want, [0, 0], 1)
    np.add.at(x, [0, 0], 1)
    np.testing.assert_allclose(x.get(), want)
    with pytest.raises(TypeError):  # NumPy arrays as out= are never written through copper
        np.add(x, 1, out=np.empty_like(a))


def test_ufunc_methods_use_copper_ufunc_attributes(monkeypatch, xy):
    """Where copper's ufunc object has the method, NumPy's call goes to it."""
    _, _, x, _ = xy
    calls = []

    class FakeUfunc:
        def __call__(self, *a, **k):
            return cp._core.add(*a, **k)

        def reduceat(self, *a, **k):
            calls.append((a, k))
            return "copper's own"

    monkeypatch.setattr(cp, "add", FakeUfunc())
    assert np.add.reduceat(x, [0, 2], axis=1) == "copper's own"
    assert calls


def test_array_functions(xy):
    a, b, x, y = xy
    cases = [
        (np.sum, (x,), (a,), {"axis": 1}),
        (np.mean, (x,), (a,), {}),
        (np.concatenate, ([x, y],), ([a, b],), {"axis": 0}),
        (np.stack, ([x, y],), ([a, b],), {}),
        (np.where, (x > 0, x, y), (a > 0, a, b), {}),
        (np.transpose, (x,), (a,), {}),
        (np.reshape, (x, (4, 3)), (a, (4, 3)), {}),
        (np.clip, (x, -1, 1), (a, -1, 1), {}),
        (np.linalg.norm, (x,), (a,), {}),
        (np.linalg.norm, (x,), (a,), {"axis": 1}),
        (np.dot, (x, y.T), (a, b.T), {}),
        (np.cumsum, (x,), (a,), {"axis": 0}),
        (np.diff, (x,), (a,), {"axis": 0}),
        (np.tril, (x,), (a,), {}),
    ]
    for f, args, np_args, kwargs in cases:
        got, want = f(*args, **kwargs), f(*np_args, **kwargs)
        assert isinstance(got, cp.ndarray), f.__name__
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, err_msg=f.__name__)


def test_array_function_results_that_are_not_arrays(xy):
    _, _, x, _ = xy
    assert np.result_type(3, x) == np.float64
    assert np.can_cast(x, np.float32) is False


def test_missing_function_raises_type_error(xy):
    _, _, x, _ = xy
    with pytest.raises(TypeError, match="no implementation found"):
        np.is_busday(x)  # datetime functions are out of scope (docs/numpy_coverage.md)


def test_get_array_module(xy):
    a, _, x, _ = xy
    assert cp.get_array_module(x) is cp
    assert cp.get_array_module(a) is np
    assert cp.get_array_module(1, a, x) is cp
    assert cp.get_array_module() is np
