"""The ufuncs of issue 14 (copysign, nextafter, spacing, ldexp, frexp, modf, divmod,
gcd, lcm, heaviside, fabs, deg2rad/rad2deg/degrees/radians, logaddexp(2), float_power,
bitwise_count, signbit) and the non-ufunc functions composed from ufuncs (sinc, i0,
fix, nan_to_num, real_if_close, isneginf/isposinf, iscomplex/isreal(obj), isclose,
allclose, array_equal, array_equiv): NumPy as the oracle, every loop dtype, edge values,
broadcasting and strided views, on each device. (scalar_ops_oracle.py checks the scalar
functors themselves on many more values.)"""
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import random_array
from scalar_ops_oracle import nextafter_equal_gives_y

UNARY = ["fabs", "signbit", "spacing", "deg2rad", "rad2deg", "degrees", "radians", "bitwise_count", "modf", "frexp",
         "positive", "conjugate"]
BINARY = ["copysign", "nextafter", "ldexp", "gcd", "lcm", "heaviside", "logaddexp", "logaddexp2", "float_power",
          "divmod"]
EXACT = {"fabs", "signbit", "spacing", "copysign", "nextafter", "ldexp", "gcd", "lcm", "heaviside", "modf", "frexp",
         "divmod", "bitwise_count", "positive", "conjugate", "deg2rad", "rad2deg", "degrees", "radians"}
CHARS = {np.dtype(t).char: np.dtype(t) for t in
         (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128)}


def loops(name):
    """NumPy's loops of this op over dtypes copper has: (input dtypes) per loop."""
    out = []
    for t in getattr(np, name).types:
        ins, outs = t.split("->")
        if all(c in CHARS for c in ins + outs):
            out.append(tuple(CHARS[c] for c in ins))
    return out


def edge_values(dtype, n):
    if dtype.kind == "f":
        fi = np.finfo(dtype)
        e = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan, float(fi.max), -float(fi.max),
             float(fi.tiny), float(fi.smallest_subnormal), -float(fi.smallest_subnormal), 3.0, 1e-3]
    elif dtype.kind in "iu":
        ii = np.iinfo(dtype)
        e = [0, 1, 2, 3, ii.max, ii.min, ii.max - 1, 12, 18] + ([-1, -12, ii.min + 1] if dtype.kind == "i" else [])
    elif dtype.kind == "c":
        e = [0, 1j, -1 + 2j, complex(np.inf, 0), complex(np.nan, 1), 3 - 4j]
    else:
        e = [True, False]
    e = np.array(e).astype(dtype)
    return np.resize(e, n)


def make_input(rng, name, dtype, shape, k):
    if name == "ldexp" and k == 1:
        return rng.integers(-30, 30, size=shape).astype(dtype)
    if name == "float_power" and dtype.kind == "c":
        return random_array(rng, shape, dtype, -3, 3)
    a = random_array(rng, shape, dtype, -50, 50)
    flat = a.reshape(-1)
    flat[: flat.size // 2] = edge_values(dtype, flat.size // 2)
    if k == 1:
        rng.shuffle(flat)
    return a


def check(got, exp, name):
    got = got if isinstance(got, tuple) else (got,)
    exp = exp if isinstance(exp, tuple) else (exp,)
    assert len(got) == len(exp)
    for g, e in zip(got, exp):
        assert g.dtype == e.dtype and g.shape == e.shape
        if name in EXACT or e.dtype.kind in "biu":
            np.testing.assert_array_equal(g.get(), e)
            if e.dtype.kind == "f":  # signed zeros too
                assert (np.signbit(g.get()) == np.signbit(e))[e == 0].all()
        else:
            tol = {np.float16: 2e-3, np.float32: 2e-6}.get(e.dtype.type, 1e-13)
            np.testing.assert_allclose(g.get(), e, rtol=tol, atol=0)


@pytest.mark.parametrize("name", UNARY + BINARY)
def test_every_loop_matches_numpy(device, rng, name):
    nu, cu = getattr(np, name), getattr(cp, name)
    for ins in loops(name):
        args = [make_input(rng, name, t, (6, 7), k) for k, t in enumerate(ins)]
        with np.errstate(all="ignore"):
            e = nu(*args)
        if name == "nextafter":
            e = nextafter_equal_gives_y(args[0], args[1], e)
        check(cu(*[cp.asarray(a) for a in args]), e, name)


@pytest.mark.parametrize("name", BINARY)
def test_broadcast_strided_and_scalars(device, rng, name):
    nu, cu = getattr(np, name), getattr(cp, name)
    dtype = np.dtype(np.int64 if name in ("gcd", "lcm") else np.float64)
    a = make_input(rng, name, dtype, (5, 8), 0)[::-1, ::2]
    b = make_input(rng, name, np.dtype(np.int64) if name == "ldexp" else dtype, (4,), 1)
    with np.errstate(all="ignore"):
        check(cu(cp.asarray(a), cp.asarray(b)), nu(a, b), name)
        check(cu(cp.asarray(a), 3), nu(a, 3), name)
        check(cu(cp.asarray(a)[:, :1], cp.asarray(b)), nu(a[:, :1], b), name)


def test_type_resolution_like_numpy(device):
    cases = [("ldexp", np.float32(1.5), 3), ("ldexp", np.int16(3), np.int16(2)), ("ldexp", np.int8(1), 3),
             ("copysign", np.int8(3), -1), ("gcd", True, np.int8(4)), ("float_power", np.float32(2), 3),
             ("float_power", np.complex64(1j), 2), ("divmod", np.uint8(7), 2), ("frexp", np.int32(8), None),
             ("signbit", np.int64(-3), None), ("bitwise_count", np.int8(-1), None), ("heaviside", 0, 0.5)]
    for name, x, y in cases:
        args = (x,) if y is None else (x, y)
        e = getattr(np, name)(*[np.asarray(v) if isinstance(v, np.generic) else v for v in args])
        g = getattr(cp, name)(*[cp.asarray(v) if isinstance(v, np.generic) else v for v in args])
        for gg, ee in zip(g if isinstance(g, tuple) else (g,), e if isinstance(e, tuple) else (e,)):
            assert gg.dtype == np.asarray(ee).dtype, (name, args)
            np.testing.assert_array_equal(gg.get(), ee)
    for fn in (lambda m: m.ldexp(1.0, 2.0), lambda m: m.ldexp(m.asarray(1.0), m.asarray(2, dtype=m.uint64)),
               lambda m: m.gcd(1.5, 2), lambda m: m.fabs(m.asarray(1j)), lambda m: m.bitwise_count(1.0)):
        with pytest.raises(TypeError) as info:
            fn(np)
        with pytest.raises(TypeError, match="^" + __import__("re").escape(str(info.value)) + "$"):
            fn(cp)


def test_two_output_methods(device, rng):
    a = random_array(rng, (3, 4), np.float64)
    m, e = np.modf(a)
    cm, ce = cp.modf(cp.asarray(a))
    np.testing.assert_array_equal(cm.get(), m)
    np.testing.assert_array_equal(ce.get(), e)
    q, r = cp.divmod(cp.asarray(a), 7.0)
    np.testing.assert_array_equal(q.get(), np.divmod(a, 7.0)[0])
    np.testing.assert_array_equal(r.get(), np.divmod(a, 7.0)[1])
    for method in ("reduce", "accumulate"):
        with pytest.raises(ValueError):
            getattr(cp.divmod, method)(cp.asarray(a))


# ---------------- functions composed from ufuncs ----------------
FLOATS = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.bool_] + FLOATS + [np.complex128])
def test_sinc_fix_i0(device, rng, dtype):
    a = random_array(rng, (4, 5), dtype, -12, 12)
    if np.dtype(dtype).kind == "f":
        a.reshape(-1)[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.5]
    c = cp.asarray(a)
    with np.errstate(all="ignore"):
        for fn in ("sinc", "fix", "i0"):
            if fn == "i0" and np.dtype(dtype).kind == "c":
                with pytest.raises(TypeError, match="i0 not supported for complex values"):
                    cp.i0(c)
                continue
            if fn == "fix" and np.dtype(dtype).kind == "c":
                continue
            e = getattr(np, fn)(a)
            g = getattr(cp, fn)(c)
            assert g.dtype == e.dtype and g.shape == e.shape, fn
            tol = {np.dtype(np.float16): 5e-3, np.dtype(np.float32): 1e-5}.get(e.dtype, 1e-13)
            np.testing.assert_allclose(g.get(), e, rtol=tol, equal_nan=True)
    out = cp.empty((4, 5), dtype=cp.float64)
    if np.dtype(dtype).kind != "c":
        assert cp.fix(c, out=out) is out


@pytest.mark.parametrize("dtype", FLOATS + [np.complex64, np.complex128, np.int32])
def test_nan_to_num(device, dtype):
    a = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * a[::-1]
    a = a.astype(dtype) if np.dtype(dtype).kind != "i" else np.arange(5, dtype=dtype)
    for kw in ({}, {"nan": 7.0}, {"posinf": 1e3, "neginf": -5.0}):
        e = np.nan_to_num(a, **kw)
        g = cp.nan_to_num(cp.asarray(a), **kw)
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g.get(), e)
    c = cp.asarray(a)
    assert cp.nan_to_num(c, copy=False) is c  # in place: the array itself, as NumPy's
    np.testing.assert_array_equal(c.get(), np.nan_to_num(a))


@pytest.mark.parametrize("kw", ["nan", "posinf", "neginf"])
@pytest.mark.parametrize("rshape", [(2, 4), (4,), (2, 1), ()])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_nan_to_num_array_replacements(device, rng, kw, rshape, dtype):
    """Replacements may be arrays broadcasting to x's shape (NumPy's copyto)."""
    a = np.array([[0, 1, np.nan, 4], [11, np.inf, 12, -np.inf]]).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * a[:, ::-1].real
    r = rng.standard_normal(rshape)
    e = np.nan_to_num(a, **{kw: r})
    g = cp.nan_to_num(cp.asarray(a), **{kw: cp.asarray(r)})
    assert g.dtype == e.dtype
    np.testing.assert_array_equal(g.get(), e)
    for xp in (np, cp):
        with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) into shape \(2,4\)"):
            xp.nan_to_num(xp.asarray(a), **{kw: xp.zeros(3)})


def test_inf_and_complex_predicates(device):
    x = np.array([np.inf, -np.inf, 0.0, -0.0, np.nan, 2.0])
    z = np.array([1 + 0j, 1e-20j, 2 + 3j, 0j])
    c, cz = cp.asarray(x), cp.asarray(z)
    for fn in ("isneginf", "isposinf", "iscomplex", "isreal"):
        np.testing.assert_array_equal(getattr(cp, fn)(c).get(), getattr(np, fn)(x))
    for fn in ("iscomplex", "isreal"):
        np.testing.assert_array_equal(getattr(cp, fn)(cz).get(), getattr(np, fn)(z))
    np.testing.assert_array_equal(cp.isneginf(cp.asarray([-3, 4])).get(), [False, False])
    with pytest.raises(TypeError, match="not supported for complex128 values because it would be ambiguous"):
        cp.isposinf(cz)
    assert cp.iscomplexobj(cz) and not cp.iscomplexobj(c) and cp.isrealobj(c)
    assert cp.iscomplexobj([1j]) and cp.isrealobj(3.0) and cp.iscomplexobj(np.complex64(1))
    out = cp.empty(6, dtype=bool)
    assert cp.isposinf(c, out=out) is out
    for tol in (100, 1e-30):
        for arr in (np.array([1 + 1e-15j, 2]), np.array([1 + 1e-3j]), np.array([1.0, 2.0])):
            e = np.real_if_close(arr, tol=tol)
            g = cp.real_if_close(cp.asarray(arr), tol=tol)
            assert g.dtype == e.dtype
            np.testing.assert_array_equal(g.get(), e)


def test_isclose_allclose(device, rng):
    a = random_array(rng, (5, 6), np.float64)
    b = a * (1 + rng.choice([0, 1e-6, 1e-4], size=a.shape))
    b.reshape(-1)[:4] = [np.nan, np.inf, -np.inf, a.reshape(-1)[3]]
    a.reshape(-1)[:3] = [np.nan, np.inf, np.inf]
    for kw in ({}, {"rtol": 1e-3}, {"atol": 1.0}, {"equal_nan": True}):
        e = np.isclose(a, b, **kw)
        g = cp.isclose(cp.asarray(a), cp.asarray(b), **kw)
        np.testing.assert_array_equal(g.get(), e)
        assert cp.allclose(cp.asarray(a), cp.asarray(b), **kw) == np.allclose(a, b, **kw)
    i = np.arange(5, dtype=np.int32)
    np.testing.assert_array_equal(cp.isclose(cp.asarray(i), 3).get(), np.isclose(i, 3))
    np.testing.assert_array_equal(cp.isclose(cp.asarray(i.astype(np.float32)), cp.asarray(i)).get(),
                                  np.isclose(i.astype(np.float32), i))
    assert cp.allclose(cp.asarray([1e10, 1e-8]), cp.asarray([1.00001e10, 1e-9]))
    assert not cp.allclose(cp.asarray([1e-8, 1e-7]), cp.asarray([0.0, 0.0]))


def test_array_equal_equiv(device):
    a = np.array([[1.0, np.nan], [3.0, 4.0]])
    cases = [(a, a.copy()), (a, a[:1]), (np.array([1, 2]), np.array([[1, 2], [1, 2]])), (np.array([1, 2]), np.array([1, 3])),
             (np.array([1, 2]), np.array([1.0, 2.0])), (np.array([]), np.array([]))]
    for x, y in cases:
        for kw in ({}, {"equal_nan": True}):
            assert cp.array_equal(cp.asarray(x), cp.asarray(y), **kw) == np.array_equal(x, y, **kw)
        assert cp.array_equiv(cp.asarray(x), cp.asarray(y)) == np.array_equiv(x, y)
    assert cp.array_equiv(cp.asarray([1, 2]), cp.asarray([[1, 2], [1, 3]])) is False
    assert cp.array_equal([1, 2], [1, 2]) is True


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_gcd_lcm_reject_bool_operands(device, rng, name):
    """Bool operands alone find no integer loop (NumPy's TypeError); with an integer, they promote."""
    b = rng.integers(0, 2, (3, 4)).astype(bool)
    for xp in (np, cp):
        x = xp.asarray(b)
        for args in ((x, x), (x, True), (True, x)):
            with pytest.raises(TypeError, match=f"ufunc '{name}' did not contain a loop with signature matching types"):
                getattr(xp, name)(*args)
    i = rng.integers(-9, 9, (3, 4)).astype(np.int16)
    got, want = getattr(cp, name)(cp.asarray(b), cp.asarray(i)), getattr(np, name)(b, i)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("exponent", [True, False, 3, np.True_, np.int8(-2)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_ldexp_scalar_exponents(device, exponent, dtype):
    # A Python bool exponent casts to the integer exponent as NumPy's does (it was refused).
    x = np.array([1.5, -2.0, 0.25], dtype=dtype)
    got = cp.ldexp(cp.asarray(x, device=device), exponent)
    want = np.ldexp(x, exponent)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("exponent", [2**40, -2**31 - 1, 2**31, 2**31 - 1, -2**31])
def test_ldexp_python_int_exponent_is_int32(device, exponent):
    # NumPy runs a Python int exponent through its int32 loop: past int32 is its
    # OverflowError (copper gave inf or 0), at int32's ends the float saturates.
    x = np.array([1.5, -2.0, 0.0])
    try:
        with np.errstate(over="ignore", under="ignore"):
            want = np.ldexp(x, exponent)
    except OverflowError as e:
        with pytest.raises(OverflowError, match=str(e)):
            cp.ldexp(cp.asarray(x, device=device), exponent)
        return
    with np.errstate(over="ignore", under="ignore"), cp.errstate(over="ignore", under="ignore"):
        got = cp.ldexp(cp.asarray(x, device=device), exponent)
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_bitwise_count_over_the_whole_range(device, rng, dtype):
    # Values drawn from the type's whole range and its extremes (the CPU's popcnt loop for
    # 32- and 64-bit, the portable count for the others), contiguous, strided and reversed.
    ii = np.iinfo(dtype)
    a = rng.integers(ii.min, ii.max, size=4099, dtype=dtype, endpoint=True)
    a[::97] = ii.min
    a[1::89] = ii.max
    c = cp.asarray(a)
    for key in (slice(None), slice(None, None, 3), slice(None, None, -1)):
        got = cp.bitwise_count(c[key])
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got.get(), np.bitwise_count(a[key]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("exp_dtype", [np.int32, np.int64])
def test_frexp_ldexp_long_runs_with_scattered_specials(device, rng, dtype, exp_dtype):
    # The CPU computes blocks of 256 plain elements from the bits and sends a block holding a
    # zero, subnormal, infinity, NaN or a result outside the normal range to libm: long runs
    # with a few of those scattered, contiguous, strided and in place.
    n = 5000
    fi = np.finfo(dtype)
    x = (rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)).astype(dtype)
    k = rng.integers(-60, 60, n).astype(exp_dtype)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, float(fi.smallest_subnormal), -float(fi.tiny) / 4, float(fi.max)]
    where = rng.choice(n, 40, replace=False)
    x[where[:len(specials)]] = specials
    k[where[len(specials):20]] = rng.choice([-2000, -300, 300, 2000, 2**31 - 1, -2**31], 20 - len(specials))
    x[1024:1280] = rng.standard_normal(256)  # a whole block of plain values
    k[1024:1280] = rng.integers(-5, 5, 256)
    cx, ck = cp.asarray(x), cp.asarray(k)
    for key in (slice(None), slice(None, None, 2)):
        with warnings.catch_warnings(record=True) as w_np:
            warnings.simplefilter("always")
            expected = np.ldexp(x[key], k[key])
        with warnings.catch_warnings(record=True) as w_cp:
            warnings.simplefilter("always")
            got = cp.ldexp(cx[key], ck[key]).get()  # a deferred op warns when it runs
        np.testing.assert_array_equal(got, expected)
        assert np.array_equal(np.signbit(got), np.signbit(expected))
        assert sorted({str(w.message) for w in w_cp}) == sorted({str(w.message) for w in w_np})
        m, e = cp.frexp(cx[key])
        em, ee = np.frexp(x[key])
        np.testing.assert_array_equal(m.get(), em)
        np.testing.assert_array_equal(e.get(), ee)
        assert e.dtype == ee.dtype and np.array_equal(np.signbit(m.get()), np.signbit(em))
    inplace, cinplace = x.copy(), cx.copy()
    with np.errstate(all="ignore"), cp.errstate(all="ignore"):
        np.ldexp(inplace, k, out=inplace)
        cp.ldexp(cinplace, ck, out=cinplace)
    np.testing.assert_array_equal(cinplace.get(), inplace)
