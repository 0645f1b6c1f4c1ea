"""copyto (where=, NEP 50 scalars), ndarray.view(dtype) of another item size, fill,
tobytes, byteswap, astype's ComplexWarning, byte orders and nested lists of copper arrays, with NumPy
as the oracle."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("src", [3.2, 0, 4, -4, True, False, 1 + 1j])
def test_copyto_python_scalars(device, dtype, src):
    results = []
    for xp in (np, cp):
        dst = xp.ones((2, 2), dtype=dtype)
        try:
            xp.copyto(dst, src)
            results.append(np.asarray(dst.get() if xp is cp else dst))
        except (TypeError, OverflowError) as e:
            results.append(type(e))
    if isinstance(results[0], type):
        assert results[1] is results[0]
    else:
        np.testing.assert_array_equal(results[1], results[0])


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128, np.bool_])
def test_copyto_where(device, rng, dtype):
    dst_n = random_array(rng, (2, 3, 4), dtype)
    src_n = random_array(rng, (1, 3, 4), dtype)
    for mask_n in (rng.random((2, 3, 4)) < 0.5, rng.random((3, 1)) < 0.5, np.array(True)):
        dst, src = cp.asarray(dst_n), cp.asarray(src_n)
        want = dst_n.copy()
        np.copyto(want, src_n, where=mask_n)
        cp.copyto(dst, src, where=cp.asarray(mask_n))
        np.testing.assert_array_equal(dst.get(), want)
    for where in (3.2, 0, -4, True, False, 1 + 1j):  # scalars count by their truth value
        dst = cp.asarray(dst_n)
        want = dst_n.copy()
        np.copyto(want, src_n, where=where)
        cp.copyto(dst, cp.asarray(src_n), where=where)
        np.testing.assert_array_equal(dst.get(), want)
    dst = cp.asarray(dst_n)
    want = dst_n.copy()
    one = True if dtype is np.bool_ else 1  # NumPy refuses the int 1 into bool under same_kind
    np.copyto(want, one, where=dst_n != 0)
    cp.copyto(dst, one, where=dst != 0)
    np.testing.assert_array_equal(dst.get(), want)
    if dtype is np.bool_:
        with pytest.raises(TypeError):
            cp.copyto(dst, 1, where=dst)
    with pytest.raises(TypeError):
        cp.copyto(cp.asarray(dst_n), cp.asarray(src_n), where=cp.ones((2, 3, 4), np.int32))


def test_copyto_where_casting_checks_first(device):
    dst = cp.zeros(3, np.int8)
    with pytest.raises(TypeError, match="according to the rule 'same_kind'"):
        cp.copyto(dst, cp.ones(3), where=cp.asarray([True, False, True]))
    with pytest.raises(OverflowError):
        cp.copyto(dst, 300, where=cp.asarray([True, False, True]))
    assert not dst.get().any()


@pytest.mark.parametrize("to", [np.int8, np.int16, np.float32, np.float64, np.complex128])
def test_view_with_another_itemsize(device, rng, to):
    base = random_array(rng, (3, 8), np.int32)
    for n in (base, base[1:], base[:, 2:6], np.asfortranarray(base), base.T, base[:, ::2], base[:1],
              base[:, :0], base[0]):
        c = _same_view(cp.asarray(base), base, n)
        try:
            want = n.view(to)
        except ValueError:
            with pytest.raises(ValueError):
                c.view(to)
            continue
        got = c.view(to)
        assert got.shape == want.shape and got.strides == want.strides and got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
        assert got.base is not None
    with pytest.raises(ValueError, match="0d array"):
        cp.asarray(np.int32(3)).view(np.int8)


def _same_view(c, base, n):
    """c (a copper copy of base) viewed the way n views base."""
    if n is base:
        return c
    offset = n.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    if not n.flags.c_contiguous and n.flags.f_contiguous and n.base is None:  # asfortranarray: a copy
        return cp.asfortranarray(c)
    return cp.ndarray(n.shape, n.dtype, c.data + offset, strides=n.strides)


def test_fill_takes_one_value(device):
    a = cp.zeros(3)
    a.fill(2)
    a.fill(cp.asarray(5.0))
    np.testing.assert_array_equal(a.get(), [5, 5, 5])
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        a.fill(cp.ones(2))
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        a.fill([1, 2])
    for one in (cp.ones(1), np.ones(1), [7]):  # NumPy 2: one element, but not 0-d
        with pytest.raises(ValueError, match="setting an array element with a sequence"):
            a.fill(one)


@pytest.mark.parametrize("order", ["C", "F", "A", None])
def test_tobytes(device, rng, order):
    n = random_array(rng, (3, 4), np.int16)
    for v in (n, n.T, n[:, ::2], np.asfortranarray(n)):
        kw = {} if order is None else {"order": order}
        assert cp.asarray(v).tobytes(**kw) == v.tobytes(**kw) or order == "A" and v.flags.f_contiguous


@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
@pytest.mark.parametrize("shape", [(3, 4), (0,), ()])
def test_bytes_of_array(device, rng, dtype, shape):
    """bytes(a) is the elements' bytes in C order, as NumPy's buffer protocol gives."""
    n = np.asarray(random_array(rng, shape, dtype))
    c = cp.asarray(n)
    assert bytes(c) == bytes(n)
    assert bytes(cp.asfortranarray(c)) == bytes(np.asfortranarray(n))
    if n.ndim == 2:
        assert bytes(c.T[:, ::2]) == bytes(n.T[:, ::2])


def test_astype_warns_when_dropping_imaginary_parts(device):
    z = cp.asarray([1 + 2j, 3 - 1j])
    with pytest.warns(np.exceptions.ComplexWarning):
        r = z.astype(np.float64)
    np.testing.assert_array_equal(r.get(), [1.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z.astype(np.bool_)
        z.astype(np.complex64)


def test_non_native_byte_orders(device):
    for f in (lambda: cp.zeros(3, dtype=">i4"), lambda: cp.ndarray(3, dtype=">f8"),
              lambda: cp.ones(2).astype(">f4"), lambda: cp.array([1, 2], dtype=">i2")):
        with pytest.raises(ValueError, match="byte-order"):
            f()
    big = np.arange(6, dtype=">i4").reshape(2, 3)
    np.testing.assert_array_equal(cp.asarray(big).get(), big)
    assert cp.asarray(big).dtype == np.int32
    assert cp.zeros_like(big).dtype == np.int32


def test_nested_lists_of_copper_arrays(device, rng):
    a = random_array(rng, (3, 4), np.int16)
    b = random_array(rng, (3, 4), np.float32)
    for order in ("C", "F", "K"):
        for dtype in (None, np.float64, np.int8):
            want = np.array([a, b], dtype=dtype, order=order)
            got = cp.array([cp.asarray(a), cp.asarray(b)], dtype=dtype, order=order)
            assert got.dtype == want.dtype and got.strides == want.strides
            np.testing.assert_array_equal(got.get(), want)
    want = np.array([[a[0], b[0]], [a[1], b[1]]])
    got = cp.array([[cp.asarray(a[0]), cp.asarray(b[0])], [cp.asarray(a[1]), b[1]]])
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(cp.array((cp.asarray(a[0]), a[1].tolist())).get(), np.array((a[0], a[1])))
    with pytest.raises(ValueError):
        cp.array([cp.ones(2), cp.ones(3)])


def test_empty_shape_none_and_strides_without_memptr(device):
    with pytest.raises(TypeError, match=r"Use \(\)"):
        cp.empty(None)
    a = cp.ndarray((2, 3, 4), strides=(8, 0, 8), dtype="float64")
    lo, hi = cp.byte_bounds(a)
    assert lo == a.data.ptr and hi - lo <= a.data.mem.size
    assert cp.ndarray((2, 0, 4), strides=(8, 128, 1024)).shape == (2, 0, 4)
    for strides in [(8, 128, 1024), (-8, 8, 8)]:
        with pytest.raises(ValueError, match=r"ndarray\(\) with strides"):
            cp.ndarray((2, 3, 4), strides=strides)
    n = np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2]
    c = cp.asarray(np.arange(24.0).reshape(2, 3, 4))[:, ::-1, ::2]
    n_lo, n_hi = np.lib.array_utils.byte_bounds(n)
    c_lo, c_hi = cp.byte_bounds(c)
    assert (c_hi - c_lo, c_lo - c.data.mem.ptr) == (n_hi - n_lo, n_lo - np.lib.array_utils.byte_bounds(n.base)[0])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("inplace", [False, True])
def test_byteswap(device, rng, dtype, inplace):
    base = random_array(rng, (4, 6), dtype)
    for view in (lambda t: t, lambda t: t[::2, ::-3], lambda t: t.T, lambda t: t[1, 2, ...], lambda t: t[:0]):
        a = view(base.copy())
        x = view(cp.asarray(base))
        want = a.byteswap(inplace=inplace)
        got = x.byteswap(inplace=inplace)
        if inplace:
            assert got is x
        assert got.dtype == want.dtype and got.shape == want.shape
        # compare the bytes: swapped floats may be NaNs of any payload
        raw = lambda v: np.ascontiguousarray(v).reshape(-1).view(np.uint8)  # noqa: E731
        np.testing.assert_array_equal(raw(got.get()), raw(want))
