"""Every error the ufuncs raise: NumPy's exception type and NumPy's own message (taken
from NumPy at run time), and the arrays involved left untouched."""
import operator
import re

import numpy as np
import pytest

import copper as cp
from conftest import random_array


def numpy_error(fn):
    """The exception type copper must raise (NumPy's, or the builtin it derives from) and NumPy's message."""
    with np.errstate(all="ignore"):
        try:
            fn()
        except Exception as exc:
            for t in (OverflowError, ValueError, TypeError):
                if isinstance(exc, t):
                    return t, str(exc)
            raise
    raise AssertionError("NumPy did not raise")


def assert_raises_like_numpy(np_fn, cp_fn):
    exc_type, message = numpy_error(np_fn)
    with pytest.raises(exc_type, match="^" + re.escape(message) + "$"):
        cp_fn()


@pytest.mark.parametrize("dtype,value", [(np.int8, 300), (np.int8, -129), (np.uint8, -1), (np.uint16, 70000),
                                         (np.int32, 2**31), (np.uint64, -1)])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_and", "power"])
def test_python_int_out_of_bounds(device, dtype, value, name):
    a = np.array([1, 2, 3], dtype=dtype)
    assert_raises_like_numpy(lambda: getattr(np, name)(a, value), lambda: getattr(cp, name)(cp.asarray(a), value))


def test_operator_overflow_messages(device):
    a = np.array([1, 2], np.int8)
    ca = cp.asarray(a)
    assert_raises_like_numpy(lambda: a + 300, lambda: ca + 300)
    assert_raises_like_numpy(lambda: 300 - a, lambda: 300 - ca)
    u = np.array([1, 2], np.uint8)
    assert_raises_like_numpy(lambda: u ** -1, lambda: cp.asarray(u) ** -1)


def test_boolean_subtract_and_negative(device):
    b = np.array([True, False])
    cb = cp.asarray(b)
    assert_raises_like_numpy(lambda: b - b, lambda: cb - cb)
    assert_raises_like_numpy(lambda: np.subtract(b, True), lambda: cp.subtract(cb, True))
    assert_raises_like_numpy(lambda: -b, lambda: -cb)
    assert_raises_like_numpy(lambda: np.negative(b), lambda: cp.negative(cb))


@pytest.mark.parametrize("name", ["positive", "sign"])
def test_no_boolean_loop(device, name):
    b = np.array([True, False])
    assert_raises_like_numpy(lambda: getattr(np, name)(b), lambda: getattr(cp, name)(cp.asarray(b)))


@pytest.mark.parametrize("name,dtype", [("bitwise_and", np.float64), ("invert", np.float32), ("left_shift", np.float16),
                                        ("floor_divide", np.complex64), ("arctan2", np.complex128),
                                        ("floor", np.complex64), ("remainder", np.complex128)])
def test_unsupported_input_types(device, name, dtype):
    a = np.ones(3, dtype)
    fn = getattr(np, name)
    args = (a,) if fn.nin == 1 else (a, a)
    cargs = tuple(cp.asarray(x) for x in args)
    assert_raises_like_numpy(lambda: fn(*args), lambda: getattr(cp, name)(*cargs))


def test_mixed_float_and_integer_bitwise(device):
    a, b = np.ones(3, np.float32), np.ones(3, np.int32)
    assert_raises_like_numpy(lambda: a & b, lambda: cp.asarray(a) & cp.asarray(b))
    assert_raises_like_numpy(lambda: a << 1, lambda: cp.asarray(a) << 1)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_negative_integer_power(device, rng, dtype):
    a = random_array(rng, (4,), dtype, 1, 5)
    e = np.array([2, 0, -1, 3], dtype=dtype)
    ca = cp.asarray(a)
    assert_raises_like_numpy(lambda: a ** e, lambda: ca ** cp.asarray(e))
    assert_raises_like_numpy(lambda: a ** -2, lambda: ca ** -2)
    assert_raises_like_numpy(lambda: np.power(a, np.int64(-1)), lambda: cp.power(ca, np.int64(-1)))
    # Empty inputs never run the loop, so NumPy raises nothing there.
    empty = np.zeros((0,), dtype)
    np.testing.assert_array_equal(cp.power(cp.asarray(empty), -1).get(), empty ** -1)
    # A float exponent is fine.
    np.testing.assert_allclose(cp.power(ca, -1.0).get(), a ** -1.0, rtol=1e-15)


def test_broadcast_errors(device):
    a, b = np.ones((2, 3)), np.ones(4)
    assert_raises_like_numpy(lambda: a + b, lambda: cp.asarray(a) + cp.asarray(b))
    assert_raises_like_numpy(lambda: np.clip(a, b, 1.0), lambda: cp.clip(cp.asarray(a), cp.asarray(b), 1.0))
    assert_raises_like_numpy(lambda: np.where(np.ones(2, bool), np.ones(3), np.ones(4)),
                             lambda: cp.where(cp.asarray(np.ones(2, bool)), cp.asarray(np.ones(3)),
                                              cp.asarray(np.ones(4))))


@pytest.mark.parametrize("out_shape,in_shape", [((3,), (2, 3)), ((1, 3), (2, 3)), ((2,), (3,)), ((4, 1, 3), (2, 3))])
def test_out_with_wrong_shape(device, out_shape, in_shape):
    a = np.ones(in_shape)
    out = np.zeros(out_shape)
    cout = cp.asarray(out)
    assert_raises_like_numpy(lambda: np.add(a, 1, out=out), lambda: cp.add(cp.asarray(a), 1, out=cout))
    np.testing.assert_array_equal(cout.get(), out)


def test_out_with_wrong_dtype_leaves_it_untouched(device, rng):
    a = random_array(rng, (3,), np.float64)
    out = np.array([1, 2, 3], np.int64)
    cout = cp.asarray(out)
    assert_raises_like_numpy(lambda: np.add(a, 1.5, out=out), lambda: cp.add(cp.asarray(a), 1.5, out=cout))
    np.testing.assert_array_equal(cout.get(), [1, 2, 3])
    f32 = cp.asarray(np.zeros(3, np.float32))
    assert_raises_like_numpy(lambda: np.add(a, 1, out=np.zeros(3, np.float32), casting="safe"),
                             lambda: cp.add(cp.asarray(a), 1, out=f32, casting="safe"))


def test_out_argument_forms(device):
    a = cp.asarray(np.ones(3))
    assert_raises_like_numpy(lambda: np.add(np.ones(3), 1, out=5), lambda: cp.add(a, 1, out=5))
    assert_raises_like_numpy(lambda: np.add(np.ones(3), 1, out=(np.ones(3), np.ones(3))),
                             lambda: cp.add(a, 1, out=(a, a)))


def test_inplace_same_kind_errors_leave_array_untouched(device, rng):
    for dtype, other in [(np.int64, 1.5), (np.int32, np.float32(2)), (np.float32, 1j), (np.uint8, np.int8(1))]:
        a = random_array(rng, (4,), dtype, 1, 9)
        ca = cp.asarray(a)
        def np_op():
            b = a.copy()
            b += other
        def cp_op():
            c = ca
            c += other
        assert_raises_like_numpy(np_op, cp_op)
        np.testing.assert_array_equal(ca.get(), a)
    i = cp.asarray(np.array([1, 2], np.int64))
    assert_raises_like_numpy(lambda: operator.itruediv(np.array([1, 2], np.int64), 2),
                             lambda: operator.itruediv(i, 2))


def test_casting_checked_before_broadcasting(device, rng):
    # NumPy resolves the loop and checks out='s casting before it broadcasts.
    a = random_array(rng, (3,), np.int8, -5, 5)
    ca = cp.asarray(a)
    b = random_array(rng, (4,), np.float64, -5, 5)
    def np_op():
        x = a.copy()
        x += b
    def cp_op():
        x = ca
        x += cp.asarray(b)
    assert_raises_like_numpy(np_op, cp_op)
    assert_raises_like_numpy(lambda: np.add(a, b, out=a.copy()), lambda: cp.add(ca, cp.asarray(b), out=ca))
    np.testing.assert_array_equal(ca.get(), a)


def test_dtype_argument_errors(device):
    f = np.ones(3)
    assert_raises_like_numpy(lambda: np.add(f, 1, dtype=np.int64), lambda: cp.add(cp.asarray(f), 1, dtype=np.int64))
    assert_raises_like_numpy(lambda: np.sqrt(f, dtype=np.int64), lambda: cp.sqrt(cp.asarray(f), dtype=np.int64))
    assert_raises_like_numpy(lambda: np.less(f, 1, dtype=np.float64),
                             lambda: cp.less(cp.asarray(f), 1, dtype=np.float64))


def test_casting_argument_errors(device):
    a = np.ones(3, np.int8)
    assert_raises_like_numpy(lambda: np.add(a, np.int16(1), casting="no"),
                             lambda: cp.add(cp.asarray(a), np.int16(1), casting="no"))
    assert_raises_like_numpy(lambda: np.add(a, np.ones(3, np.int16), casting="equiv"),
                             lambda: cp.add(cp.asarray(a), cp.asarray(np.ones(3, np.int16)), casting="equiv"))
    with pytest.raises(ValueError):
        cp.add(cp.asarray(a), 1, casting="bogus")


def test_round_bool_with_decimals(device):
    b = np.array([True, False])
    assert_raises_like_numpy(lambda: np.round(b, 1), lambda: cp.round(cp.asarray(b), 1))


def test_where_needs_both_or_neither(device):
    c = cp.asarray(np.array([True, False]))
    assert_raises_like_numpy(lambda: np.where([True, False], 1), lambda: cp.where(c, 1))


def test_unsupported_operand_objects(device):
    a = cp.asarray(np.arange(3))
    for bad in ["abc", object(), None]:
        with pytest.raises(TypeError):
            a + bad
        with pytest.raises(TypeError):
            bad - a
        with pytest.raises(TypeError):
            cp.add(a, bad)


def complex_warnings(fn):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    assert all(w.category is np.exceptions.ComplexWarning for w in caught), [w.category for w in caught]
    return len(caught)


@pytest.mark.parametrize("out_dtype", [np.float64, np.float16, np.int32, np.bool_, np.complex64])
def test_complex_warning_on_unsafe_casts(device, rng, out_dtype):
    """NumPy warns (ComplexWarning) once per cast that drops imaginary parts: out=, dtype=."""
    z = random_array(rng, (2, 3), np.complex128)
    r = random_array(rng, (2, 3), np.float64)
    for xp in (np, cp):
        a, b = xp.asarray(z), xp.asarray(r)
        cases = [lambda: xp.add(a, a, out=xp.zeros((2, 3), out_dtype), casting="unsafe"),
                 lambda: xp.add(a, a, dtype=out_dtype, casting="unsafe"),
                 lambda: xp.add(a, b, dtype=out_dtype, casting="unsafe")]
        counts = [complex_warnings(f) for f in cases]
        if xp is np:
            want = counts
        else:
            assert counts == want
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = cp.zeros(1 << 17, cp.complex128)  # big enough that the work runs without the GIL
        with pytest.raises(np.exceptions.ComplexWarning):
            cp.add(big, big, out=cp.zeros(1 << 17), casting="unsafe")
