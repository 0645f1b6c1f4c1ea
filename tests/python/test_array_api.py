"""The array API standard on copper: the namespace is the copper package, its
introspection, and the functions copper adds under the standard's names (NumPy 2 as the
oracle where it has them). The standard's own suite is /work/shared/array-api-tests."""
import numpy as np
import pytest

import copper as cp
from conftest import DEVICES, FLOAT_DTYPES, INT_DTYPES, NUMERIC_DTYPES, random_array


def test_namespace_is_copper(device):
    x = cp.zeros(3)
    assert x.__array_namespace__() is cp
    assert x.__array_namespace__(api_version="2024.12") is cp
    assert x.__array_namespace__(api_version="2023.12") is cp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2019.01")
    # The standard's version follows the installed NumPy's (2024.12 from NumPy 2.4, 2025.12 from 2.5).
    assert cp.__array_api_version__ == getattr(np, "__array_api_version__", "2024.12")


def test_namespace_info(device):
    info = cp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"] and caps["max dimensions"] > 0
    assert info.default_device() in info.devices()
    # cpu first, then every GPU; COPPER_TEST_DEVICES may have left cpu out of DEVICES.
    names = [str(d) for d in info.devices()]
    assert names[0] == "cpu" and set(DEVICES) <= set(names)
    d = info.default_dtypes()
    assert d == {"real floating": np.float64, "complex floating": np.complex128, "integral": np.int64,
                 "indexing": np.int64}
    assert set(info.dtypes()) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                  "uint64", "float32", "float64", "complex64", "complex128"}
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                 "uint64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    with pytest.raises(ValueError):
        info.dtypes(kind="strange")


def test_finfo_iinfo():
    for t in (cp.float32, cp.float64, cp.complex64, cp.complex128):
        f = cp.finfo(t)
        ref = np.finfo(t)
        assert isinstance(f.eps, float) and f.eps == float(ref.eps)
        assert f.max == float(ref.max) and f.min == float(ref.min)
        assert f.smallest_normal == float(ref.smallest_normal) and f.bits == ref.bits
        assert f.dtype == ref.dtype and f.tiny == ref.tiny
        assert cp.finfo(cp.ones(2, dtype=t)).dtype == ref.dtype
    for t in (cp.int8, cp.uint16, cp.int64, cp.uint64):
        i = cp.iinfo(t)
        assert (i.min, i.max, i.bits, i.dtype) == (np.iinfo(t).min, np.iinfo(t).max, np.iinfo(t).bits, np.dtype(t))
        assert cp.iinfo(cp.zeros(1, dtype=t)).max == np.iinfo(t).max
    with pytest.raises(ValueError):
        cp.iinfo(cp.float32)


def test_isdtype():
    assert cp.isdtype(cp.int8, "signed integer") and not cp.isdtype(cp.uint8, "signed integer")
    assert cp.isdtype(cp.uint8, "integral") and cp.isdtype(cp.float32, "real floating")
    assert cp.isdtype(cp.complex64, ("bool", "complex floating"))
    assert not cp.isdtype(cp.bool, "numeric") and cp.isdtype(cp.float64, "numeric")
    assert cp.isdtype(cp.float32, cp.float32) and not cp.isdtype(cp.float32, cp.float64)
    assert cp.isdtype(np.dtype("int16"), (cp.int16, "bool"))
    with pytest.raises(ValueError):
        cp.isdtype(cp.int8, "integer")
    with pytest.raises(TypeError):
        cp.isdtype("int8", "integral")
    for t in NUMERIC_DTYPES:
        for kind in ("signed integer", "unsigned integer", "integral", "real floating", "complex floating"):
            assert cp.isdtype(t, kind) == np.isdtype(t, kind)


def test_astype_function_device_mT(device):
    x = cp.asarray(np.arange(24.0).reshape(2, 3, 4))
    y = cp.astype(x, cp.int32)
    assert y.dtype == np.int32
    assert cp.astype(x, cp.float64, copy=False) is x or cp.astype(x, cp.float64, copy=False).data_ptr == x.data_ptr
    assert x.device == cp.Device(device)
    np.testing.assert_array_equal(x.mT.get(), np.swapaxes(np.arange(24.0).reshape(2, 3, 4), -1, -2))
    for target in DEVICES:
        z = x.to_device(target)
        assert z.device == cp.Device(target)
        np.testing.assert_array_equal(z.get(), x.get())
        assert cp.astype(x, cp.float32, device=target).device == cp.Device(target)
    assert x.to_device(device) is x
    with pytest.raises(ValueError):
        cp.zeros(3).mT


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES + [np.bool_, np.complex128])
def test_cumulative_sum_and_prod(device, dtype):
    rng = np.random.default_rng(7)
    a = random_array(rng, (3, 5), dtype, -3, 3)
    x = cp.asarray(a)
    for axis in (0, 1, -1):
        for include_initial in (False, True):
            want = np.cumulative_sum(a, axis=axis, include_initial=include_initial)
            got = cp.cumulative_sum(x, axis=axis, include_initial=include_initial)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-5)
            want = np.cumulative_prod(a, axis=axis, include_initial=include_initial)
            got = cp.cumulative_prod(x, axis=axis, include_initial=include_initial)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-5)
    one_d = cp.asarray(a[0])
    np.testing.assert_allclose(cp.cumulative_sum(one_d, dtype=cp.float64).get(),
                               np.cumulative_sum(a[0], dtype=np.float64))
    with pytest.raises(ValueError):
        cp.cumulative_sum(x)  # axis is required above 1-d


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64])
def test_cumulative_0d_and_out(device, name, dtype):
    """NumPy scans a 0-d input as 1-d and writes into out= (of the result's shape)."""
    rng = np.random.default_rng(9)
    a = random_array(rng, (3, 4, 5), dtype, -3, 3)
    x = cp.asarray(a)
    nf, cf = getattr(np, name), getattr(cp, name)
    for include_initial in (False, True):
        s = np.asarray(a[0, 0, 0])
        got, want = cf(cp.asarray(s), include_initial=include_initial), nf(s, include_initial=include_initial)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=1e-5)
        want = nf(a, axis=1, include_initial=include_initial)
        out = cp.zeros(want.shape, dtype=dtype)
        assert cf(x, axis=1, out=out, include_initial=include_initial) is out
        np.testing.assert_allclose(out.get(), want, rtol=1e-5)
    for xp in (np, cp):
        with pytest.raises(ValueError):
            getattr(xp, name)(xp.ones((3, 4)), axis=1, out=xp.zeros((3, 5)))
    # out= of another dtype takes the result cast (NumPy's accumulate casts into out unsafely).
    for out_dtype in (np.bool_, np.uint8, np.float16):
        want = np.zeros(a.shape, out_dtype)
        nf(a.real, axis=1, out=want)
        out = cp.zeros(a.shape, out_dtype)
        assert cf(cp.asarray(a.real), axis=1, out=out) is out
        np.testing.assert_allclose(out.get().astype(np.float64), want.astype(np.float64), rtol=1e-3)


def test_matrix_transpose_vecdot_unstack(device):
    rng = np.random.default_rng(8)
    a, b = random_array(rng, (2, 3, 4), np.complex128), random_array(rng, (3, 4), np.complex128)
    x, y = cp.asarray(a), cp.asarray(b)
    np.testing.assert_array_equal(cp.matrix_transpose(x).get(), np.matrix_transpose(a))
    for axis in (-1, -2):
        np.testing.assert_allclose(cp.vecdot(x, y, axis=axis).get(), np.vecdot(a, b, axis=axis), rtol=1e-12)
    # An axis names each operand's own axis (NumPy's gufunc), so a non-negative one can
    # name axes of different lengths in operands of different ranks.
    c = random_array(rng, (3, 1), np.complex128)
    for fn in (cp.vecdot, cp.linalg.vecdot):
        with pytest.raises(ValueError):
            fn(x, y, axis=1)
        np.testing.assert_allclose(fn(x, cp.asarray(c[None]), axis=1).get(), np.vecdot(a, c[None], axis=1), rtol=1e-12)
    with pytest.raises(np.exceptions.AxisError):
        cp.vecdot(x, y, axis=-3)
    ai = random_array(rng, (5, 3), np.int16)
    np.testing.assert_array_equal(cp.vecdot(cp.asarray(ai), cp.asarray(ai[0])).get(), np.vecdot(ai, ai[0]))
    for dtype in (np.uint8, np.int16, np.float32):  # the operands' dtype: no widening as in sum
        au = random_array(rng, (4, 3), dtype)
        got, want = cp.vecdot(cp.asarray(au), cp.asarray(au)), np.vecdot(au, au)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-5)
    with pytest.raises(ValueError):
        cp.vecdot(x, cp.asarray(b[:, :3]))
    for axis in (0, 1, -1):
        got = cp.unstack(x, axis=axis)
        want = np.unstack(a, axis=axis)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float32, np.bool_, np.complex64])
def test_diff(device, dtype):
    rng = np.random.default_rng(9)
    a = random_array(rng, (4, 6), dtype, 0, 9)
    x = cp.asarray(a)
    for n in (0, 1, 2, 5, 7):
        for axis in (0, 1, -1):
            np.testing.assert_array_equal(cp.diff(x, n=n, axis=axis).get(), np.diff(a, n=n, axis=axis))
    pre, app = a[:1].astype(dtype), a[:, :2]
    np.testing.assert_array_equal(cp.diff(x, axis=0, prepend=cp.asarray(pre)).get(), np.diff(a, axis=0, prepend=pre))
    np.testing.assert_array_equal(cp.diff(x, append=cp.asarray(app)).get(), np.diff(a, append=app))
    np.testing.assert_array_equal(cp.diff(x, prepend=1).get(), np.diff(a, prepend=1))
    with pytest.raises(ValueError):
        cp.diff(x, n=-1)
    with pytest.raises(ValueError):
        cp.diff(cp.asarray(np.float32(1)))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(device, indexing, sparse):
    a, b, c = np.arange(3.0), np.arange(4), np.linspace(0, 1, 2)
    for inputs in ((a,), (a, b), (a, b, c)):
        want = np.meshgrid(*inputs, indexing=indexing, sparse=sparse)
        got = cp.meshgrid(*[cp.asarray(v) for v in inputs], indexing=indexing, sparse=sparse)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g.get(), w)
    assert cp.meshgrid() == ()
    with pytest.raises(ValueError):
        cp.meshgrid(cp.asarray(a), indexing="yx")


def test_concat(device):
    a, b = np.arange(6).reshape(2, 3), np.ones((1, 3), dtype=np.int8)
    np.testing.assert_array_equal(cp.concat([cp.asarray(a), cp.asarray(b)]).get(), np.concat([a, b]))
    np.testing.assert_array_equal(cp.concat([cp.asarray(a), cp.asarray(b)], axis=None).get(),
                                  np.concat([a, b], axis=None))


def test_linalg_extension(device):
    rng = np.random.default_rng(10)
    a = random_array(rng, (2, 4, 3), np.float64)
    v = random_array(rng, (5, 3), np.float64)
    x, w = cp.asarray(a), cp.asarray(v)
    np.testing.assert_allclose(cp.linalg.cross(w, w[::-1]).get(), np.linalg.cross(v, v[::-1]))
    with pytest.raises(ValueError):
        cp.linalg.cross(x[:, :2, :2], x[:, :2, :2])
    np.testing.assert_array_equal(cp.linalg.diagonal(x, offset=1).get(), np.linalg.diagonal(a, offset=1))
    np.testing.assert_allclose(cp.linalg.trace(x, offset=-1).get(), np.linalg.trace(a, offset=-1))
    np.testing.assert_allclose(cp.linalg.outer(w[0], w[1]).get(), np.linalg.outer(v[0], v[1]))
    np.testing.assert_array_equal(cp.linalg.matrix_transpose(x).get(), np.linalg.matrix_transpose(a))
    np.testing.assert_allclose(cp.linalg.vecdot(w, w).get(), np.linalg.vecdot(v, v))
    for axis in (None, 0, 1, (0, 2), (2, 0), (0, 1, 2)):
        for ord in (2, 1, np.inf, -np.inf, 0, 3.5, -1):
            for keepdims in (False, True):
                want = np.linalg.vector_norm(a, axis=axis, ord=ord, keepdims=keepdims)
                got = cp.linalg.vector_norm(x, axis=axis, ord=ord, keepdims=keepdims)
                assert got.shape == want.shape, (axis, ord, keepdims)
                np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    c = random_array(rng, (4,), np.complex64)
    got = cp.linalg.vector_norm(cp.asarray(c))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), np.linalg.vector_norm(c), rtol=1e-6)


# ---- the new elementwise ops (one definition each in src/ops/scalar_ops.h) ----

EDGE = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.75, 1e-310, -1e-310, 1e308, -1e308, np.inf, -np.inf, np.nan])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["copysign", "nextafter", "logaddexp", "logaddexp2"])
def test_new_binary_ops_match_numpy(device, dtype, name):
    a = EDGE.astype(dtype)
    x1, x2 = np.meshgrid(a, a)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x1, x2)
    got = getattr(cp, name)(cp.asarray(x1), cp.asarray(x2))
    assert got.dtype == want.dtype
    if name.startswith("logaddexp"):
        np.testing.assert_allclose(got.get(), want, rtol=4 * np.finfo(dtype).eps, equal_nan=True)
    else:
        np.testing.assert_array_equal(got.get(), want)
        np.testing.assert_array_equal(np.signbit(got.get()), np.signbit(want))


def test_logaddexp_random_values(device):
    rng = np.random.default_rng(11)
    a, b = rng.normal(0, 50, 1000), rng.normal(0, 50, 1000)
    for name in ("logaddexp", "logaddexp2"):
        np.testing.assert_allclose(getattr(cp, name)(cp.asarray(a), cp.asarray(b)).get(), getattr(np, name)(a, b),
                                   rtol=1e-15)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32, np.uint8, np.bool_])
def test_signbit_and_integer_inputs(device, dtype):
    a = random_array(np.random.default_rng(12), (20,), dtype)
    got = cp.signbit(cp.asarray(a))
    want = np.signbit(a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)
    if dtype != np.bool_:
        got, want = cp.copysign(cp.asarray(a), -1.5), np.copysign(a, -1.5)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(TypeError):
        cp.signbit(cp.asarray(np.array([1 + 1j])))


def test_matrix_transpose_of_1d(device):
    """NumPy words the two errors apart: matrix_transpose() and the mT property."""
    for xp in (np, cp):
        v = xp.arange(6)
        with pytest.raises(ValueError, match="^Input array must be at least 2-dimensional, but it is 1$"):
            xp.matrix_transpose(v)
        with pytest.raises(ValueError, match="^matrix transpose with ndim < 2 is undefined$"):
            v.mT
