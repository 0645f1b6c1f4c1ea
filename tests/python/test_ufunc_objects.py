"""copper.ufunc against numpy.ufunc: the type, every instance's attributes, __call__'s
keywords (out= in all its forms, where=, casting=, order=, dtype=, subok=, signature=)
with NumPy's errors, and the methods (reduce, accumulate, reduceat, outer), on each device."""
import re

import numpy as np
import pytest

import copper as cp
from conftest import random_array

CHARS = {np.dtype(t).char: np.dtype(t).name for t in
         (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.longlong, np.ulonglong, np.float16, np.float32, np.float64, np.complex64, np.complex128)}

UFUNC_NAMES = sorted(n for n in dir(cp) if isinstance(getattr(cp, n), cp.ufunc))
SHARED = [n for n in UFUNC_NAMES if isinstance(getattr(np, n, None), np.ufunc)]


def loop_set(types):
    """NumPy's 'ii->i' strings as dtype-name tuples, without the dtypes copper lacks."""
    out = set()
    for t in types:
        ins, outs = t.split("->")
        if all(c in CHARS for c in ins + outs):
            out.add((tuple(CHARS[c] for c in ins), tuple(CHARS[c] for c in outs)))
    return out


def assert_raises_like(np_fn, cp_fn):
    with np.errstate(all="ignore"):
        try:
            np_fn()
        except Exception as exc:  # noqa: BLE001 - NumPy's own exception is the oracle
            expected = exc
        else:
            raise AssertionError("NumPy did not raise")
    kind = next(t for t in (IndexError, ValueError, TypeError) if isinstance(expected, t))
    pattern = "^" + re.escape(str(expected)) + "$"
    no_loop = re.match(r"(?:No loop matching the specified signature and casting was found for ufunc (\w+)|"
                       r"ufunc '(\w+)' did not contain a loop with signature matching types .*)$", str(expected))
    if no_loop:
        # NumPy words a missing loop either way, by version (2.4: the first) and, in 2.5, by
        # what its promotion cache holds at the time: either is NumPy's wording.
        name = re.escape(no_loop.group(1) or no_loop.group(2))
        pattern = (rf"^(?:No loop matching the specified signature and casting was found for ufunc {name}|"
                   rf"ufunc '{name}' did not contain a loop with signature matching types .*)$")
    with pytest.raises(kind, match=pattern):
        cp_fn()


def test_every_ufunc_is_a_copper_ufunc():
    assert len(UFUNC_NAMES) > 80
    assert type(cp.add) is cp.ufunc and cp.ufunc.__name__ == "ufunc"
    for name in ("float_power", "divmod", "modf", "frexp", "ldexp", "gcd", "lcm", "copysign", "nextafter",
                 "spacing", "signbit", "heaviside", "logaddexp", "logaddexp2", "fabs", "deg2rad", "rad2deg",
                 "degrees", "radians", "bitwise_count", "positive", "conjugate"):
        assert isinstance(getattr(cp, name), cp.ufunc), name
    for name in ("clip", "angle", "i0", "sinc", "where"):  # functions in NumPy too
        assert not isinstance(getattr(cp, name), cp.ufunc), name
    with pytest.raises(TypeError):
        cp.ufunc()


@pytest.mark.parametrize("name", SHARED)
def test_attributes_match_numpy(name):
    c, n = getattr(cp, name), getattr(np, name)
    assert (c.nin, c.nout, c.nargs) == (n.nin, n.nout, n.nargs)
    assert c.__name__ == n.__name__
    assert repr(c) == repr(n)
    assert c.signature == n.signature
    if n.identity is None:
        assert c.identity is None
    else:
        assert c.identity == n.identity and type(c.identity) is type(n.identity)
    assert loop_set(c.types) == loop_set(n.types)
    # The same list in NumPy's order (CuPy's test_types too), but the dtypes copper lacks.
    assert c.types == list(dict.fromkeys(t for t in n.types if all(ch in CHARS for ch in t.replace("->", ""))))
    assert c.ntypes == len(c.types)
    assert c.__doc__.startswith(n.__name__ + "(")


def test_aliases_are_the_same_objects():
    for alias, name in [("divide", "true_divide"), ("abs", "absolute"), ("conj", "conjugate"), ("mod", "remainder"),
                        ("bitwise_not", "invert"), ("pow", "power"), ("atan2", "arctan2"), ("acos", "arccos")]:
        assert getattr(cp, alias) is getattr(cp, name)
    assert cp.divide.__name__ == "divide"


# ---------------- __call__ ----------------
def test_out_forms(device, rng):
    a, b = random_array(rng, (3, 4), np.float64), random_array(rng, (4,), np.float64)
    ca, cb = cp.asarray(a), cp.asarray(b)
    for kwargs in ({"out": "o"}, {"out": ("o",)}, {}):
        o = cp.empty((3, 4))
        args = (ca, cb, o) if not kwargs else (ca, cb)
        kw = {k: (o if v == "o" else (o,)) for k, v in kwargs.items()}
        r = cp.add(*args, **kw)
        assert r is o
        np.testing.assert_array_equal(o.get(), a + b)
    q, r = np.empty(5, dtype=np.int64), np.empty(5, dtype=np.int64)
    x = np.arange(-5, 5, 2)
    cq, cr = cp.empty(5, dtype=cp.int64), cp.empty(5, dtype=cp.int64)
    res = cp.divmod(cp.asarray(x), 3, out=(None, cr))
    np.divmod(x, 3, out=(None, r))
    assert res[1] is cr
    np.testing.assert_array_equal(cr.get(), r)
    res = cp.divmod(cp.asarray(x), 3, cq, cr)
    assert res[0] is cq and res[1] is cr
    np.testing.assert_array_equal(cq.get(), x // 3)


@pytest.mark.parametrize("case", ["both", "tuple_len", "not_array", "unknown_kw", "order", "casting", "too_few",
                                  "too_many", "sig_len", "sig_str", "sig_one", "sig_none", "where_int"])
def test_call_errors_like_numpy(device, case):
    x = np.arange(3.0)
    c = cp.asarray(x)
    o, co = np.empty(3), cp.empty(3)
    calls = {
        "both": (lambda m, v, out: m.add(v, 1, out, out=out)),
        "tuple_len": (lambda m, v, out: m.add(v, 1, out=(out, out))),
        "not_array": (lambda m, v, out: m.add(v, 1, out=5)),
        "unknown_kw": (lambda m, v, out: m.add(v, 1, foo=1)),
        "order": (lambda m, v, out: m.add(v, 1, order="X")),
        "casting": (lambda m, v, out: m.add(v, 1, casting="bad")),
        "too_few": (lambda m, v, out: m.add(v)),
        "too_many": (lambda m, v, out: m.add(v, 1, out, out)),
        "sig_len": (lambda m, v, out: m.add(v, 1, signature=("d", "d"))),
        "sig_str": (lambda m, v, out: m.add(v, 1, signature="ff")),
        "sig_one": (lambda m, v, out: m.add(v, 1, signature="d")),
        "sig_none": (lambda m, v, out: m.add(v, 1, signature=("i", "i", "i"), casting="safe")),
        "where_int": (lambda m, v, out: m.add(v, 1, out=out, where=m.asarray([1, 0, 1]))),
    }
    fn = calls[case]
    if case == "sig_none":  # copper's message names the loop it refused, NumPy's the cast
        with pytest.raises(TypeError):
            fn(cp, c, co)
        return
    assert_raises_like(lambda: fn(np, x, o), lambda: fn(cp, c, co))


def test_casting_errors_leave_out_untouched(device):
    out = cp.zeros(3, dtype=cp.int32)
    assert_raises_like(lambda: np.add(np.ones(3), 1, out=np.zeros(3, dtype=np.int32)),
                       lambda: cp.add(cp.ones(3), 1, out=out))
    assert_raises_like(lambda: np.add(np.ones(3), 1, casting="no", dtype=np.float32),
                       lambda: cp.add(cp.ones(3), 1, casting="no", dtype=cp.float32))
    np.testing.assert_array_equal(out.get(), 0)


@pytest.mark.parametrize("name", ["add", "subtract", "power", "maximum", "divmod", "sqrt", "modf"])
def test_where(device, rng, name):
    nu, cu = getattr(np, name), getattr(cp, name)
    args = [random_array(rng, (4, 5), np.float64, 1, 9)] + ([random_array(rng, (5,), np.float64, 1, 3)] if nu.nin == 2 else [])
    mask = rng.random((4, 5)) < 0.5
    outs = tuple(np.full((4, 5), -7.0) for _ in range(nu.nout))
    couts = tuple(cp.asarray(o) for o in outs)
    nu(*args, out=outs, where=mask)
    r = cu(*[cp.asarray(a) for a in args], out=couts, where=cp.asarray(mask))
    for o, co in zip(outs, couts):
        np.testing.assert_allclose(co.get(), o, rtol=1e-14)
    assert (r is couts[0]) if nu.nout == 1 else (r[0] is couts[0])
    # where=False writes nothing; a broadcast mask; where=True is the plain call
    o = cp.full((4, 5), 3.0)
    cu(*[cp.asarray(a) for a in args], out=(o,) * nu.nout if nu.nout == 1 else (o, cp.empty((4, 5))), where=False)
    np.testing.assert_array_equal(o.get(), 3.0)
    row = np.array([True, False, True, False, True])
    expect = np.full((4, 5), -1.0)
    nu(*args, out=(expect,) + tuple(np.empty((4, 5)) for _ in range(nu.nout - 1)), where=row)
    got = cp.full((4, 5), -1.0)
    cu(*[cp.asarray(a) for a in args], out=(got,) + tuple(cp.empty((4, 5)) for _ in range(nu.nout - 1)),
       where=cp.asarray(row))
    np.testing.assert_allclose(got.get(), expect, rtol=1e-14)


def test_where_broadcasts_like_an_input(device):
    assert cp.add(1, 1, where=[True, False], out=cp.zeros(2)).shape == (2,)
    assert_raises_like(lambda: np.add(np.ones(3), 1, where=np.ones(4, bool), out=np.ones(3)),
                       lambda: cp.add(cp.ones(3), 1, where=cp.ones(4, dtype=bool), out=cp.ones(3)))


@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
def test_order(device, rng, order):
    a = np.asfortranarray(random_array(rng, (3, 4), np.float32))
    c = cp.asarray(np.ascontiguousarray(a.T)).T  # F-ordered
    r, e = cp.negative(c, order=order), np.negative(a, order=order)
    assert r.flags.c_contiguous == e.flags.c_contiguous and r.flags.f_contiguous == e.flags.f_contiguous
    np.testing.assert_array_equal(r.get(), e)


def test_dtype_signature_subok(device):
    x = np.arange(5, dtype=np.int8)
    c = cp.asarray(x)
    for kw in ({"dtype": np.float32}, {"signature": "dd->d"}, {"signature": ("f", None, None)},
               {"signature": (None, None, "f")}, {"signature": ("d", "d", "d")}, {"subok": False}, {"subok": True},
               {"order": None}):
        e = np.add(x, 3, **kw)
        r = cp.add(c, 3, **kw)
        assert r.dtype == e.dtype, kw
        np.testing.assert_array_equal(r.get(), e)
    q, r = cp.divmod(c, 2, signature="dd->dd")
    assert q.dtype == r.dtype == np.float64


# ---------------- reduce ----------------
REDUCE_CASES = [
    ("add", np.int8), ("add", np.float32), ("multiply", np.int16), ("maximum", np.float64), ("minimum", np.uint8),
    ("fmax", np.float32), ("logical_and", np.int32), ("logical_or", np.float64), ("logical_xor", np.int64),
    ("bitwise_and", np.uint16), ("bitwise_or", np.int8), ("bitwise_xor", np.int64), ("gcd", np.int32),
    ("lcm", np.int16), ("hypot", np.float64), ("logaddexp", np.float64), ("subtract", np.int64),
    ("subtract", np.float64), ("power", np.int64), ("true_divide", np.float64), ("arctan2", np.float32),
    ("floor_divide", np.int32), ("remainder", np.float64), ("copysign", np.float32), ("fmin", np.float16),
]


def numpy_reduce(nu, a, axis=0, keepdims=False, initial=None, where=True, dtype=None):
    """nu.reduce's value; for ops that do not reorder (arctan2, power, subtract...) along one
    axis, as the explicit left fold of NumPy's elementwise loop. NumPy 2.5.2 on an AVX-512
    host (the H200 machine, 2026-11-25) returned other values for arctan2.reduce and
    power.reduce along a contiguous axis than that fold, which NumPy 2.4 and copper give."""
    if nu.identity is not None or isinstance(axis, tuple) or axis is None or a.ndim == 0:
        kw = {} if initial is None else {"initial": initial}
        return nu.reduce(a, axis=axis, keepdims=keepdims, where=where, dtype=dtype, **kw)
    x = np.moveaxis(a if dtype is None else a.astype(dtype), axis, -1)
    w = np.moveaxis(np.broadcast_to(where, a.shape), axis, -1)
    r = None if initial is None else np.full(x.shape[:-1], initial, dtype=x.dtype)
    for i in range(x.shape[-1]):
        step = x[..., i] if r is None else np.where(w[..., i], nu(r, x[..., i]), r)
        r = step if r is None else step.astype(x.dtype)
    r = np.asarray(r, dtype=x.dtype)
    return np.expand_dims(r, axis) if keepdims else r


@pytest.mark.parametrize("name,dtype", REDUCE_CASES)
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce(device, rng, name, dtype, axis, keepdims):
    nu, cu = getattr(np, name), getattr(cp, name)
    a = random_array(rng, (3, 4, 5), dtype, 1, 4 if name in ("power", "lcm") else 50)
    with np.errstate(all="ignore"):
        try:
            e = nu.reduce(a, axis=axis, keepdims=keepdims)
            e = numpy_reduce(nu, a, axis, keepdims) if isinstance(axis, int) and a.shape[axis] else e
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                cu.reduce(cp.asarray(a), axis=axis, keepdims=keepdims)
            return
    r = cu.reduce(cp.asarray(a), axis=axis, keepdims=keepdims)
    assert r.shape == np.shape(e) and r.dtype == e.dtype
    np.testing.assert_allclose(r.get(), e, rtol=1e-5 if dtype in (np.float32, np.float16) else 1e-12)


@pytest.mark.parametrize("name,dtype", [("add", np.float64), ("maximum", np.int32), ("subtract", np.float64),
                                        ("bitwise_or", np.uint8), ("multiply", np.int64), ("power", np.float64)])
def test_reduce_initial_where_dtype_out(device, rng, name, dtype):
    nu, cu = getattr(np, name), getattr(cp, name)
    a = random_array(rng, (4, 6), dtype, 1, 3)
    ca = cp.asarray(a)
    mask = rng.random((4, 6)) < 0.6
    init = 2
    for kw in ({"initial": init}, {"initial": init, "where": mask}, {"axis": None, "initial": init},
               {"axis": 1, "dtype": np.float64}, {"axis": 1, "where": mask[0], "initial": init}):
        ckw = {k: (cp.asarray(v) if k == "where" else v) for k, v in kw.items()}
        try:
            e = nu.reduce(a, **kw)
            if kw.get("axis", 0) is not None:
                e = numpy_reduce(nu, a, **kw)
        except (TypeError, ValueError) as exc:  # several axes of a non-reorderable op; no loop
            with pytest.raises(type(exc), match=re.escape(str(exc))):
                cu.reduce(ca, **ckw)
            continue
        r = cu.reduce(ca, **ckw)
        assert r.dtype == e.dtype and r.shape == np.shape(e), kw
        np.testing.assert_allclose(r.get(), e, rtol=1e-12)
    out = cp.empty(6, dtype=cp.float32)
    assert cu.reduce(ca, axis=0, out=out) is out
    np.testing.assert_allclose(out.get(), nu.reduce(a, axis=0).astype(np.float32), rtol=1e-6)


def test_reduce_errors_like_numpy(device):
    a = np.arange(6.0).reshape(2, 3)
    c = cp.asarray(a)
    for fn in (lambda m, x: m.subtract.reduce(x, axis=None),
               lambda m, x: m.subtract.reduce(x, where=m.asarray([True, False, True])),
               lambda m, x: m.maximum.reduce(x, where=m.asarray([True, False, True])),
               lambda m, x: m.subtract.reduce(m.zeros((0, 3))),
               lambda m, x: m.sqrt.reduce(x),
               lambda m, x: m.divmod.reduce(x),
               lambda m, x: m.equal.reduce(x),
               lambda m, x: m.add.reduce(x, axis=2),
               lambda m, x: m.add.accumulate(m.asarray(3.0)),
               lambda m, x: m.add.reduceat(x, [0, 5], axis=1)):
        assert_raises_like(lambda: fn(np, a), lambda: fn(cp, c))


def test_reduce_empty_uses_identity(device):
    for name, dtype in [("add", np.float32), ("multiply", np.int8), ("bitwise_and", np.uint8),
                        ("logical_and", np.float64), ("gcd", np.int16), ("logaddexp", np.float64)]:
        e = getattr(np, name).reduce(np.zeros((0, 3), dtype=dtype))
        r = getattr(cp, name).reduce(cp.zeros((0, 3), dtype=dtype))
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_array_equal(r.get(), e)


# ---------------- accumulate ----------------
@pytest.mark.parametrize("name,dtype", [("add", np.int8), ("add", np.float64), ("multiply", np.float32),
                                        ("subtract", np.int32), ("maximum", np.float64), ("minimum", np.int16),
                                        ("power", np.float64), ("arctan2", np.float64), ("logical_xor", np.int8),
                                        ("bitwise_xor", np.uint32), ("true_divide", np.int64), ("fmin", np.float16)])
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_accumulate(device, rng, name, dtype, axis):
    nu, cu = getattr(np, name), getattr(cp, name)
    a = random_array(rng, (3, 4, 5), dtype, 1, 3 if name == "power" else 40)
    with np.errstate(all="ignore"):
        e = nu.accumulate(a, axis=axis)
    r = cu.accumulate(cp.asarray(a), axis=axis)
    assert r.dtype == e.dtype and r.shape == e.shape
    np.testing.assert_allclose(r.get(), e, rtol=1e-5 if dtype in (np.float16, np.float32) else 1e-12)


def test_accumulate_dtype_out(device, rng):
    a = random_array(rng, (4, 3), np.int16)
    out = cp.empty((4, 3), dtype=cp.float64)
    assert cp.subtract.accumulate(cp.asarray(a), axis=1, dtype=cp.float64, out=out) is out
    np.testing.assert_array_equal(out.get(), np.subtract.accumulate(a, axis=1, dtype=np.float64))


# ---------------- reduceat ----------------
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "bitwise_or", "logaddexp"])
@pytest.mark.parametrize("indices", [[0, 4, 1, 5, 5, 7], [0], [3, 3, 3], [7, 0, 2], list(range(8))])
@pytest.mark.parametrize("axis", [0, 1])
def test_reduceat(device, rng, name, indices, axis):
    nu, cu = getattr(np, name), getattr(cp, name)
    dtype = np.float64 if name == "logaddexp" else np.int64
    a = random_array(rng, (8, 8), dtype, 1, 9)
    e = nu.reduceat(a, indices, axis=axis)
    r = cu.reduceat(cp.asarray(a), cp.asarray(indices), axis=axis)
    assert r.dtype == e.dtype and r.shape == e.shape
    np.testing.assert_allclose(r.get(), e, rtol=1e-12)


# ---------------- outer ----------------
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "greater", "power", "divmod", "arctan2"])
@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (4,)), ((), (5,)), ((2,), (3, 2))])
def test_outer(device, rng, name, shapes):
    nu, cu = getattr(np, name), getattr(cp, name)
    a = random_array(rng, shapes[0], np.float64, 1, 5)
    b = random_array(rng, shapes[1], np.float64, 1, 5)
    e = nu.outer(a, b)
    r = cu.outer(cp.asarray(a), cp.asarray(b))
    for x, y in zip(r if isinstance(r, tuple) else (r,), e if isinstance(e, tuple) else (e,)):
        assert x.shape == y.shape and x.dtype == y.dtype
        np.testing.assert_allclose(x.get(), y, rtol=1e-13)
    out = cp.empty(np.shape(e if not isinstance(e, tuple) else e[0]))
    if nu.nout == 1 and e.dtype == np.float64:
        assert cu.outer(cp.asarray(a), cp.asarray(b), out=out) is out
    with pytest.raises(ValueError):
        cp.sqrt.outer(cp.asarray(a), cp.asarray(b))


# ---------------- at ----------------
@pytest.mark.parametrize("name,dtype", [("add", np.int64), ("add", np.float32), ("subtract", np.float64),
                                        ("maximum", np.int16), ("multiply", np.float64), ("power", np.int32),
                                        ("bitwise_xor", np.uint8), ("negative", np.float64), ("sqrt", np.float64)])
def test_at_with_repeated_indices(device, rng, name, dtype):
    nu, cu = getattr(np, name), getattr(cp, name)
    a = random_array(rng, (10,), dtype, 1, 5)
    idx = np.array([0, 3, 3, 9, 0, 3])
    c = cp.asarray(a)
    if nu.nin == 1:
        nu.at(a, idx)
        assert cu.at(c, cp.asarray(idx)) is None
    else:
        b = random_array(rng, (6,), dtype, 1, 3)
        nu.at(a, idx, b)
        assert cu.at(c, cp.asarray(idx), cp.asarray(b)) is None
    np.testing.assert_allclose(c.get(), a, rtol=1e-6)


def test_at_2d_and_scalar_values(device):
    a = np.zeros((3, 4))
    c = cp.asarray(a)
    np.add.at(a, (np.array([0, 2, 0]), slice(None)), 1.5)
    cp.add.at(c, (cp.asarray([0, 2, 0]), slice(None)), 1.5)
    np.testing.assert_array_equal(c.get(), a)
    np.add.at(a, [1, 1], np.array([[1, 2, 3, 4], [5, 6, 7, 8]]))
    cp.add.at(c, [1, 1], cp.asarray([[1, 2, 3, 4], [5, 6, 7, 8]]))
    np.testing.assert_array_equal(c.get(), a)
    assert_raises_like(lambda: np.add.at(np.zeros(3), [0]), lambda: cp.add.at(cp.zeros(3), [0]))
