"""Arithmetic ufuncs and operators against NumPy over every dtype, mixed dtypes,
Python scalars (NEP 50), integer corner cases and IEEE special values."""
import operator

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from ufunc_cases import assert_same, check, np_call, random_operand

UNARY_ARITH = ["negative", "positive", "absolute", "reciprocal", "square", "conjugate", "sign"]
BINARY_ARITH = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power"]
MIXED_DTYPE_OPS = ["add", "subtract", "true_divide", "floor_divide", "power"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", UNARY_ARITH)
def test_unary_arithmetic_every_dtype(device, rng, name, dtype):
    x = random_operand(rng, name, (3, 5), dtype)
    if name == "reciprocal" and np.dtype(dtype).kind in "iu":
        x[x == 0] = 1  # integer reciprocal of 0 is undefined behaviour in NumPy's C loop
    check(getattr(np, name), getattr(cp, name), (x,), (cp.asarray(x),), name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", BINARY_ARITH)
def test_binary_arithmetic_every_dtype(device, rng, name, dtype):
    a = random_operand(rng, name, (4, 5), dtype)
    b = random_operand(rng, name, (4, 5), dtype)
    if name == "power" and np.dtype(dtype).kind in "iu":
        b = np.abs(b)  # negative integer exponents raise (tested separately)
    check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("name", MIXED_DTYPE_OPS)
@pytest.mark.parametrize("dtype1", ALL_DTYPES)
@pytest.mark.parametrize("dtype2", ALL_DTYPES)
def test_mixed_dtypes(device, rng, name, dtype1, dtype2):
    a = random_operand(rng, name, (6,), dtype1)
    b = random_operand(rng, name, (6,), dtype2)
    if name == "power":
        b = np.abs(b) if np.dtype(dtype2).kind in "iu" else b
    check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_division_by_zero_gives_zero(device, dtype):
    a = np.array([7, 0, 5, 100, 3], dtype=dtype)
    b = np.array([0, 0, 2, 0, 3], dtype=dtype)
    ca, cb = cp.asarray(a), cp.asarray(b)
    for name in ["floor_divide", "remainder", "fmod"]:
        check(getattr(np, name), getattr(cp, name), (a, b), (ca, cb), name)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_signed_integer_floor_division_and_remainder_signs(device, dtype):
    a = np.array([7, -7, 7, -7, -128 if dtype == np.int8 else -9, 0], dtype=dtype)
    b = np.array([2, 2, -2, -2, -1, -3], dtype=dtype)
    for name in ["floor_divide", "remainder", "fmod"]:
        check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)
    # The most negative value divided by -1 overflows; NumPy wraps it.
    info = np.iinfo(dtype)
    m = np.array([info.min, info.min], dtype=dtype)
    n = np.array([-1, 1], dtype=dtype)
    check(np.floor_divide, cp.floor_divide, (m, n), (cp.asarray(m), cp.asarray(n)), "floor_divide")


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_overflow_wraps(device, dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max // 2 + 1], dtype=dtype)
    b = np.array([1, -1 if info.min < 0 else 1, 3], dtype=dtype)
    for name in ["add", "subtract", "multiply", "power"]:
        bb = np.abs(b) if name == "power" else b
        check(getattr(np, name), getattr(cp, name), (a, bb), (cp.asarray(a), cp.asarray(bb)), name)
    check(np.negative, cp.negative, (a,), (cp.asarray(a),), "negative")
    check(np.absolute, cp.absolute, (a,), (cp.asarray(a),), "absolute")


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [np.complex64, np.complex128])
def test_ieee_special_values(device, dtype):
    specials = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5], dtype=dtype)
    a = np.repeat(specials, len(specials))
    b = np.tile(specials, len(specials))
    ca, cb = cp.asarray(a), cp.asarray(b)
    names = ["add", "subtract", "multiply", "true_divide"]
    if np.dtype(dtype).kind == "f":
        names += ["floor_divide", "remainder", "fmod", "power"]
    for name in names:
        check(getattr(np, name), getattr(cp, name), (a, b), (ca, cb), name)
    for name in ["negative", "absolute", "reciprocal", "square", "sign"]:
        check(getattr(np, name), getattr(cp, name), (specials,), (cp.asarray(specials),), name)


BINARY_OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
                    operator.mod, operator.pow]


@pytest.mark.parametrize("op", BINARY_OPERATORS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
                                   np.complex64])
def test_operators_with_arrays_and_python_scalars(device, rng, op, dtype):
    kind = np.dtype(dtype).kind
    if kind == "c" and op in (operator.floordiv, operator.mod):
        pytest.skip("NumPy has no complex floor division")
    a = random_array(rng, (3, 4), dtype, 1, 9)
    b = random_array(rng, (3, 4), dtype, 1, 9)
    ca, cb = cp.asarray(a), cp.asarray(b)
    name = {"truediv": "true_divide", "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
            "sub": "subtract", "mul": "multiply"}.get(op.__name__, op.__name__)
    assert_same(op(ca, cb), np_call(op, a, b), name)
    complex_ok = kind in "fc" and op not in (operator.floordiv, operator.mod)
    for scalar in [3, 2.5, True] + ([1 + 2j] if complex_ok else []):
        assert_same(op(ca, scalar), np_call(op, a, scalar), name)
        assert_same(op(scalar, ca), np_call(op, scalar, a), name)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_numpy_scalars_are_strong_and_numpy_arrays_are_taken(device, rng, dtype):
    a = random_array(rng, (5,), dtype, 1, 9)
    ca = cp.asarray(a)
    for other in [np.float64(2.5), np.int64(3), np.float32(1.5), np.int8(2), np.array([1, 2, 3, 4, 5], np.int16)]:
        assert_same(ca * other, a * other, "multiply")
        if isinstance(other, np.ndarray):  # NumPy's operator first: refused as in CuPy
            with pytest.raises(TypeError):
                other - ca
        else:
            assert_same(other - ca, other - a, "subtract")
    assert_same(ca + [1, 2, 3, 4, 5], a + np.array([1, 2, 3, 4, 5]), "add")


def test_unary_operators(device, rng):
    a = random_array(rng, (2, 3), np.int16)
    ca = cp.asarray(a)
    assert_same(-ca, -a, "negative")
    assert_same(+ca, +a, "positive")
    assert_same(abs(ca), abs(a), "absolute")
    assert_same(~ca, ~a, "invert")
    b = random_array(rng, (4,), np.bool_)
    assert_same(~cp.asarray(b), ~b, "invert")
    assert_same(abs(cp.asarray(b)), abs(b), "absolute")


def test_divmod_operator(device, rng):
    a = random_array(rng, (6,), np.int32)
    b = random_array(rng, (6,), np.int32, 1, 9)
    q, r = divmod(cp.asarray(a), cp.asarray(b))
    eq, er = divmod(a, b)
    assert_same(q, eq, "floor_divide")
    assert_same(r, er, "remainder")
    q, r = divmod(7, cp.asarray(b))
    assert_same(q, 7 // b, "floor_divide")
    assert_same(r, 7 % b, "remainder")


@pytest.mark.parametrize("op", ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow"])
@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float32, np.float64, np.complex128])
def test_inplace_operators_write_into_the_same_array(device, rng, op, dtype):
    kind = np.dtype(dtype).kind
    if kind == "c" and op in ("ifloordiv", "imod"):
        pytest.skip("NumPy has no complex floor division")
    a = random_array(rng, (3, 4), dtype, 1, 9)
    b = random_array(rng, (3, 4), dtype, 1, 5)
    ca = cp.asarray(a)
    alias = ca
    try:
        expected = np_call(getattr(operator, op), a.copy(), b)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(operator, op)(ca, cp.asarray(b))
        np.testing.assert_array_equal(ca.get(), a)  # untouched on error
        return
    result = getattr(operator, op)(ca, cp.asarray(b))
    assert result is alias
    name = {"itruediv": "true_divide", "ipow": "power", "imul": "multiply"}.get(op, "add")
    assert_same(ca, expected, name)


def test_inplace_with_scalars_follows_same_kind(device, rng):
    a = random_array(rng, (5,), np.float32)
    ca = cp.asarray(a)
    ca *= 5
    a *= 5
    assert_same(ca, a, "multiply")
    ca += 1.5
    a += 1.5
    assert_same(ca, a, "add")
    i = random_array(rng, (5,), np.int64)
    ci = cp.asarray(i)
    ci <<= 2
    i <<= 2
    assert_same(ci, i, "left_shift")


def test_seed_chain_inplace(device, rng):
    x = random_array(rng, (50, 40), np.float64)
    cx = cp.asarray(x)
    cx *= 5
    cx *= cx
    cx += cx
    x *= 5
    x *= x
    x += x
    assert_same(cx, x, "multiply")


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.bool_])
def test_true_divide_of_integers_is_float64(device, rng, dtype):
    a = random_array(rng, (7,), dtype)
    b = random_array(rng, (7,), dtype, 1, 50)
    check(np.true_divide, cp.true_divide, (a, b), (cp.asarray(a), cp.asarray(b)), "true_divide")
    check(np.divide, cp.divide, (a, 2), (cp.asarray(a), 2), "true_divide")


def test_aliases_are_the_same_ops(device, rng):
    a = random_array(rng, (6,), np.float64, 0.1, 0.9)
    b = random_array(rng, (6,), np.float64, 1, 3)
    ca, cb = cp.asarray(a), cp.asarray(b)
    pairs = [("abs", "absolute"), ("conj", "conjugate"), ("acos", "arccos"), ("asin", "arcsin"),
             ("atan", "arctan"), ("asinh", "arcsinh"), ("atanh", "arctanh")]
    for alias, name in pairs:
        assert_same(getattr(cp, alias)(ca), getattr(np, name)(a), name)
    assert_same(cp.acosh(cb), np.arccosh(b), "arccosh")
    for alias, name in [("divide", "true_divide"), ("mod", "remainder"), ("pow", "power"), ("atan2", "arctan2")]:
        assert_same(getattr(cp, alias)(ca, cb), getattr(np, name)(a, b), name)
    i = np.array([1, 2, 3], np.int32)
    assert_same(cp.bitwise_not(cp.asarray(i)), ~i, "invert")
    assert_same(cp.bitwise_invert(cp.asarray(i)), ~i, "invert")
    assert_same(cp.bitwise_left_shift(cp.asarray(i), 2), i << 2, "left_shift")
    assert_same(cp.bitwise_right_shift(cp.asarray(i), 1), i >> 1, "right_shift")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("exponent", [2.0, 0.5, -1.0, 3.0, 2.7])
def test_power_with_one_exponent_for_the_whole_array(device, rng, dtype, exponent):
    # NumPy's power loop computes a scalar exponent of 2, 0.5 or -1 as x * x, sqrt(x) and
    # 1 / x (so -0.0 ** 0.5 is -0.0 and -inf ** 0.5 NaN); the CPU does the same. The GPU
    # calls pow for every exponent (those two values differ there; documented).
    x = random_array(rng, (3001,), dtype, -50, 50)
    x[::97] = np.resize(np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-30, -1e30, 7.0], dtype), len(x[::97]))
    cx = cp.asarray(x)
    for key in (slice(None), slice(None, None, -3)):
        for e in (exponent, np.asarray(exponent, dtype)):
            with np.errstate(all="ignore"):
                # The GPU's values are pow's: NumPy's for an array of exponents.
                expected = np.power(x[key], e if device == "cpu" else np.full(x[key].shape, e, dtype))
            with cp.errstate(all="ignore"):
                got = cp.power(cx[key], cp.asarray(e) if isinstance(e, np.ndarray) else e)
            if device == "cpu" and exponent in (2.0, 0.5, -1.0):
                np.testing.assert_array_equal(got.get(), expected)
                assert np.array_equal(np.signbit(got.get()), np.signbit(expected))
            else:
                np.testing.assert_allclose(got.get(), expected, rtol=4 * np.finfo(dtype).eps, atol=0)
    if device == "cpu":
        with pytest.warns(RuntimeWarning, match="invalid value encountered in power"):
            cp.power(cp.asarray(np.array([-4.0, 4.0], dtype)), 0.5).get()
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in power"):
            cp.power(cp.asarray(np.array([0.0, 4.0], dtype)), -1.0).get()
