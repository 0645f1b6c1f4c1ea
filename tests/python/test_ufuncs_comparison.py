"""Comparison, logical, bitwise/shift, floating-point class and extrema ufuncs against
NumPy over every dtype, with NaN handling and out-of-range Python ints (NumPy 2 rules)."""
import operator

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, random_array
from ufunc_cases import assert_same, check, random_operand

COMPARISONS = ["greater", "greater_equal", "less", "less_equal", "equal", "not_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]
EXTREMA = ["maximum", "minimum", "fmax", "fmin"]
UNARY = ["logical_not", "invert", "isnan", "isinf", "isfinite"]


def with_ties(rng, a, b):
    """Makes some elements equal so equality branches run, not only strict orderings."""
    b = b.copy()
    b.flat[::3] = a.flat[::3]
    return b


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", COMPARISONS + LOGICAL + BITWISE + EXTREMA)
def test_binary_every_dtype(device, rng, name, dtype):
    a = random_operand(rng, name, (5, 6), dtype)
    b = with_ties(rng, a, random_operand(rng, name, (5, 6), dtype))
    if name in ("left_shift", "right_shift") and np.dtype(dtype).kind in "iu":
        b = np.abs(b).astype(dtype)  # negative shift counts are undefined in NumPy's C loops
    check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_every_dtype(device, rng, name, dtype):
    x = random_operand(rng, name, (4, 5), dtype)
    check(getattr(np, name), getattr(cp, name), (x,), (cp.asarray(x),), name)


@pytest.mark.parametrize("name", COMPARISONS + ["maximum", "bitwise_or"])
@pytest.mark.parametrize("dtype1", ALL_DTYPES)
@pytest.mark.parametrize("dtype2", ALL_DTYPES)
def test_mixed_dtypes(device, rng, name, dtype1, dtype2):
    a = random_operand(rng, name, (6,), dtype1)
    b = random_operand(rng, name, (6,), dtype2)
    check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [np.complex64, np.complex128])
def test_nan_and_inf_handling(device, dtype):
    v = np.array([np.nan, 1.0, -np.inf, np.inf, 0.0, -0.0], dtype=dtype)
    a, b = np.repeat(v, len(v)), np.tile(v, len(v))
    for name in COMPARISONS + EXTREMA + LOGICAL:
        check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)
    for name in ["isnan", "isinf", "isfinite", "logical_not"]:
        check(getattr(np, name), getattr(cp, name), (v,), (cp.asarray(v),), name)


def test_complex_nan_in_extrema(device):
    a = np.array([complex(np.nan, 0), 1 + 1j, complex(0, np.nan), 2 + 0j], np.complex128)
    b = np.array([1 + 0j, complex(np.nan, 1), 3 + 0j, 2 - 1j], np.complex128)
    for name in EXTREMA + COMPARISONS:
        check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_shifts_by_width_or_more(device, dtype):
    bits = np.dtype(dtype).itemsize * 8
    a = np.array([1, 3, -1 if np.dtype(dtype).kind == "i" else 5, 100, 7, 0], dtype=dtype)
    b = np.array([0, bits - 1, bits, bits + 3, 1, bits], dtype=dtype)
    for name in ["left_shift", "right_shift"]:
        check(getattr(np, name), getattr(cp, name), (a, b), (cp.asarray(a), cp.asarray(b)), name)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("value", [300, -1, -300, 2**40, 2**63, -(2**63)])
@pytest.mark.parametrize("name", COMPARISONS)
def test_comparison_with_out_of_range_python_int(device, rng, dtype, value, name):
    a = random_array(rng, (4,), dtype)
    ca = cp.asarray(a)
    assert_same(getattr(cp, name)(ca, value), getattr(np, name)(a, value), name)
    assert_same(getattr(cp, name)(value, ca), getattr(np, name)(value, a), name)


COMPARISON_OPERATORS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
BITWISE_OPERATORS = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]


@pytest.mark.parametrize("op", COMPARISON_OPERATORS + BITWISE_OPERATORS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float32])
def test_operators(device, rng, op, dtype):
    a = random_array(rng, (3, 4), dtype, 0, 6)
    b = random_array(rng, (3, 4), dtype, 0, 6)
    ca, cb = cp.asarray(a), cp.asarray(b)
    try:
        expected = op(a, b)
    except TypeError:
        with pytest.raises(TypeError):
            op(ca, cb)
        return
    assert_same(op(ca, cb), expected, "equal")
    assert_same(op(ca, 2), op(a, 2), "equal")
    assert_same(op(2, ca), op(2, a), "equal")


@pytest.mark.parametrize("op", ["iand", "ior", "ixor", "ilshift", "irshift"])
def test_inplace_bitwise(device, rng, op):
    a = random_array(rng, (8,), np.int32, 0, 100)
    b = random_array(rng, (8,), np.int32, 0, 5)
    ca = cp.asarray(a)
    same = ca
    ca = getattr(operator, op)(ca, cp.asarray(b))
    assert ca is same
    assert_same(ca, getattr(operator, op)(a.copy(), b), "bitwise_and")


def test_comparison_with_unsupported_object_falls_back(device):
    a = cp.asarray(np.arange(3))
    assert (a == "abc") is False
    assert (a != "abc") is True
    with pytest.raises(TypeError):
        a < "abc"
    with pytest.raises(TypeError):
        a + "abc"


@pytest.mark.parametrize("name", COMPARISONS)
@pytest.mark.parametrize("signed", [np.int8, np.int32, np.int64])
def test_signed_with_uint64_is_exact(device, rng, name, signed):
    # NumPy 2 compares these exactly; their common type float64 would merge 2**63 - 1 and 2**63.
    info = np.iinfo(signed)
    edges_s = np.array([info.max, info.min, -1, 0, 1, 2**53 + 1 if info.bits == 64 else 7], signed)
    edges_u = np.array([2**63, 2**64 - 1, 0, 0, 1, 2**53 if info.bits == 64 else 7], np.uint64)
    s = np.concatenate([edges_s, random_array(rng, (30,), signed)])
    u = np.concatenate([edges_u, random_array(rng, (30,), np.uint64)])
    u[-10:] = np.abs(s[-10:].astype(np.int64)).astype(np.uint64)  # ties
    fn_np, fn_cp = getattr(np, name), getattr(cp, name)
    cases = [(s, u), (u, s), (s[::-2], u[::-2]), (s.reshape(6, 6), u[:6]), (signed(-3), u), (u, signed(info.max)),
             (s, np.uint64(2**63)), (np.uint64(2**64 - 1), s)]
    for x, y in cases:
        want = fn_np(x, y)
        got = fn_cp(cp.asarray(x) if isinstance(x, np.ndarray) else x, cp.asarray(y) if isinstance(y, np.ndarray) else y)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    out = cp.zeros(s.shape, dtype=bool)
    assert fn_cp(cp.asarray(s), cp.asarray(u), out=out) is not None
    np.testing.assert_array_equal(out.get(), fn_np(s, u))


class _OwnEq:
    def __eq__(self, other):
        return (other == 2) | (other == 4)

    def __ne__(self, other):
        return (other != 2) & (other != 4)


@pytest.mark.parametrize("value", [None, Ellipsis, object(), np._NoValue])
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex64])
def test_eq_ne_with_unconvertible_objects(device, rng, value, dtype):
    """NumPy compares objects it cannot convert unequal to every element (== all False,
    != all True), on either side."""
    n = random_array(rng, (2, 3), dtype)
    c = cp.asarray(n)
    for f in (lambda x: x == value, lambda x: value == x, lambda x: x != value, lambda x: value != x):
        assert_same(f(c), f(n), "equal")


def test_eq_ne_defer_to_objects_with_their_own(device):
    n = np.arange(6)
    c = cp.asarray(n)
    assert_same(c == _OwnEq(), n == _OwnEq(), "equal")
    assert_same(c != _OwnEq(), n != _OwnEq(), "not_equal")
    with pytest.raises(TypeError):
        c + None


class _EqualsTwoOrFour:
    def __eq__(self, other):
        return (other == 2) | (other == 4)

    __hash__ = None


class _EqualsTwoOrFourSub(_EqualsTwoOrFour):
    pass


class _UnequalTwoOrFour:
    def __ne__(self, other):
        return (other == 2) | (other == 4)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize("value", [_EqualsTwoOrFour(), _EqualsTwoOrFourSub(), _UnequalTwoOrFour()])
def test_compare_with_objects_defining_eq_or_ne(device, rng, dtype, value):
    """x != obj with only obj.__eq__: NumPy asks each element, whose default __ne__ is the negated
    __eq__; with only obj.__ne__ it is used, and == falls back to identity (all False)."""
    a = rng.integers(0, 7, (3, 4)).astype(dtype)
    c = cp.asarray(a)
    np.testing.assert_array_equal((c != value).get(), a != value)
    np.testing.assert_array_equal((c == value).get(), a == value)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin", "clip"])
def test_extrema_keep_numpy_nans_and_zero_signs(device, dtype, name):
    # Long contiguous runs (the vectorized host loops) and views, with NaN in either
    # operand and +-0.0 against each other: NumPy's values and NaNs. (The sign of a zero
    # against the other zero is not compared: NumPy's own differs between dtypes and
    # between its SIMD and scalar loops.)
    rng = np.random.default_rng(17)
    special = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, -1.0], dtype=dtype)
    a = rng.standard_normal(1000).astype(dtype)
    b = rng.standard_normal(1000).astype(dtype)
    a[rng.integers(0, 1000, 300)] = rng.choice(special, 300)
    b[rng.integers(0, 1000, 300)] = rng.choice(special, 300)
    xa, xb = cp.asarray(a, device=device), cp.asarray(b, device=device)
    if name == "clip":
        cases = [((a, -0.5, 0.5), (xa, -0.5, 0.5)), ((a, b, 1.0), (xa, xb, 1.0)), ((a, -0.0, 0.0), (xa, -0.0, 0.0)),
                 ((a[::-3], np.nan, 1.0), (xa[::-3], np.nan, 1.0))]
    else:
        cases = [((a, b), (xa, xb)), ((a, -0.0), (xa, -0.0)), ((a, np.nan), (xa, np.nan)), ((b[::-2], a[::2]), (xb[::-2], xa[::2]))]
    for want_args, got_args in cases:
        with np.errstate(invalid="ignore"):
            want = getattr(np, name)(*want_args)
        got = getattr(cp, name)(*got_args).get()
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
