"""NumPy 2's signatures for the creation functions (names, order, defaults, keyword-only
marks; copper's device= keyword-only) and the layouts order= gives, with NumPy as the
oracle: values, dtype, shape, strides and flags for every order, dtype and shape."""
import ast
import inspect

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array

ORDERS = ["C", "F", "A", "K"]
SHAPES = [(), (0,), (5,), (2, 0, 3), (1, 4), (2, 3, 4)]
COPPER_ONLY_KEYWORDS = {"device", "blocking"}


def facts(x):
    """What must match NumPy besides the values."""
    f = x.flags
    return x.shape, np.dtype(x.dtype), x.strides, f.c_contiguous, f.f_contiguous


def assert_like_numpy(c, n, values=True):
    assert isinstance(c, cp.ndarray), type(c)
    assert facts(c) == facts(n)
    if values:
        np.testing.assert_array_equal(c.get(), n)


# ---------------------------------------------------------------- signatures

def copper_signature(f):
    """(positional names, keyword-only names, defaults) from a nanobind function's doc line."""
    line = f.__doc__.splitlines()[0]
    tree = ast.parse("def " + line + ": pass")
    args = tree.body[0].args
    positional = [a.arg for a in args.args]
    defaults = {a.arg: d for a, d in zip(args.args[len(args.args) - len(args.defaults):], args.defaults)}
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    literal = {}
    for k, d in defaults.items():
        try:
            literal[k] = ast.literal_eval(d)
        except ValueError:
            pass
    return positional, [a.arg for a in args.kwonlyargs], literal


def numpy_signature(f):
    sig = inspect.signature(f)
    positional = [p.name for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = [p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY]
    defaults = {p.name: p.default for p in sig.parameters.values()
                if p.default is not p.empty and isinstance(p.default, (type(None), str, int, float, bool))}
    return positional, keyword, defaults


CREATION_FUNCTIONS = ["empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
                      "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "require", "copy",
                      "linspace", "logspace", "eye", "identity"]


@pytest.mark.parametrize("name", CREATION_FUNCTIONS)
def test_signature_is_numpys(name):
    positional, keyword, defaults = copper_signature(getattr(cp, name))
    np_positional, np_keyword, np_defaults = numpy_signature(getattr(np, name))
    assert positional == np_positional
    assert set(np_keyword) - {"ndmax"} <= set(keyword)
    assert set(keyword) - set(np_keyword) <= COPPER_ONLY_KEYWORDS
    for k, v in np_defaults.items():
        if k in defaults and k != "dtype":  # copper spells NumPy's dtype=float default None
            assert defaults[k] == v, k


def test_arange_takes_numpys_positional_forms_and_keyword_only_device():
    np.testing.assert_array_equal(cp.arange(0, 5, 1, "f4").get(), np.arange(0, 5, 1, "f4"))
    assert cp.arange(3, like=cp.ones(1)).dtype == np.int64
    with pytest.raises(TypeError):
        cp.arange(0, 5, 1, "f4", "cpu")


def test_order_lands_where_numpy_puts_it(device):
    # The third positional argument of empty/zeros/ones is order, as NumPy's.
    for f in (cp.empty, cp.zeros, cp.ones):
        a = f((2, 3), "f4", "F")
        assert a.flags.f_contiguous and not a.flags.c_contiguous and a.device == cp.Device(device)
    assert cp.full((2, 3), 7, "i2", "F").strides == np.full((2, 3), 7, "i2", "F").strides
    assert cp.eye(3, 4, 1, "f8", "F").strides == np.eye(3, 4, 1, "f8", "F").strides
    with pytest.raises(TypeError):
        cp.empty((2,), "f4", "C", "cpu")  # device is keyword-only


def test_like_is_accepted_and_checked():
    ref = cp.ones(2)
    for f in (cp.empty, cp.zeros, cp.ones):
        assert f(3, like=ref).shape == (3,)
    assert cp.full(3, 1, like=ref).shape == (3,)
    assert cp.array([1, 2], like=ref).shape == (2,)
    assert cp.asarray([1, 2], like=None).shape == (2,)
    assert cp.eye(2, like=ref).shape == (2, 2) and cp.identity(2, like=ref).shape == (2, 2)
    with pytest.raises(TypeError, match="__array_function__"):
        cp.zeros(3, like=[1, 2])


# ---------------------------------------------------------------- shape-and-dtype creators

@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_zeros_ones_empty_full_layout(device, order, shape, dtype):
    assert_like_numpy(cp.zeros(shape, dtype, order), np.zeros(shape, dtype, order))
    assert_like_numpy(cp.ones(shape, dtype=dtype, order=order), np.ones(shape, dtype=dtype, order=order))
    assert_like_numpy(cp.empty(shape, dtype, order), np.empty(shape, dtype, order), values=False)
    fill = np.array(3, dtype).item()
    assert_like_numpy(cp.full(shape, fill, dtype, order), np.full(shape, fill, dtype, order))


def test_full_dtype_comes_from_the_fill_value(device):
    for fill in (3, 2.5, True, 1 + 2j, np.float32(1.5), np.int8(-3), np.array(4.0, np.float16)):
        assert_like_numpy(cp.full((2, 3), fill), np.full((2, 3), fill))
    row = np.arange(3, dtype=np.int16)
    assert_like_numpy(cp.full((2, 3), row, order="F"), np.full((2, 3), row, order="F"))
    assert_like_numpy(cp.full((2, 3), cp.asarray(row)), np.full((2, 3), row))
    assert_like_numpy(cp.full((2, 3), [1.5, 2, 3], dtype="f4"), np.full((2, 3), [1.5, 2, 3], dtype="f4"))


@pytest.mark.parametrize("f", [cp.empty, cp.zeros, cp.ones, lambda s, d, o: cp.full(s, 1, d, o),
                               lambda s, d, o: cp.eye(3, dtype=d, order=o)])
def test_shape_creators_take_only_c_or_f(f):
    for bad in ("A", "K"):
        with pytest.raises(ValueError, match=r"only 'C' or 'F' order is permitted"):
            f((2, 3), "f8", bad)
    with pytest.raises(ValueError, match=r"order must be one of 'C', 'F', 'A', or 'K' \(got 'X'\)"):
        f((2, 3), "f8", "X")
    with pytest.raises(TypeError, match="order must be str, not int"):
        f((2, 3), "f8", 1)


def test_shape_errors_match_numpy():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        cp.zeros((2, -1))
    with pytest.raises(TypeError):
        cp.zeros(2.0)
    with pytest.raises(TypeError):
        cp.zeros((2.0,))
    with pytest.raises(ValueError, match="maximum supported dimension"):
        cp.zeros([1] * 65)
    assert cp.zeros([1] * 64, dtype=cp.int8).ndim == 64


# ---------------------------------------------------------------- the _like creators

def prototypes(rng, dtype):
    """NumPy arrays of every layout: C, F, sliced, negative strides, permuted 3-d, 0-d, empty."""
    base = random_array(rng, (4, 6, 5), dtype)
    return {
        "C": base,
        "F": np.asfortranarray(base),
        "sliced": base[::2, 1:5, ::2],
        "negative": base[::-1, :, ::-2],
        "permuted": base.transpose(1, 2, 0),
        "permuted-sliced": base.transpose(2, 0, 1)[:, ::-1, 1:4],
        "row": base[0, :, 0],
        "F-2d": np.asfortranarray(base[0]),
        "0-d": base[0, 0, 0, ...],
        "empty": base[:, :0],
    }


def is_dense(n):
    """Whether n's elements fill its memory exactly (positive strides, any axis order)."""
    step = n.itemsize
    for stride, length in sorted((s, d) for s, d in zip(n.strides, n.shape) if d != 1):
        if stride != step:
            return False
        step *= length
    return True


def copper_twin(n):
    """A copper array with n's values and n's exact layout: n's base memory copied byte for
    byte, viewed through ndarray(shape, dtype, memptr, strides)."""
    if n.ndim == 0:
        return cp.asarray(n)
    if n.size == 0:
        return cp.ndarray(n.shape, n.dtype, cp.empty(0, n.dtype).data, strides=n.strides)
    base = n
    while isinstance(base.base, np.ndarray):
        base = base.base
    raw = cp.asarray(np.frombuffer(base.tobytes(order="A"), np.uint8))  # memory order (C or F)
    offset = n.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    c = cp.ndarray(n.shape, n.dtype, raw.data + offset, strides=n.strides)
    np.testing.assert_array_equal(c.get(), n)
    return c


@pytest.mark.parametrize("order", ORDERS + [None])
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
def test_like_creators_follow_the_prototype_layout(device, rng, order, dtype):
    for name, proto in prototypes(rng, dtype).items():
        c_proto = copper_twin(proto)
        assert c_proto.strides == proto.strides, name
        kw = {} if order is None else {"order": order}
        assert_like_numpy(cp.empty_like(c_proto, **kw), np.empty_like(proto, **kw), values=False)
        assert_like_numpy(cp.zeros_like(c_proto, **kw), np.zeros_like(proto, **kw))
        assert_like_numpy(cp.ones_like(c_proto, "f8", **kw), np.ones_like(proto, "f8", **kw))
        assert_like_numpy(cp.full_like(c_proto, 2, **kw), np.full_like(proto, 2, **kw))
        assert_like_numpy(cp.zeros_like(proto, **kw), np.zeros_like(proto, **kw))  # a NumPy prototype


@pytest.mark.parametrize("order", ORDERS)
def test_like_creators_with_a_new_shape(device, rng, order):
    for proto in prototypes(rng, np.float64).values():
        c = copper_twin(proto)
        for shape in [(3, 4), (2, 5, 7), proto.shape[::-1], ()]:
            assert_like_numpy(cp.zeros_like(c, shape=shape, order=order), np.zeros_like(proto, shape=shape, order=order))
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.zeros_like(cp.ones(3), shape=(-1,))


def test_like_creators_keep_the_device_unless_told(device):
    a = cp.ones((2, 3))
    assert cp.empty_like(a).device == a.device
    assert cp.zeros_like(a, device="cpu").device == cp.Device("cpu")
    assert cp.full_like([1, 2], 3).device == cp.get_default_device()
    with pytest.raises(ValueError, match=r"order must be one of"):
        cp.zeros_like(a, order="Q")


def test_full_like_fill_values(device):
    a = cp.zeros((2, 3), np.int8)
    assert_like_numpy(cp.full_like(a, 2.9), np.full_like(np.zeros((2, 3), np.int8), 2.9))
    assert_like_numpy(cp.full_like(a, [1, 2, 3]), np.full_like(np.zeros((2, 3), np.int8), [1, 2, 3]))
    assert_like_numpy(cp.full_like(a, np.nan, dtype="f4"), np.full_like(np.zeros((2, 3)), np.nan, dtype="f4"))


# ---------------------------------------------------------------- array, asarray, copy

@pytest.mark.parametrize("order", ORDERS + [None])
@pytest.mark.parametrize("dtype", [None, np.float32, np.int64])
def test_array_of_a_copper_array_lays_out_as_numpy(device, rng, order, dtype):
    for name, proto in prototypes(rng, np.float64).items():
        c = copper_twin(proto)
        kw = {"dtype": dtype} if order is None else {"dtype": dtype, "order": order}
        assert_like_numpy(cp.array(c, **kw), np.array(proto, **kw))
        assert_like_numpy(cp.asarray(c, **kw), np.asarray(proto, **kw))
        assert_like_numpy(cp.array(c, copy=None, **kw), np.array(proto, copy=None, **kw))
        for ndmin in (0, 2, 5):
            assert_like_numpy(cp.array(c, ndmin=ndmin, **kw), np.array(proto, ndmin=ndmin, **kw))
            assert_like_numpy(cp.array(c, copy=None, ndmin=ndmin, **kw),
                              np.array(proto, copy=None, ndmin=ndmin, **kw))


@pytest.mark.parametrize("order", ORDERS + [None])
@pytest.mark.parametrize("dtype", [None, np.float32, np.complex64])
def test_array_from_host_lays_out_as_numpy(device, rng, order, dtype):
    for name, proto in prototypes(rng, np.int32).items():
        kw = {"dtype": dtype} if order is None else {"dtype": dtype, "order": order}
        want = np.array(proto, **kw)
        assert_like_numpy(cp.array(proto, **kw), want)
        assert_like_numpy(cp.array(proto.tolist(), **kw), np.array(proto.tolist(), **kw))
        # asarray: NumPy's result itself when its elements can be copied as they lie (dense or
        # empty), else NumPy's copy of it in that order.
        n = np.asarray(proto, **kw)
        dense = n.size == 0 or is_dense(n)
        want = n if dense else np.array(n, copy=True, order=kw.get("order") or "K")
        assert_like_numpy(cp.asarray(proto, **kw), want)
        assert_like_numpy(cp.array(proto, ndmin=4, **kw), np.array(proto, ndmin=4, **kw))


def test_array_copy_semantics(device):
    a = cp.asarray(np.arange(6.0).reshape(2, 3))
    assert a.base is None
    assert cp.asarray(a) is a
    assert cp.array(a, copy=False) is a
    assert cp.array(a, copy=None) is a
    assert cp.asarray(a, order="C") is a and cp.asarray(a, order="A") is a
    assert cp.array(a) is not a and cp.array(a).base is None
    assert cp.asarray(a, dtype=a.dtype) is a
    b = cp.array(a, copy=None, ndmin=3)
    assert b.shape == (1, 2, 3) and b.base is a and a.shape == (2, 3)
    c = cp.array(a, copy=False, ndmin=3)
    assert c.base is a
    v = a[1:]
    assert cp.array(v, copy=None, ndmin=4).base is v.base is a  # NumPy names the owner
    message = "Unable to avoid copy while creating an array as requested"
    with pytest.raises(ValueError, match=message):
        cp.array(a, copy=False, order="F")
    with pytest.raises(ValueError, match=message):
        cp.array(a, copy=False, dtype=np.float32)
    with pytest.raises(ValueError, match=message):
        cp.asarray(a.T, copy=False, order="C")
    with pytest.raises(ValueError, match=message):
        cp.array([1, 2], copy=False)
    assert cp.asarray(a.T, copy=False) is not None  # K keeps any layout
    with pytest.raises(ValueError, match=r"order must be one of 'C', 'F', 'A', or 'K' \(got 'Z'\)"):
        cp.array(a, order="Z")


def test_array_rejects_dtypes_copper_lacks():
    with pytest.raises(ValueError):
        cp.array(np.array([1, "a"], dtype=object))
    with pytest.raises(ValueError):
        cp.asarray(np.zeros(2, dtype="i4,f8"))


def test_array_of_big_endian_host_data(device, rng):
    for t in (">i4", ">f8", ">c16", "<u2"):
        n = random_array(rng, (3, 4), np.dtype(t).newbyteorder("=")).astype(t)
        assert_like_numpy(cp.array(n), np.array(n).astype(np.dtype(t).newbyteorder("=")))
        np.testing.assert_array_equal((cp.asarray(n) + 1).get(), n + 1)


@pytest.mark.parametrize("order", ORDERS + [None])
def test_copy_function(device, rng, order):
    kw = {} if order is None else {"order": order}
    for proto in prototypes(rng, np.uint16).values():
        c = copper_twin(proto)
        r = cp.copy(c, **kw)
        assert_like_numpy(r, np.copy(proto, **kw))
        assert r is not c and r.base is None
    assert_like_numpy(cp.copy([[1, 2], [3, 4]], order="F"), np.copy([[1, 2], [3, 4]], order="F"))


@pytest.mark.parametrize("f", ["ascontiguousarray", "asfortranarray"])
def test_contiguous_conversions(device, rng, f):
    for proto in prototypes(rng, np.float32).values():
        c = copper_twin(proto)
        assert_like_numpy(getattr(cp, f)(c), getattr(np, f)(proto))
        assert_like_numpy(getattr(cp, f)(c, dtype=np.float64), getattr(np, f)(proto, dtype=np.float64))
        assert_like_numpy(getattr(cp, f)(proto), getattr(np, f)(proto))
    a = cp.ones((2, 3), order="C" if f == "ascontiguousarray" else "F")
    assert getattr(cp, f)(a) is a
    assert getattr(cp, f)(cp.asarray(3.0)).shape == (1,)  # at least 1-d, as NumPy


@pytest.mark.parametrize("requirements", [None, [], "C", ["F"], ["A", "W"], ["O"], ["C", "O"],
                                          ["F_CONTIGUOUS", "ALIGNED"], ["c", "e"], ["ENSUREARRAY", "OWNDATA"]])
def test_require(device, rng, requirements):
    owndata = requirements and any(q.upper() in ("O", "OWNDATA") for q in requirements)
    for name, proto in prototypes(rng, np.int64).items():
        if owndata and proto.base is not None:
            continue  # the copper twin of a NumPy view owns its memory (checked below)
        c = copper_twin(proto)
        assert_like_numpy(cp.require(c, requirements=requirements), np.require(proto, requirements=requirements))
        assert_like_numpy(cp.require(c, np.float32, requirements), np.require(proto, np.float32, requirements))


def test_require_copies_views_for_owndata(device):
    a = cp.asarray(np.arange(12.0).reshape(3, 4))
    v = a[1:]
    assert cp.require(v) is v and cp.require(a, requirements="O") is a
    r = cp.require(v, requirements=["O"])
    assert r.flags.owndata and r.base is None
    np.testing.assert_array_equal(r.get(), v.get())


def test_require_errors():
    with pytest.raises(ValueError, match='Cannot specify both "C" and "F" order'):
        cp.require(cp.ones(3), requirements=["C", "F"])
    with pytest.raises(KeyError):
        cp.require(cp.ones(3), requirements=["Q"])
