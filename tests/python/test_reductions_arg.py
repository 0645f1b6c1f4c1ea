"""argmin and argmax against NumPy: first occurrence on ties, first NaN wins."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, make_input


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg(device, rng, dtype, axis, layout, name):
    # A narrow value range makes ties common: the first index must win.
    a, x = make_input(rng, random_array, (4, 5, 6), dtype, layout, low=-2, high=2)
    if np.dtype(dtype).kind in "fc":
        a, x = make_input(rng, lambda r, s, d, lo, hi: np.round(random_array(r, s, d, lo, hi)), (4, 5, 6), dtype,
                          layout, -2, 2)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    assert_matches(getattr(x, name)(axis=axis), getattr(a, name)(axis=axis))
    assert_matches(getattr(cp, name)(x, axis=axis, keepdims=True), getattr(np, name)(a, axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg_nan_first_wins(device, rng, dtype, name):
    a = random_array(rng, (5, 40), dtype)
    a[1, 7] = np.nan
    a[1, 3] = np.nan
    a[3, 30] = np.nan
    if np.dtype(dtype).kind == "c":
        a[4, 2] = complex(0, np.nan)
        a[4, 9] = complex(np.nan, 0)
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    assert_matches(getattr(cp, name)(x.T, axis=0), getattr(np, name)(a.T, axis=0))


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_arg_complex_lexicographic(device, dtype):
    a = np.array([1 + 5j, 3 - 1j, 3 + 2j, 3 + 2j, -4 + 9j, 3 - 1j], dtype)
    x = cp.asarray(a)
    assert_matches(cp.argmax(x), np.argmax(a))
    assert_matches(cp.argmin(x), np.argmin(a))


@pytest.mark.parametrize("shape,axis", [((4000, 500), 0), ((4000, 500), 1), ((500, 4000), None),
                                        ((300_000,), None), ((100_000, 9), 0)])
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg_large(device, shape, axis, name):
    rng = np.random.default_rng(5)
    a = rng.integers(-1000, 1000, size=shape).astype(np.float32)  # many ties across chunks
    x = cp.asarray(a)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    a.ravel()[len(a.ravel()) // 2 + 3] = np.nan
    a.ravel()[len(a.ravel()) - 5] = np.nan
    x = cp.asarray(a)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))


def test_arg_zero_dim_and_size_one(device):
    a = np.array(2.5)
    x = cp.asarray(a)
    for axis in (None, 0, -1):
        assert_matches(cp.argmax(x, axis=axis), np.argmax(a, axis=axis))
    assert_matches(cp.argmin(cp.asarray(np.ones((3, 1))), axis=1), np.argmin(np.ones((3, 1)), axis=1))


def test_arg_empty(device):
    for name in ("argmin", "argmax"):
        fn = getattr(cp, name)
        with pytest.raises(ValueError, match=f"attempt to get {name} of an empty sequence"):
            fn(cp.zeros((0,)))
        with pytest.raises(ValueError, match=f"attempt to get {name} of an empty sequence"):
            fn(cp.zeros((3, 0)), axis=1)
        with pytest.raises(ValueError, match=f"attempt to get {name} of an empty sequence"):
            fn(cp.zeros((0, 0)), axis=1)
        assert_matches(fn(cp.zeros((0, 3)), axis=1), getattr(np, name)(np.zeros((0, 3)), axis=1))


def test_arg_out(device, rng):
    a = random_array(rng, (4, 6), np.float64)
    x = cp.asarray(a)
    out = cp.zeros((6,), np.int64)
    r = cp.argmax(x, axis=0, out=out)
    assert r.data_ptr == out.data_ptr
    assert_matches(out, np.argmax(a, axis=0))
    out32 = cp.zeros((4,), np.int32)  # int32 casts safely to intp: NumPy accepts it
    cp.argmin(x, axis=1, out=out32)
    assert_matches(out32, np.argmin(a, axis=1).astype(np.int32))
    big = cp.zeros((4, 2), np.int64)
    cp.argmin(x, axis=1, out=big[:, 1])  # non-contiguous out
    assert_matches(big[:, 1], np.argmin(a, axis=1))
    assert_matches(big[:, 0], np.zeros(4, np.int64))


def test_arg_errors(device):
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match=r"output array does not match result of np.argmax"):
        cp.argmax(x, axis=0, out=cp.zeros((2,), np.int64))
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to dtype\('int64'\)"):
        cp.argmax(x, axis=0, out=cp.zeros((3,)))
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        cp.argmin(x, axis=2)
    with pytest.raises(TypeError, match="'tuple' object cannot be interpreted as an integer"):
        cp.argmax(x, axis=(0, 1))


@pytest.mark.parametrize("index_dtype", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("name", ["argmin", "argmax", "nanargmin", "nanargmax"])
def test_arg_index_dtype(device, rng, index_dtype, name):
    # CuPy's dtype= (keyword-only in copper, NumPy has no such argument): the result's dtype.
    a = random_array(rng, (3, 7), np.float32, -5, 5)
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        got = getattr(cp, name)(x, axis=axis, dtype=index_dtype)
        assert got.dtype == index_dtype
        np.testing.assert_array_equal(got.get(), getattr(np, name)(a, axis=axis))
    if not name.startswith("nan"):
        assert getattr(x, name)(dtype=index_dtype).dtype == index_dtype
    out = cp.zeros(7, dtype=np.int64)
    assert getattr(cp, name)(x, axis=0, dtype=index_dtype, out=out) is out
    np.testing.assert_array_equal(out.get(), getattr(np, name)(a, axis=0))
    with pytest.raises(TypeError):
        getattr(cp, name)(x, dtype=np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg_float_runs_every_length(device, dtype, name):
    """Contiguous float runs (on the CPU: the extreme first, then its first index) at every
    length across the 8-element blocks: ties, signed zeros, infinities and NaNs, which
    must give NumPy's first index."""
    rng = np.random.default_rng(15)
    for n in list(range(1, 40)) + [1000, 70001, 140003]:
        a = np.round(rng.standard_normal(n) * 2).astype(dtype)  # many ties
        assert_matches(getattr(cp, name)(cp.asarray(a)), getattr(np, name)(a))
        z = np.where(rng.random(n) < 0.5, dtype(0.0), dtype(-0.0)).astype(dtype)
        assert_matches(getattr(cp, name)(cp.asarray(z)), getattr(np, name)(z))
        b = a.copy()
        b[rng.integers(0, n)] = np.inf
        b[rng.integers(0, n)] = -np.inf
        assert_matches(getattr(cp, name)(cp.asarray(b)), getattr(np, name)(b))
        b[rng.integers(0, n, 2)] = np.nan
        assert_matches(getattr(cp, name)(cp.asarray(b)), getattr(np, name)(b))
