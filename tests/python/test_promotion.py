"""Type promotion against NumPy: promote_types, can_cast and result_type over every
dtype pair and casting rule, and NEP 50's weak Python scalars in real operations."""
import itertools

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
PAIRS = list(itertools.product(ALL_DTYPES, ALL_DTYPES))


@pytest.mark.parametrize("a,b", PAIRS, ids=lambda d: np.dtype(d).name)
def test_promote_types(a, b):
    assert cp.promote_types(a, b) == np.promote_types(a, b)


@pytest.mark.parametrize("a,b", PAIRS, ids=lambda d: np.dtype(d).name)
def test_can_cast_every_rule(a, b):
    for casting in CASTINGS:
        assert cp.can_cast(a, b, casting) == np.can_cast(a, b, casting), casting
    assert cp.can_cast(a, b) == np.can_cast(a, b)


@pytest.mark.parametrize("a,b", PAIRS, ids=lambda d: np.dtype(d).name)
def test_result_type_of_arrays_and_dtypes(device, a, b):
    x = cp.asarray(np.zeros(2, a))
    y = cp.asarray(np.zeros(2, b))
    assert cp.result_type(x, y) == np.result_type(np.zeros(2, a), np.zeros(2, b))
    assert cp.result_type(a, b) == np.result_type(a, b)


SCALARS = [True, 3, -3, 2**40, 2.5, 1 + 2j]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_result_type_with_weak_python_scalars(device, dtype, scalar):
    x = cp.asarray(np.zeros(2, dtype))
    assert cp.result_type(x, scalar) == np.result_type(np.zeros(2, dtype), scalar)
    assert cp.result_type(scalar, dtype) == np.result_type(scalar, dtype)


def test_result_type_of_three_dtypes_is_not_pairwise():
    # promote_types is not associative across kinds: NumPy promotes the highest kind
    # first (result_type(int8, uint8, float16) is float16, not float32 through int16).
    for dtypes in itertools.product(ALL_DTYPES, repeat=3):
        assert cp.result_type(*dtypes) == np.result_type(*dtypes), dtypes


def test_einsum_of_three_operands_takes_numpys_result_type(device):
    a = cp.arange(6, dtype=cp.int8, device=device).reshape(2, 3)
    b = cp.arange(12, dtype=cp.uint8, device=device).reshape(3, 4)
    c = cp.arange(20, dtype=cp.float16, device=device).reshape(4, 5)
    got = cp.einsum("ij,jk,kl", a, b, c)
    expected = np.einsum("ij,jk,kl", a.get(), b.get(), c.get())
    assert got.dtype == expected.dtype == np.float16
    np.testing.assert_array_equal(got.get(), expected)


def test_result_type_of_scalars_only():
    for args in [(1, 2), (1, 2.0), (True,), (True, 1), (1.0, 1j), (2**63,)]:
        assert cp.result_type(*args) == np.result_type(*args), args


# NEP 50 in operations: (array dtype, Python scalar, op) and what NumPy 2 does.
NEP50_CASES = [
    (np.float32, 5, "multiply"),        # stays float32
    (np.float32, 2.5, "add"),            # stays float32
    (np.float16, 1.0, "add"),            # stays float16
    (np.bool_, 1, "add"),                # bool + int -> int64
    (np.bool_, 1.5, "multiply"),         # bool + float -> float64
    (np.int8, 1.5, "add"),               # int + float -> float64
    (np.int8, 100, "add"),               # fits: stays int8 (and wraps)
    (np.uint8, 200, "add"),
    (np.float32, 1 + 2j, "add"),         # -> complex64
    (np.float16, 1j, "multiply"),        # -> complex64
    (np.int16, 1j, "add"),               # -> complex128
    (np.complex64, 2.5, "subtract"),     # stays complex64
    (np.uint64, -1.0, "add"),            # float scalar: float64
    (np.int64, 2.0, "true_divide"),
    (np.uint32, 3, "floor_divide"),
]


@pytest.mark.parametrize("dtype,scalar,name", NEP50_CASES, ids=str)
def test_nep50_in_operations(device, rng, dtype, scalar, name):
    a = random_array(rng, (6,), dtype, 1, 50)
    expected = getattr(np, name)(a, scalar)
    got = getattr(cp, name)(cp.asarray(a), scalar)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got.get(), expected, rtol=np.finfo(np.float16).eps if dtype == np.float16 else 1e-6)
    reflected = getattr(cp, name)(scalar, cp.asarray(a))
    assert reflected.dtype == getattr(np, name)(scalar, a).dtype


@pytest.mark.parametrize("dtype,scalar", [(np.int8, 300), (np.int8, -200), (np.uint8, -1), (np.uint8, 256),
                                          (np.int16, 2**15), (np.uint32, -5), (np.int64, 2**63)])
def test_nep50_out_of_bounds_python_int(device, dtype, scalar):
    a = np.ones(3, dtype)
    with pytest.raises(OverflowError, match=f"Python integer {scalar} out of bounds for {np.dtype(dtype).name}"):
        cp.asarray(a) + scalar
    with pytest.raises(OverflowError):
        np.add(a, scalar)


def test_numpy_scalars_are_strong(device):
    a = cp.asarray(np.ones(3, np.float32))
    assert (a * np.float64(2)).dtype == np.float64
    assert (a * 2.0).dtype == np.float32
    i = cp.asarray(np.ones(3, np.int8))
    assert (i + np.int16(3)).dtype == np.int16
    assert (i + 3).dtype == np.int8


@pytest.mark.parametrize("dtypes", [("f8", "f4"), ("i2", "f4"), ("f2",), ("c8", "f8"), ("u1", "i8")])
def test_common_type(device, dtypes):
    arrays = [np.arange(2).astype(d) for d in dtypes]
    want = np.common_type(*arrays)
    assert cp.common_type(*[cp.asarray(a) for a in arrays]) is want
    assert np.common_type(*[cp.asarray(a) for a in arrays]) is want  # through __array_function__


@pytest.mark.parametrize("name", ["true_divide", "float_power", "arctan2", "hypot", "logaddexp", "add", "power",
                                  "floor_divide", "maximum", "bitwise_and"])
@pytest.mark.parametrize("dtype,scalar", [(np.uint8, -2), (np.int8, 300), (np.uint16, -70000)])
def test_weak_int_checked_against_the_loop(device, rng, name, dtype, scalar):
    """A Python int must fit the loop's input type, not the array's: uint8 / -2 runs the
    float loop (fine), uint8 + -2 the uint8 one (OverflowError), as NumPy."""
    a = random_array(rng, (5,), dtype, 1, 50)
    try:
        expected = getattr(np, name)(a, scalar)
    except OverflowError:
        with pytest.raises(OverflowError, match="out of bounds for"):
            getattr(cp, name)(cp.asarray(a), scalar)
        return
    got = getattr(cp, name)(cp.asarray(a), scalar)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got.get(), expected, rtol=1e-3)
