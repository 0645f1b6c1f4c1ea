"""NumPy's where= and initial= on the reduction and statistics functions (and methods):
sum, prod, min, max and their nan forms take both; mean, var, std, their nan forms, any
and all take where= alone. NumPy is the oracle: values, dtypes, errors."""
import warnings

import numpy as np
import pytest

import copper as cp

RNG = np.random.default_rng(2026_12_04)


def values(kind, shape):
    if kind == "float64":
        a = RNG.standard_normal(shape)
        if a.size > 3:
            a.flat[[1, a.size // 2]] = np.nan
        return a
    if kind == "float32":
        return RNG.standard_normal(shape).astype(np.float32)
    if kind == "int16":
        return RNG.integers(-5, 9, size=shape).astype(np.int16)
    if kind == "uint8":
        return RNG.integers(0, 7, size=shape).astype(np.uint8)
    if kind == "bool":
        return RNG.random(shape) < 0.5
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def to_copper(kw, device):
    return {k: cp.asarray(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}


def check(device, fn, a, axis, kw, method=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = getattr(a, fn)(axis=axis, **kw) if method else getattr(np, fn)(a, axis=axis, **kw)
        except Exception as e:  # the same exception type, as NumPy's
            with pytest.raises(type(e)):
                x = cp.asarray(a, device=device)
                getattr(x, fn)(axis=axis, **to_copper(kw, device)) if method else \
                    getattr(cp, fn)(x, axis=axis, **to_copper(kw, device))
            return
        x = cp.asarray(a, device=device)
        got = getattr(x, fn)(axis=axis, **to_copper(kw, device)) if method else \
            getattr(cp, fn)(x, axis=axis, **to_copper(kw, device))
    got = cp.asnumpy(got)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


SHAPE = (3, 4, 5)
AXES = [None, 1, (0, 2), -1]
DTYPES = ["float64", "float32", "int16", "uint8", "bool", "complex128"]


def masks():
    return [RNG.random(SHAPE) < 0.6, RNG.random(SHAPE[1:]) < 0.5, [True, False, True, True, False], False]


@pytest.mark.parametrize("fn", ["sum", "prod", "nansum", "nanprod"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", AXES)
def test_sum_like_where_and_initial(device, fn, dtype, axis):
    a = values(dtype, SHAPE)
    for mask in masks():
        check(device, fn, a, axis, dict(where=mask))
        check(device, fn, a, axis, dict(where=mask, initial=-1.5 if dtype != "bool" else 2))
    check(device, fn, a, axis, dict(initial=3))
    check(device, fn, a, axis, dict(initial=2, keepdims=True, where=masks()[0]))


@pytest.mark.parametrize("fn", ["max", "min", "amax", "amin", "nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", ["float64", "int16", "uint8", "bool"])
@pytest.mark.parametrize("axis", AXES)
def test_min_max_where_and_initial(device, fn, dtype, axis):
    a = values(dtype, SHAPE)
    start = True if dtype == "bool" else 1
    for mask in masks():
        check(device, fn, a, axis, dict(where=mask, initial=start))
        check(device, fn, a, axis, dict(where=mask))  # ValueError: no identity without initial
    check(device, fn, a, axis, dict(initial=start))


@pytest.mark.parametrize("fn", ["max", "min", "sum"])
def test_initial_of_empty_slices(device, fn):
    a = values("float64", (0, 3))
    check(device, fn, a, 0, dict(initial=5.0))
    check(device, fn, a, None, dict(initial=5.0))
    check(device, fn, a, 1, dict(initial=5.0))


@pytest.mark.parametrize("fn", ["mean", "nanmean", "var", "std", "nanvar", "nanstd", "all", "any"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", AXES)
def test_statistics_and_logical_where(device, fn, dtype, axis):
    a = values(dtype, SHAPE)
    extra = dict(ddof=1) if fn in ("var", "std", "nanvar", "nanstd") else {}
    for mask in masks():
        check(device, fn, a, axis, dict(where=mask, **extra))
    check(device, fn, a, axis, dict(where=masks()[0], keepdims=True, **extra))
    check(device, fn, a, axis, dict(initial=1, **extra))  # TypeError: no initial= there


@pytest.mark.parametrize("fn, kw", [
    ("sum", dict(where=True, initial=1.0)), ("prod", dict(initial=2.0)), ("max", dict(initial=0.0)),
    ("min", dict(initial=0.0)), ("mean", {}), ("var", dict(ddof=1)), ("std", {}), ("any", {}), ("all", {})])
def test_methods_take_where(device, fn, kw):
    a = values("float64", SHAPE)
    mask = RNG.random(SHAPE) < 0.5
    if fn not in ("sum", "prod", "mean", "var", "std", "any", "all"):
        kw = dict(kw, where=mask)
    else:
        kw = dict(kw, where=mask) if "where" not in kw else kw
    check(device, fn, a, 1, kw, method=True)


def test_views_and_out(device):
    a0 = values("float64", (6, 8))
    mask0 = RNG.random((6, 8)) < 0.5
    a, mask = a0[::-2, 1::2], mask0[::-2, 1::2]  # negative and non-unit strides
    x = cp.asarray(a0, device=device)[::-2, 1::2]
    m = cp.asarray(mask0, device=device)[::-2, 1::2]
    np.testing.assert_allclose(cp.asnumpy(cp.nansum(x, axis=0, where=m, initial=0.25)),
                               np.nansum(a, axis=0, where=mask, initial=0.25))
    out = cp.zeros(4, dtype=cp.float32, device=device)
    r = cp.max(x, axis=0, where=m, initial=-10.0, out=out)
    assert r is out
    np.testing.assert_allclose(cp.asnumpy(out), np.max(a, axis=0, where=mask, initial=-10.0).astype(np.float32))
    out2 = cp.zeros(3, device=device)
    assert cp.mean(x, axis=1, where=m, out=out2) is out2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(cp.asnumpy(out2), np.mean(a, axis=1, where=mask), equal_nan=True)


def test_zero_dim(device):
    a = np.float64(2.5)
    for fn, kw in [("sum", dict(where=np.True_, initial=1.0)), ("max", dict(initial=3.0)), ("mean", dict(where=np.False_))]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np, fn)(np.asarray(a), **kw)
            kw = {k: np.asarray(v) if k == "where" else v for k, v in kw.items()}
            got = getattr(cp, fn)(cp.asarray(a, device=device), **to_copper(kw, device))
        np.testing.assert_allclose(cp.asnumpy(got), want, equal_nan=True)


def test_bad_masks_raise_numpys_errors(device):
    x = cp.asarray(values("float64", (2, 3)), device=device)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float64'\\) to dtype\\('bool'\\)"):
        cp.sum(x, where=cp.ones((2, 3), device=device))
    with pytest.raises(ValueError):
        cp.sum(x, axis=1, where=cp.asarray([True, False], device=device))
    with pytest.raises(ValueError, match="does not have an identity, so to use a where mask one has to specify 'initial'"):
        cp.max(x, where=cp.asarray([True, False, True], device=device))
    with pytest.raises(TypeError):  # mean has no initial= (nanobind words the TypeError)
        cp.mean(x, initial=1)
    # A list is taken as NumPy takes it: converted with dtype=bool.
    np.testing.assert_allclose(cp.asnumpy(cp.sum(x, axis=1, where=[1.0, 0, 2])),
                               np.sum(cp.asnumpy(x), axis=1, where=[1.0, 0, 2]))


@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
def test_var_std_take_a_given_mean(device, fn, axis):
    # NumPy 2's mean=: the mean (shaped as with keepdims=True) is used, not recomputed.
    a = values("float64", SHAPE)
    a = np.where(np.isnan(a), 0.5, a) if not fn.startswith("nan") else a
    given = np.nanmean(a, axis=axis, keepdims=True) + 0.25  # any values: used as they are
    check(device, fn, a, axis, dict(mean=given))
    check(device, fn, a, axis, dict(mean=given, ddof=1, where=masks()[0]))
    check(device, fn, a, axis, dict(mean=given, keepdims=True))
    if axis is not None:
        check(device, fn, a, axis, dict(mean=np.nanmean(a, axis=axis)))  # no kept axes: ValueError unless it broadcasts


def test_mean_keyword_is_var_and_std_only(device):
    x = cp.asarray(values("float64", (2, 3)), device=device)
    for fn in ("mean", "sum", "max", "any"):
        with pytest.raises(TypeError):
            getattr(cp, fn)(x, mean=cp.zeros((1, 1), device=device))


@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "nansum", "nanprod", "nanmax", "nanmin"])
def test_initial_none_takes_the_identity_away(device, fn):
    # initial=None is NumPy's "no start value": the same results where every slice has an
    # element, NumPy's ValueError for an empty one (sum too), and where= then needs initial.
    rng = np.random.default_rng(21)
    a = rng.standard_normal((4, 5))
    a[1, 2] = np.nan
    x = cp.asarray(a, device=device)
    for axis in (None, 0, (0, 1)):
        want = getattr(np, fn)(a, axis=axis, initial=None)
        np.testing.assert_allclose(np.asarray(getattr(cp, fn)(x, axis=axis, initial=None).get()), want, rtol=1e-13)
    e = np.zeros((0, 3))
    for xp, arr in ((np, e), (cp, cp.asarray(e, device=device))):
        with pytest.raises(ValueError, match="zero-size array to reduction operation .* which has no identity"):
            getattr(xp, fn)(arr, axis=0, initial=None)
    if fn in ("sum", "prod"):
        for xp, arr in ((np, a), (cp, x)):
            with pytest.raises(ValueError, match="does not have an identity, so to use a where mask"):
                getattr(xp, fn)(arr, where=arr > 0, initial=None)
        ufunc = cp.add if fn == "sum" else cp.multiply
        assert ufunc.reduce(x[0], initial=None).item() == pytest.approx(
            getattr(np, "add" if fn == "sum" else "multiply").reduce(a[0]), rel=1e-13)
        np.testing.assert_allclose(getattr(x, fn)(axis=1, initial=None).get(), getattr(a, fn)(axis=1, initial=None),
                                   rtol=1e-13)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sums_of_negative_zeros_keep_numpys_sign(device, dtype):
    # NumPy's sum starts from initial= (or, with initial=None, each row's first element):
    # rows of only -0.0 sum to -0.0 then, and to +0.0 from the default +0 start. Random rows
    # of -0.0, +0.0 and values, with where= masks, over every axis choice.
    rng = np.random.default_rng(40)
    a = rng.choice(np.array([-0.0, -0.0, -0.0, 0.0, 1.5], dtype), size=(6, 4))
    a[0] = -0.0
    a[:, 3] = -0.0
    mask = rng.random((6, 4)) < 0.7
    x, m = cp.asarray(a, device=device), cp.asarray(mask, device=device)
    for kw in (dict(initial=-0.0), dict(initial=None), dict(initial=0.0), dict()):
        for axis in (None, 0, 1, (0, 1)):
            for where in ((None, None),) if "initial" in kw and kw["initial"] is None else ((None, None), (mask, m)):
                extra_np = {} if where[0] is None else dict(where=where[0])
                extra_cp = {} if where[1] is None else dict(where=where[1])
                want = np.add.reduce(a, axis=axis, **kw, **extra_np)
                for got in (cp.add.reduce(x, axis=axis, **kw, **extra_cp), cp.sum(x, axis=axis, **kw, **extra_cp)):
                    got = np.asarray(got.get())
                    np.testing.assert_array_equal(got, want)
                    np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=f"{kw} axis={axis}")
