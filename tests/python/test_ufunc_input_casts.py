"""Ufuncs whose inputs are not of the loop's dtype (int32 + float64, true_divide of ints,
sqrt of int16): the CPU converts such inputs block by block as its loops read them, where
the GPU casts them first. Values, dtypes and warnings equal NumPy's, and equal the same op
on inputs cast beforehand, across blocks (2048 elements), thread splits and layouts."""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import assert_matches, random_array

PAIRS = [(np.int32, np.float64), (np.float32, np.float64), (np.int64, np.float32), (np.int16, np.int32),
         (np.uint8, np.int64), (np.bool_, np.float32), (np.int32, np.complex128), (np.float16, np.float32),
         (np.uint64, np.int64), (np.int8, np.uint16)]
EXACT_BINARY = ["add", "subtract", "multiply", "true_divide", "less", "maximum", "floor_divide"]
# Lengths: one partial block, several blocks, and enough for the thread pool to split.
LENGTHS = [7, 5000, 300001]


# (key for the first operand, key for the second): contiguous, strided, reversed.
LAYOUTS = [(slice(None), slice(None)), (slice(None, None, 3), slice(2, None, 3)), (slice(None, None, -1), slice(None))]


def nonzero(a):
    a = a.copy()
    a[a == 0] = 1
    return a


@pytest.mark.parametrize("ta,tb", PAIRS)
@pytest.mark.parametrize("name", EXACT_BINARY)
@pytest.mark.parametrize("n", LENGTHS)
def test_binary_with_converted_inputs(device, rng, ta, tb, name, n):
    if name == "floor_divide" and np.dtype(np.result_type(ta, tb)).kind in "cb":
        pytest.skip("floor_divide has no complex or bool loop")
    if name == "maximum" and np.dtype(np.result_type(ta, tb)).kind == "c" and n > 7:
        pytest.skip("one complex maximum case is enough")
    na = random_array(rng, (n,), ta)
    nb = nonzero(random_array(rng, (n,), tb))
    fn_n, fn_c = getattr(np, name), getattr(cp, name)
    for ka, kb in LAYOUTS:
        xa, xb = na[ka], nb[kb]
        m = min(len(xa), len(xb))
        xa, xb = xa[:m], xb[:m]
        ca, cb = cp.asarray(na)[ka][:m], cp.asarray(nb)[kb][:m]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = fn_n(xa, xb)
        got = fn_c(ca, cb)
        assert_matches(got, expected)
        loop = np.result_type(ta, tb) if name != "true_divide" else expected.dtype
        assert_matches(fn_c(ca.astype(loop), cb.astype(loop)), expected)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.bool_])
@pytest.mark.parametrize("n", [5000, 300001])
def test_unary_math_of_integers(device, rng, dtype, n):
    # sqrt and exp of integers run the float loop (float16 for 8-bit, float32 for 16-bit,
    # float64 above); equal to the same op on the cast array.
    a = np.abs(random_array(rng, (n,), dtype)) if dtype != np.bool_ else random_array(rng, (n,), dtype)
    c = cp.asarray(a)
    for name in ("sqrt", "exp", "negative" if dtype != np.bool_ else "logical_not"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = getattr(np, name)(a)
            got = getattr(cp, name)(c)
            assert got.dtype == expected.dtype
            assert_matches(getattr(cp, name)(c.astype(expected.dtype) if name in ("sqrt", "exp") else c), got.get())
        if name == "sqrt":
            assert_matches(got, expected)


def test_broadcast_and_transposed_operands(device, rng):
    na = random_array(rng, (600, 7), np.float32)
    nb = random_array(rng, (7,), np.float64)
    nc = random_array(rng, (600, 1), np.int16)
    ca, cb, cc = cp.asarray(na), cp.asarray(nb), cp.asarray(nc)
    assert_matches(ca + cb, na + nb)
    assert_matches(ca.T * cb[:, None], na.T * nb[:, None])
    assert_matches(cp.multiply(cc, cb), np.multiply(nc, nb))
    assert_matches(cp.add(ca[::-2, ::2], cc[::-2]), np.add(na[::-2, ::2], nc[::-2]))
    big = random_array(rng, (400, 1000), np.int32)
    assert_matches(cp.asarray(big).T + cp.asarray(nb[:1]), big.T + nb[:1])


def test_two_outputs_and_out_of_another_dtype(device, rng):
    na = random_array(rng, (9000,), np.int32)
    nb = nonzero(random_array(rng, (9000,), np.float32))
    q, r = cp.divmod(cp.asarray(na), cp.asarray(nb))
    eq, er = np.divmod(na, nb)
    assert_matches(q, eq)
    assert_matches(r, er)
    m, e = cp.frexp(cp.asarray(na.astype(np.int16)))
    em, ee = np.frexp(na.astype(np.int16))
    assert_matches(m, em)
    assert_matches(e, ee)
    out = cp.zeros(9000, cp.float64)
    cp.add(cp.asarray(na), cp.asarray(nb), out=out)
    assert_matches(out, np.add(na, nb, out=np.zeros(9000)))
    out32 = cp.zeros(9000, cp.float32)
    cp.multiply(cp.asarray(na), 0.5, out=out32, casting="unsafe")
    assert_matches(out32, np.multiply(na, 0.5, out=np.zeros(9000, np.float32), casting="unsafe"))


def test_input_sharing_memory_with_the_output(device, rng):
    # An input of another dtype that views the output's memory is cast whole first: a later
    # block's input must not be overwritten before it is read.
    n = 10000
    nb = random_array(rng, (n,), np.float32)
    cb = cp.asarray(nb)
    np.add(nb.view(np.int16)[::2], 0.5, out=nb)
    cp.add(cb.view(cp.int16)[::2], 0.5, out=cb)
    assert_matches(cb, nb)
    nd = random_array(rng, (n,), np.float64)
    cd = cp.asarray(nd)
    np.multiply(nd.view(np.int32)[::-2], 3.0, out=nd)
    cp.multiply(cd.view(cp.int32)[::-2], 3.0, out=cd)
    assert_matches(cd, nd)


@pytest.mark.parametrize("n", [100, 300001])
def test_warnings_from_converted_inputs(device, n):
    # errstate sees the flags of every block and every thread: the only zero divisor and the
    # only 0/0 are the last elements.
    a = np.arange(1, n + 1, dtype=np.int32)
    b = np.arange(1, n + 1, dtype=np.int16)
    a[-1] = 0
    b[-1] = 0
    b[-2] = 0
    ca, cb = cp.asarray(a), cp.asarray(b)
    with warnings.catch_warnings(record=True) as w_np:
        warnings.simplefilter("always")
        expected = np.true_divide(a, b.astype(np.float32))
    with warnings.catch_warnings(record=True) as w_cp:
        warnings.simplefilter("always")
        got = cp.true_divide(ca, cb.astype(cp.float32))
        got.get()  # a deferred op warns when it runs
    assert_matches(got, expected)
    assert sorted(str(x.message) for x in w_cp) == sorted(str(x.message) for x in w_np)
    # The GPU reports at the errstate block's exit (it synchronizes), the CPU at the call.
    with pytest.raises(FloatingPointError):
        with cp.errstate(divide="raise"):
            cp.true_divide(ca, cb)
    with cp.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            cp.true_divide(ca, cb)
