"""sum, prod, min, max, all, any and their nan forms against NumPy."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import copper as cp
from conftest import ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from reduction_cases import LAYOUTS, assert_matches, eps_of, make_input, sum_tolerance

AXES_3D = [None, 0, 1, -1, (0, 2), (2, 0, 1), ()]
SHAPE = (3, 4, 5)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", AXES_3D)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum(device, rng, dtype, axis, layout, keepdims):
    a, x = make_input(rng, random_array, SHAPE, dtype, layout)
    expected = np.sum(a, axis=axis, keepdims=keepdims)
    rtol, atol = sum_tolerance(a, dtype, axis)
    assert_matches(cp.sum(x, axis=axis, keepdims=keepdims), expected, rtol=rtol, atol=atol)
    assert_matches(x.sum(axis=axis, keepdims=keepdims), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_prod(device, rng, dtype, axis, layout):
    # Small magnitudes so float products of 24 elements stay finite even in float16.
    a, x = make_input(rng, random_array, (2, 3, 4), dtype, layout, low=-2, high=2)
    if np.dtype(dtype).kind in "fc":
        a, x = make_input(rng, lambda r, s, d, lo, hi: random_array(r, s, d, lo, hi) / 1.4, (2, 3, 4), dtype, layout,
                              -2, 2)
    expected = np.prod(a, axis=axis)
    # Each product of n factors carries at most ~n roundings; the order differs from NumPy's.
    rtol = 30 * eps_of(dtype)
    assert_matches(cp.prod(x, axis=axis), expected, rtol=rtol, atol=rtol * 1e-3)
    assert_matches(x.prod(axis=axis), expected, rtol=rtol, atol=rtol * 1e-3)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", AXES_3D)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["min", "max", "amin", "amax", "nanmin", "nanmax"])
def test_min_max(device, rng, dtype, axis, layout, name):
    a, x = make_input(rng, random_array, SHAPE, dtype, layout)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    if name in ("min", "max"):
        assert_matches(getattr(x, name)(axis=axis, keepdims=True), getattr(a, name)(axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["all", "any"])
def test_all_any(device, rng, dtype, axis, layout, name):
    a, x = make_input(rng, random_array, SHAPE, dtype, layout, low=-1, high=1)
    if np.dtype(dtype).kind in "fc":
        # Exact zeros, and for complex values zero in one part only (still true).
        a = a.copy()
        a[rng.random(SHAPE) < 0.3] = 0
        if np.dtype(dtype).kind == "c":
            a[rng.random(SHAPE) < 0.2] = 1j
        x = cp.asarray(a)
    if name == "all" and np.dtype(dtype) != np.bool_:
        a = np.where(rng.random(SHAPE) < 0.9, a, 0).astype(dtype) if np.dtype(dtype).kind not in "fc" else a
        x = cp.asarray(a)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    assert_matches(getattr(x, name)(axis=axis, keepdims=True), getattr(a, name)(axis=axis, keepdims=True))


def test_all_any_truth_values(device):
    # NaN is true, -0.0 is false, complex is true when either part is nonzero.
    for values in ([np.nan, 1.0], [-0.0, 0.0], [0j, 1j], [0 + 0j, np.nan * 1j]):
        a = np.array(values)
        x = cp.asarray(a)
        assert_matches(cp.all(x), np.all(a))
        assert_matches(cp.any(x), np.any(a))
    a = np.array([0, 0x3C00, 0x8000, 0x7E00], np.uint16).view(np.float16)  # 0, 1, -0, NaN
    assert_matches(cp.any(cp.asarray(a), axis=0), np.any(a, axis=0))
    assert_matches(cp.all(cp.asarray(a[1:2])), np.all(a[1:2]))
    assert_matches(cp.all(cp.asarray(a[3:])), np.all(a[3:]))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_semantics(device, rng, dtype, axis):
    a = random_array(rng, (6, 7), dtype)
    a[rng.random((6, 7)) < 0.2] = np.nan
    a[:, 3] = np.nan  # one all-NaN column
    if np.dtype(dtype).kind == "c":
        a[1, 1] = complex(1, np.nan)
    x = cp.asarray(a)
    with np.errstate(all="ignore"), pytest.warns() if False else _no_warning_check():
        for name in ["min", "max", "nanmin", "nanmax"]:
            assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
        rtol, atol = sum_tolerance(np.nan_to_num(a), dtype, axis)
        assert_matches(cp.nansum(x, axis=axis), np.nansum(a, axis=axis), rtol=rtol, atol=atol)
        assert_matches(cp.sum(x, axis=axis), np.sum(a, axis=axis), rtol=rtol, atol=atol)
        small = np.where(np.isnan(a), a, a / np.abs(a).max() + 0.5)
        assert_matches(cp.nanprod(cp.asarray(small), axis=axis), np.nanprod(small, axis=axis),
                       rtol=50 * eps_of(dtype), atol=1e-30)


class _no_warning_check:
    """NumPy warns about all-NaN slices; copper does not. Silence NumPy's side only."""

    def __enter__(self):
        import warnings
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        self._w.__exit__(*exc)


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.bool_])
def test_nan_forms_on_integers(device, rng, dtype):
    a = random_array(rng, (4, 5), dtype)
    x = cp.asarray(a)
    for name in ["nansum", "nanprod", "nanmin", "nanmax"]:
        assert_matches(getattr(cp, name)(x, axis=0), getattr(np, name)(a, axis=0))
        assert_matches(getattr(cp, name)(x), getattr(np, name)(a))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.bool_])
def test_small_int_sums_widen(device, dtype):
    # NumPy 2: sums of small ints accumulate in (u)int64, so no wrap-around here.
    a = np.full(1000, np.iinfo(dtype).max if dtype != np.bool_ else True, dtype)
    x = cp.asarray(a)
    assert_matches(cp.sum(x), np.sum(a))
    assert_matches(cp.prod(x[:3]), np.prod(a[:3]))


def test_integer_overflow_wraps_like_numpy(device):
    a = np.array([2**62, 2**62, 2**62, 7], np.int64)
    assert_matches(cp.sum(cp.asarray(a)), np.sum(a))
    assert_matches(cp.prod(cp.asarray(a)), np.prod(a))
    u = np.array([2**63, 2**63 + 5], np.uint64)
    assert_matches(cp.sum(cp.asarray(u)), np.sum(u))


@pytest.mark.parametrize("src,dst", [(np.int8, np.float32), (np.float64, np.int32), (np.uint8, np.uint8),
                                     (np.float16, np.float32), (np.int64, np.float64), (np.float32, np.float64),
                                     (np.complex64, np.complex128), (np.float64, np.complex64),
                                     (np.int32, np.int16), (np.bool_, np.bool_)])
@pytest.mark.parametrize("name", ["sum", "prod", "nansum"])
def test_dtype_argument(device, rng, src, dst, name):
    a = random_array(rng, (4, 6), src, low=-3, high=3)
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        with np.errstate(all="ignore"):
            expected = getattr(np, name)(a, axis=axis, dtype=dst)
        rtol = 30 * eps_of(dst)
        assert_matches(getattr(cp, name)(x, axis=axis, dtype=dst), expected, rtol=rtol, atol=rtol)
    assert_matches(x.sum(dtype=dst), np.sum(a, dtype=dst), rtol=30 * eps_of(dst), atol=30 * eps_of(dst))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any", "nansum", "nanmax"])
@pytest.mark.parametrize("out_dtype", [None, np.float32, np.int16, np.complex128])
def test_out(device, rng, name, out_dtype):
    a = random_array(rng, (4, 5, 6), np.float64, low=-2, high=2)
    x = cp.asarray(a)
    expected_dtype = getattr(np, name)(a, axis=1).dtype
    dt = out_dtype or expected_dtype
    # A non-contiguous out: every other column of a larger array.
    big_np = np.zeros((4, 12), dt)
    big = cp.asarray(big_np)
    out = big[:, ::2]
    r = getattr(cp, name)(x, axis=1, out=out)
    assert r is out  # out itself, as NumPy returns it
    expected = getattr(np, name)(a, axis=1, out=big_np[:, ::2])
    rtol = 8 * eps_of(dt)
    assert_matches(out, expected, rtol=rtol, atol=rtol * 20)
    assert_matches(big, big_np, rtol=rtol, atol=rtol * 20)  # the columns in between stay untouched
    # keepdims with a matching out, and a 0-d out for a full reduction
    out_k = cp.zeros((4, 1, 6), dt)
    getattr(cp, name)(x, axis=1, keepdims=True, out=out_k)
    assert_matches(out_k, getattr(np, name)(a, axis=1, keepdims=True).astype(dt), rtol=rtol, atol=rtol * 20)
    out0 = cp.zeros((), dt)
    getattr(cp, name)(x, out=out0)
    assert_matches(out0, np.asarray(getattr(np, name)(a)).astype(dt), rtol=rtol, atol=rtol * 100)


def test_out_aliasing_input(device, rng):
    a = random_array(rng, (5, 4), np.float64)
    x = cp.asarray(a)
    expected = a.copy()
    np.sum(expected, axis=0, out=expected[0])
    cp.sum(x, axis=0, out=x[0])
    assert_matches(x, expected, rtol=1e-15, atol=1e-12)


def test_out_errors(device):
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match=r"wrong number of dimensions: Found 2 but expected 1"):
        cp.sum(x, axis=0, out=cp.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"output parameter for reduction operation maximum has the wrong number"):
        cp.max(x, out=cp.zeros((1,)))
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with remapped shapes"):
        cp.sum(x, axis=0, out=cp.zeros((4,)))
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with remapped shapes"):
        cp.sum(x, axis=0, keepdims=True, out=cp.zeros((3, 1)))
    with pytest.raises(ValueError, match=r"output operand requires a reduction along dimension 0"):
        cp.sum(x, axis=0, out=cp.zeros((1,)))
    with pytest.raises(TypeError):
        cp.sum(x, out=np.zeros(()))
    out = cp.full((3,), 7.0)
    with pytest.raises(ValueError):
        cp.sum(x, axis=0, out=cp.zeros((2,)))
    assert_matches(out, np.full((3,), 7.0))  # untouched by the failed call


def test_axis_errors(device):
    x = cp.ones((2, 3))
    for fn in [cp.sum, cp.prod, cp.max, cp.min, cp.all, cp.any, cp.nansum, cp.nanmax]:
        with pytest.raises(np.exceptions.AxisError, match=r"axis 2 is out of bounds for array of dimension 2"):
            fn(x, axis=2)
        with pytest.raises(np.exceptions.AxisError, match=r"axis -3 is out of bounds for array of dimension 2"):
            fn(x, axis=-3)
        with pytest.raises(ValueError, match=r"duplicate value in 'axis'"):
            fn(x, axis=(0, 0))
        with pytest.raises(ValueError, match=r"duplicate value in 'axis'"):
            fn(x, axis=(1, -1))
        with pytest.raises(TypeError, match=r"'float' object cannot be interpreted as an integer"):
            fn(x, axis=1.0)
    with pytest.raises(IndexError):  # AxisError is an IndexError too, as in NumPy
        cp.sum(x, axis=5)


@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((0, 3), 1), ((3, 0), 0),
                                        ((2, 0, 3), (0, 2)), ((2, 0, 3), None), ((0, 0), ())])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_, np.complex64, np.uint16])
def test_empty(device, shape, axis, dtype):
    a = np.zeros(shape, dtype)
    x = cp.asarray(a)
    for name in ["sum", "prod", "all", "any", "nansum", "nanprod"]:
        assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
        assert_matches(getattr(cp, name)(x, axis=axis, keepdims=True),
                       getattr(np, name)(a, axis=axis, keepdims=True))
    for name, ufunc in [("min", "minimum"), ("max", "maximum"), ("nanmin", "fmin"), ("nanmax", "fmax")]:
        try:
            expected = getattr(np, name)(a, axis=axis)
        except ValueError:
            with pytest.raises(ValueError, match=f"zero-size array to reduction operation {ufunc} which has no identity"):
                getattr(cp, name)(x, axis=axis)
        else:
            assert_matches(getattr(cp, name)(x, axis=axis), expected)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.bool_])
def test_zero_dim(device, dtype):
    a = np.array(3, dtype)
    x = cp.asarray(a)
    for name in ["sum", "prod", "min", "max", "all", "any", "nansum", "nanmax"]:
        fn = getattr(cp, name)
        for axis in (None, 0, -1, ()):
            r = fn(x, axis=axis)
            assert r.ndim == 0
            assert_matches(r, getattr(np, name)(a, axis=axis))
        assert_matches(fn(x, keepdims=True), getattr(np, name)(a, keepdims=True))
        with pytest.raises(np.exceptions.AxisError, match="axis 1 is out of bounds for array of dimension 0"):
            fn(x, axis=1)
        with pytest.raises(np.exceptions.AxisError, match="axis 0 is out of bounds for array of dimension 0"):
            fn(x, axis=(0,))


def test_result_is_zero_dim_array(device):
    x = cp.asarray(np.arange(10))
    r = cp.sum(x)
    assert isinstance(r, cp.ndarray) and r.shape == () and r.dtype == np.int64
    assert int(r) == 45


def test_array_like_inputs(device):
    assert_matches(cp.sum([[1, 2], [3, 4]], axis=0), np.sum([[1, 2], [3, 4]], axis=0))
    assert_matches(cp.max(np.float32([1, 5, 2])), np.max(np.float32([1, 5, 2])))


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_random_axes_hypothesis(data):
    ndim = data.draw(st.integers(0, 4))
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    axes = data.draw(st.one_of(st.none(), st.lists(st.integers(-ndim, ndim - 1), unique_by=lambda v: v % ndim,
                                                     max_size=ndim).map(tuple) if ndim else st.none()))
    keepdims = data.draw(st.booleans())
    dtype = data.draw(st.sampled_from([np.float64, np.int16, np.complex64, np.bool_, np.float32]))
    name = data.draw(st.sampled_from(["sum", "max", "all", "prod", "any", "min"]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = random_array(rng, shape, dtype, low=-3, high=3)
    # Half the time a reversed view, to vary strides.
    x = cp.asarray(a)
    if ndim and data.draw(st.booleans()):
        a = a[::-1]
        x = x[::-1]
    try:
        expected = getattr(np, name)(a, axis=axes, keepdims=keepdims)
    except ValueError as e:
        with pytest.raises(ValueError, match="zero-size array"):
            getattr(cp, name)(x, axis=axes, keepdims=keepdims)
        return
    rtol = 40 * eps_of(dtype) if name in ("sum", "prod") else 0
    got = getattr(cp, name)(x, axis=axes, keepdims=keepdims)
    if name == "prod" and np.dtype(dtype).kind == "c" and not np.all(np.isfinite(expected)):
        # An overflowing complex product: inf or nan parts depend on the order of the
        # multiplications (pairwise here, sequential in NumPy); both must overflow.
        g = got.get()
        finite = np.isfinite(expected)
        assert not np.any(np.isfinite(g)[~finite])
        np.testing.assert_allclose(g[finite], np.asarray(expected)[finite], rtol=rtol, atol=rtol * 10)
        return
    assert_matches(got, expected, rtol=rtol, atol=rtol * 10)


@pytest.mark.parametrize("layout", ["inner", "outer", "full"])
def test_float32_sum_accuracy(device, layout):
    """1e7 float32 elements: the error must be within a few ulps of the exact sum
    (pairwise); naive float32 accumulation would be off by ~1e-4 relative."""
    rng = np.random.default_rng(7)
    a = rng.uniform(0, 1, size=10_000_000).astype(np.float32)
    if layout == "full":
        x = cp.asarray(a)
        exact = math.fsum(a.astype(np.float64))
        got = float(cp.sum(x))
        ours, numpys = abs(got - exact), abs(float(np.sum(a)) - exact)
        assert ours <= max(2 * numpys, 1e-6 * exact), (ours, numpys)
        return
    m = a.reshape(100, 100_000) if layout == "inner" else a.reshape(100_000, 100)
    axis = 1 if layout == "inner" else 0
    exact = np.sum(m.astype(np.float64), axis=axis)  # float64 pairwise: exact to ~1e-16 relative here
    got = cp.sum(cp.asarray(m), axis=axis).get()
    assert got.dtype == np.float32
    rel = np.max(np.abs(got - exact) / exact)
    assert rel < 3e-6, rel  # a few float32 ulps; sequential accumulation gives ~1e-4


@pytest.mark.parametrize("shape,axis", [((3000, 2000), 0), ((3000, 2000), 1), ((2000, 3000), None),
                                        ((200_000, 8), 0), ((8, 200_000), 1), ((300, 40, 50), (0, 2)),
                                        ((50, 40, 300), (0, 1))])
@pytest.mark.parametrize("name", ["sum", "max", "any", "nanmin"])
def test_large_parallel(device, shape, axis, name):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape)
    if name == "any":
        a = (a > 4.0).astype(np.float64)
    x = cp.asarray(a)
    rtol, atol = sum_tolerance(a, np.float64, axis) if name == "sum" else (0, 0)
    assert_matches(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis), rtol=rtol, atol=atol)
    # The same through a transposed view: the other layout path.
    xt, at = x.T, a.T
    axis_t = None if axis is None else tuple(a.ndim - 1 - ax for ax in np.atleast_1d(axis))
    assert_matches(getattr(cp, name)(xt, axis=axis_t), getattr(np, name)(at, axis=axis_t), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float32])
def test_extremum_run_lengths(device, dtype):
    """max and min at every length across the 8-lane and
    pairwise boundaries, with the extreme at each end and in the middle: integer lanes
    vectorize for min and max (not for sums, test_sum_run_lengths)."""
    rng = np.random.default_rng(12)
    for n in list(range(1, 300, 5)) + [1000, 4099]:
        for where in (0, n // 2, n - 1):
            a = random_array(rng, (n,), dtype)
            info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else np.finfo(dtype)
            a[where] = info.max
            x = cp.asarray(a)
            assert_matches(cp.max(x), np.max(a), rtol=0, atol=0)
            a[where] = info.min
            x = cp.asarray(a)
            assert_matches(cp.min(x), np.min(a), rtol=0, atol=0)
    m = random_array(rng, (37, 40), dtype)
    assert_matches(cp.max(cp.asarray(m), axis=1), np.max(m, axis=1), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_outer_axis_reductions_that_transform_elements(device, dtype):
    """Along an outer axis (rows combined elementwise) the reducers whose load is not the
    identity (nansum and nanprod skip NaNs, the 2-norm squares) load every row; only min
    and max combine raw rows."""
    rng = np.random.default_rng(14)
    m = (rng.standard_normal((300, 37)) * 0.5 + 1).astype(dtype)
    m[rng.integers(0, 300, 20), rng.integers(0, 37, 20)] = np.nan
    x = cp.asarray(m)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    assert_matches(cp.nansum(x, axis=0), np.nansum(m, axis=0), rtol=rtol, atol=0)
    assert_matches(cp.nanprod(x[:40], axis=0), np.nanprod(m[:40], axis=0), rtol=rtol, atol=0)
    clean = np.nan_to_num(m)
    assert_matches(cp.linalg.norm(cp.asarray(clean), axis=0), np.linalg.norm(clean, axis=0), rtol=rtol, atol=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_extremum_nans_and_layouts(device, dtype):
    """max/min of floats (SSE2 on the CPU): a NaN anywhere makes the result NaN, every
    length across the 8-lane boundaries; infinities; rows (inner layout) and columns
    (outer layout, rows combined elementwise) with NaNs in some of them."""
    rng = np.random.default_rng(13)
    for n in list(range(1, 70)) + [129, 1000, 70001]:
        a = rng.standard_normal(n).astype(dtype)
        for where in sorted({0, n // 3, n - 1}):
            b = a.copy()
            b[where] = np.nan
            x = cp.asarray(b)
            assert np.isnan(float(cp.max(x))) and np.isnan(float(cp.min(x)))
        a[n // 2] = np.inf
        assert_matches(cp.max(cp.asarray(a)), np.max(a), rtol=0, atol=0)
        assert_matches(cp.min(cp.asarray(-a)), np.min(-a), rtol=0, atol=0)
    m = rng.standard_normal((300, 37)).astype(dtype)
    m[rng.integers(0, 300, 5), rng.integers(0, 37, 5)] = np.nan
    m[7, 3] = -np.inf
    for axis in (0, 1, None):
        for f in ("max", "min", "nanmax", "nanmin"):
            assert_matches(getattr(cp, f)(cp.asarray(m), axis=axis), getattr(np, f)(m, axis=axis), rtol=0, atol=0)
            assert_matches(getattr(cp, f)(cp.asarray(m.T), axis=axis), getattr(np, f)(m.T, axis=axis), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32, np.bool_])
def test_sum_run_lengths(device, dtype):
    # Every length across the 8-lane and pairwise block boundaries (GCC 12 once
    # miscompiled the int8 -> int64 lanes at some lengths).
    rng = np.random.default_rng(11)
    a = random_array(rng, (700,), dtype)
    x = cp.asarray(a)
    for n in range(1, 700, 7):
        rtol, atol = sum_tolerance(a[:n], dtype)
        assert_matches(cp.sum(x[:n]), np.sum(a[:n]), rtol=rtol, atol=atol)
    m = random_array(rng, (37, 40), dtype)
    for n in range(1, 40):
        rtol, atol = sum_tolerance(m[:, :n], dtype, 0)
        assert_matches(cp.sum(cp.asarray(m[:, :n]), axis=0), np.sum(m[:, :n], axis=0), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["int32", "uint32"])
def test_sum_of_32bit_integers_widens_exactly(device, dtype):
    # Values near the type's limits: 32-bit partial sums would wrap, and the SIMD loop
    # widens each value by its sign (int32) or by zeros (uint32). Every run length, and
    # into other 64-bit types.
    rng = np.random.default_rng(5)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=1000, endpoint=True, dtype=dtype)
    a[::7] = info.min
    a[3::11] = info.max
    x = cp.asarray(a)
    for n in list(range(0, 40)) + [999, 1000]:
        assert_matches(cp.sum(x[:n]), np.sum(a[:n]))
    for out_dtype in ("int64", "uint64"):
        assert_matches(cp.sum(x, dtype=out_dtype), np.sum(a, dtype=out_dtype))
    assert_matches(cp.sum(x[::-3]), np.sum(a[::-3]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex128"])
@pytest.mark.parametrize("shape, axis", [((7,), None), ((3, 4), 0), ((3, 4), 1), ((3, 40), 1), ((2, 1, 3), 1), ((5, 3), (0, 1))])
def test_sums_of_negative_zeros_are_positive_zero(device, dtype, shape, axis):
    # NumPy's sums start from its identity +0, so only -0.0 gives +0.0 (1 / sum is +inf).
    a = np.full(shape, -0.0, dtype=dtype)
    x = cp.asarray(a, device=device)
    for fn in ("sum", "nansum", "mean"):
        want = np.asarray(getattr(np, fn)(a, axis=axis))
        got = cp.asnumpy(getattr(cp, fn)(x, axis=axis))
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real), err_msg=fn)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8])
def test_counts_of_long_byte_runs(device, dtype):
    # An integer sum of bools and count_nonzero of one-byte integers count nonzero bytes
    # 32 at a time in byte lanes (at most 255 rounds): lengths around those blocks and the
    # parallel chunks, bytes other than 0 and 1 read through bool views, wrapping dtypes.
    rng = np.random.default_rng(12)
    raw = rng.integers(0, 256, 140_000).astype(np.uint8)
    raw[rng.random(raw.size) < 0.5] = 0
    for n in (1, 31, 32, 33, 8159, 8160, 8161, 8192 + 7, 65535, 65536, 65537, 131_073, 140_000):
        a = raw[:n].view(dtype)
        x = cp.asarray(raw[:n], device=device).view(dtype)
        assert int(cp.count_nonzero(x)) == np.count_nonzero(a)
        if dtype == np.bool_:
            b = a.astype(bool)  # NumPy's own bool view of such bytes reads as nonzero
            for out in (None, np.int64, np.int8, np.uint16, np.float32):
                assert_matches(cp.sum(x, dtype=out), np.sum(b, dtype=out), rtol=0, atol=0)
            assert_matches(cp.sum(x[::-3]), np.sum(b[::-3]), rtol=0, atol=0)
    m = raw[:8161 * 3].reshape(3, 8161).view(dtype)
    xm = cp.asarray(raw[:8161 * 3].reshape(3, 8161), device=device).view(dtype)
    for axis in (0, 1, None):
        assert_matches(cp.count_nonzero(xm, axis=axis), np.count_nonzero(m, axis=axis))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.uint64, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128])
def test_all_any_decided_anywhere(device, dtype):
    # all/any stop at the first kilobyte that decides them (the CPU compares 16 bytes at a
    # time): the deciding element at every kind of position, in runs of every length class,
    # NaN (true) and -0.0 (false) among the rest, complex parts one at a time.
    itemsize = np.dtype(dtype).itemsize
    block = 1024 // itemsize
    for n in (1, 15, 16, block - 1, block, block + 3, 3 * block + 5, 70_000):
        for where in sorted({0, n // 2, n - 1, min(block, n - 1), max(n - 2, 0)}):
            for base, flip in ((0, 1), (1, 0)):
                a = np.full(n, base, dtype=dtype)
                if np.dtype(dtype).kind == "f" and base == 0:
                    a[::3] = -0.0
                if np.dtype(dtype).kind == "f" and base == 1:
                    a[1::5] = np.nan
                if np.dtype(dtype).kind == "c" and base == 1:
                    a[::2] = 1j  # nonzero by its imaginary part alone
                a[where] = flip
                if np.dtype(dtype).kind == "c" and flip == 1:
                    a[where] = 1j
                x = cp.asarray(a, device=device)
                for f in ("any", "all"):
                    assert bool(getattr(cp, f)(x)) == bool(getattr(np, f)(a)), (n, where, base, f)
                assert bool(cp.any(x[::-2])) == bool(np.any(a[::-2]))
                assert bool(cp.all(x[1:])) == bool(np.all(a[1:]))
    # bool views of other bytes; rows of a 2-d array.
    raw = np.zeros(5000, np.uint8)
    raw[4321] = 64
    v = cp.asarray(raw, device=device).view(bool)
    assert bool(cp.any(v)) and not bool(cp.all(v))
    m = np.random.default_rng(3).random((7, 3000)) < 0.0005
    m[2] = True
    xm = cp.asarray(m.astype(dtype), device=device)
    for axis in (0, 1):
        np.testing.assert_array_equal(cp.any(xm, axis=axis).get(), np.any(m.astype(dtype), axis=axis))
        np.testing.assert_array_equal(cp.all(xm, axis=axis).get(), np.all(m.astype(dtype), axis=axis))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_64bit_sums_wrap_as_numpy(device, dtype):
    # 64-bit integer sums wrap modulo 2**64 as NumPy's do, whatever the order the CPU adds
    # them in (four vector accumulators there): huge values, every tail length, views.
    rng = np.random.default_rng(13)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 5000, dtype=dtype, endpoint=True)
    x = cp.asarray(a, device=device)
    for n in list(range(0, 40)) + [1023, 1024, 4999, 5000]:
        assert cp.sum(x[:n]).item() == np.sum(a[:n]), n
    assert cp.sum(x[::-3]).item() == np.sum(a[::-3])
    m = a.reshape(50, 100)
    np.testing.assert_array_equal(cp.sum(x.reshape(50, 100), axis=1).get(), m.sum(axis=1))
    np.testing.assert_array_equal(cp.sum(x.reshape(50, 100), axis=0).get(), m.sum(axis=0))
