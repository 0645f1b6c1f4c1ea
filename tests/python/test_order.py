"""order= on ndarray methods and manipulation functions (copy, astype, reshape, ravel,
flatten), ndarray.flags / strides / base for every layout, and CuPy's
ndarray(shape, dtype, memptr, strides, order) with ndarray.data, NumPy as the oracle."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array
from test_creation_signatures import ORDERS, assert_like_numpy, copper_twin, prototypes

FLAG_ATTRS = ["c_contiguous", "f_contiguous", "fnc", "forc", "aligned", "writeable", "writebackifcopy",
              "behaved", "carray", "farray"]
FLAG_KEYS = ["C_CONTIGUOUS", "C", "CONTIGUOUS", "F_CONTIGUOUS", "F", "FORTRAN", "WRITEABLE", "W", "ALIGNED", "A",
             "WRITEBACKIFCOPY", "X", "FNC", "FORC", "BEHAVED", "B", "CARRAY", "CA", "FARRAY", "FA"]


@pytest.mark.parametrize("order", ORDERS + [None])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float64, np.complex64])
def test_copy_method(device, rng, order, dtype):
    kw = {} if order is None else {"order": order}
    for proto in prototypes(rng, dtype).values():
        c = copper_twin(proto)
        assert_like_numpy(c.copy(**kw), proto.copy(**kw))
    with pytest.raises(ValueError, match=r"order must be one of"):
        cp.ones(2).copy(order="G")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("to", [np.float32, np.int16, np.complex128, np.bool_])
def test_astype_order(device, rng, order, to):
    for proto in prototypes(rng, np.float64).values():
        c = copper_twin(proto)
        assert_like_numpy(c.astype(to, order), proto.astype(to, order))
        assert_like_numpy(c.astype(to, order=order, casting="unsafe", subok=True, copy=True),
                          proto.astype(to, order=order))
        assert_like_numpy(c.astype(c.dtype, order=order, copy=False), proto.astype(proto.dtype, order=order, copy=False))


def test_astype_copy_false_returns_the_array(device):
    a = cp.ones((2, 3), dtype=np.float32)
    assert a.astype(np.float32, copy=False) is a
    assert a.astype(np.float32, order="C", copy=False) is a
    assert a.astype(np.float32, order="F", copy=False) is not a
    assert a.T.astype(np.float32, order="F", copy=False).base is not None
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        a.astype(np.int8, casting="safe")


@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_order(device, rng, order):
    for name, proto in prototypes(rng, np.int32).items():
        c = copper_twin(proto)
        for shape in [(-1,), (proto.size,), (1, -1), (-1, 1)] + ([(2, -1)] if proto.size % 2 == 0 else []):
            assert_like_numpy(c.reshape(shape, order=order), proto.reshape(shape, order=order))
            assert_like_numpy(cp.reshape(c, shape, order=order), np.reshape(proto, shape, order=order))
        if proto.ndim == 3:
            assert_like_numpy(c.reshape(proto.shape[::-1], order=order), proto.reshape(proto.shape[::-1], order=order))
    with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
        cp.ones((2, 3)).reshape(6, order="K")


@pytest.mark.parametrize("order", ORDERS + [None])
def test_ravel_and_flatten(device, rng, order):
    kw = {} if order is None else {"order": order}
    for name, proto in prototypes(rng, np.float32).items():
        c = copper_twin(proto)
        r, n = c.ravel(**kw), proto.ravel(**kw)
        assert_like_numpy(r, n)
        # A view exactly where NumPy gives one.
        assert (r.base is not None) == (n.base is not None), name
        assert_like_numpy(cp.ravel(c, **kw), np.ravel(proto, **kw))
        f = c.flatten(**kw)
        assert_like_numpy(f, proto.flatten(**kw))
        assert f.base is None


def layout_cases(rng):
    """Copper arrays (with NumPy twins) of every layout flags depend on."""
    cases = dict(prototypes(rng, np.complex128))
    cases.update({
        "size-1 dims": np.ones((1, 3, 1)).transpose(2, 1, 0),
        "column": np.ones((4, 1)),
        "broadcast-like": np.ones((3, 1))[:, [0, 0]][:, :1],
        "empty F": np.empty((0, 3), order="F"),
        "stepped 1-d": np.arange(10.0)[::3],
        "int8 offset": np.arange(10, dtype=np.int8)[1:],
        "float64 odd": np.frombuffer(bytearray(17), np.uint8)[1:].view(np.float64),
    })
    return cases


def test_flags_and_strides_for_every_layout(device, rng):
    for name, n in layout_cases(rng).items():
        c = copper_twin(n)
        assert c.strides == n.strides, name
        for attr in FLAG_ATTRS:
            if attr == "aligned" and name == "float64 odd":
                continue  # NumPy's copy of odd-offset memory lands wherever its allocator puts it
            assert getattr(c.flags, attr) == getattr(n.flags, attr), (name, attr)
        for key in FLAG_KEYS:
            if key in ("ALIGNED", "A", "BEHAVED", "B", "CARRAY", "CA", "FARRAY", "FA") and name == "float64 odd":
                continue
            assert c.flags[key] == n.flags[key], (name, key)
    with pytest.raises(KeyError):
        cp.ones(2).flags["NOPE"]
    for attr in ("c_contiguous", "f_contiguous", "owndata"):
        with pytest.raises(AttributeError):
            setattr(cp.ones(2).flags, attr, True)


def test_misaligned_views_are_not_aligned(device):
    raw = cp.zeros(40, cp.uint8)
    odd = cp.ndarray((2,), cp.float64, raw.data + 1)
    assert not odd.flags.aligned and not odd.flags.behaved and not odd.flags["CARRAY"]
    assert cp.ndarray((2,), cp.float64, raw.data + 8).flags.aligned
    assert cp.ndarray((2,), cp.complex128, raw.data).flags.aligned


def test_owndata_and_base_follow_numpy(device):
    a = cp.arange(24.0).reshape(2, 3, 4)
    assert a.base is not None  # reshape of arange's result is a view, as in NumPy
    o = cp.zeros((2, 3))
    assert o.base is None and o.flags.owndata
    for view in (o[1:], o.T, o.reshape(6), o.ravel(), o[None], o[..., ::2], o.swapaxes(0, 1)):
        assert view.base is o and not view.flags.owndata
    v = o[1:]
    assert v[0].base is o and v.reshape(3).base is o and v.T.base is o
    assert v.base is v.base
    z = cp.zeros((0,))
    assert z.reshape((0,)).base is z
    z2 = cp.zeros((2, 0, 3))
    for order in "CFA":
        assert z2.reshape((5, 0, 4), order=order).base is z2
    assert o.copy().base is None and o.astype(np.int8).base is None
    assert cp.asarray(v) is v


# ---------------------------------------------------------------- memory pointers

def test_data_is_a_memory_pointer(device):
    a = cp.arange(12, dtype=np.int32).reshape(3, 4)
    p = a.data
    expected_id = -1 if device == "cpu" else int(device.split(":")[1])
    assert p.device_id == expected_id and p.mem.device_id == expected_id
    assert p.device == a.device
    assert isinstance(p.ptr, int) and p.ptr != 0 and int(p) == p.ptr
    assert p.mem.size == a.nbytes and p.mem.ptr == p.ptr
    assert a[1:].data.ptr == p.ptr + 16 and a[1:].data.mem.size == a.nbytes
    assert a[:, 2].data.ptr == p.ptr + 8
    assert (p + 8).ptr == p.ptr + 8 and (8 + p).ptr == p.ptr + 8 and (p + 8 - 4).ptr == p.ptr + 4
    assert a.data is not a.data
    assert cp.empty(0).data.ptr == 0 and cp.empty(0).data.mem.size == 0


def test_memory_pointer_keeps_the_buffer_alive(device):
    p = cp.arange(1000, dtype=np.float64).data
    b = cp.ndarray((1000,), np.float64, p)
    np.testing.assert_array_equal(b.get(), np.arange(1000.0))


def test_ndarray_constructor(device):
    a = cp.ndarray(3)
    assert a.shape == (3,) and a.dtype == np.float64 and a.flags.owndata and a.base is None
    assert a.device == cp.Device(device)
    for order in ("C", "F", None):
        for shape in [(), (1,), (2, 3, 4), (0, 2)]:
            c, n = cp.ndarray(shape, np.uint16, order=order), np.ndarray(shape, np.uint16, order=order)
            assert (c.strides, c.flags.c_contiguous, c.flags.f_contiguous) == (
                n.strides, n.flags.c_contiguous, n.flags.f_contiguous)
    src = cp.arange(6).astype(np.float32).reshape(2, 3)
    b = cp.ndarray((2, 3), np.float32, src.data)
    b += 1
    np.testing.assert_array_equal(src.get(), np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    buf = cp.ndarray(20, np.uint8)
    s = cp.ndarray((2, 3), np.float32, buf.data, strides=(8, 4), order="C")
    assert s.strides == (8, 4)
    s[:] = 1
    s[0, 2] = 4
    assert float(s[1, 0]) == 4  # the rows overlap
    d = cp.ndarray(3, strides=(0,), memptr=cp.ndarray(3).data)
    assert d.strides == (0,)


@pytest.mark.parametrize("args, kwargs, error", [
    ((None,), {}, TypeError),
    ((1.0,), {}, TypeError),
    (((1.0,),), {}, TypeError),
    (((2, 3), np.float32), {"strides": (20, 4)}, ValueError),
    (((2, 3), np.float32), {"order": "!"}, ValueError),
    (([1] * 65, np.int8), {}, ValueError),
])
def test_ndarray_constructor_errors(args, kwargs, error):
    with pytest.raises(error):
        np.ndarray(*args, **kwargs)
    with pytest.raises(error):
        cp.ndarray(*args, **kwargs)


def test_ndarray_over_memory_must_fit(device):
    buf = cp.zeros(16, np.uint8)
    with pytest.raises(ValueError, match="does not fit"):
        cp.ndarray((3,), np.float64, buf.data)
    with pytest.raises(ValueError, match="does not fit"):
        cp.ndarray((2,), np.float64, buf.data + 8)
    with pytest.raises(ValueError, match="does not fit"):
        cp.ndarray((2,), np.float64, buf.data, strides=(-8,))
    assert cp.ndarray((2,), np.float64, buf.data + 8, strides=(-8,)).shape == (2,)


def test_memory_pointer_copies(device):
    a = cp.arange(8, dtype=np.int32)
    b = cp.zeros(8, dtype=np.int32)
    b.data.copy_from_device(a.data + 8, 16)
    np.testing.assert_array_equal(b.get(), [2, 3, 4, 5, 0, 0, 0, 0])
    host = np.arange(100, 108, dtype=np.int32)
    (b.data + 16).copy_from_host(host.ctypes.data, 8)
    np.testing.assert_array_equal(b.get(), [2, 3, 4, 5, 100, 101, 0, 0])
    out = np.zeros(8, np.int32)
    a.data.copy_to_host(out.ctypes.data, 32)
    np.testing.assert_array_equal(out, np.arange(8))
    b.data.memset(0, 32)
    assert not b.get().any()
    with pytest.raises(ValueError, match="do not fit"):
        b.data.copy_from_device(a.data, 33)


# ---------------------------------------------------------------- get() with order and out

@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_get_order_and_out(device, rng, order):
    for proto in prototypes(rng, np.int16).values():
        c = copper_twin(proto)
        h = c.get(order=order)
        np.testing.assert_array_equal(h, proto)
        if order == "F" or (order == "A" and c.flags.f_contiguous):
            assert h.flags.f_contiguous
        else:
            assert h.flags.c_contiguous
        for out_order in "CF":
            out = np.empty(proto.shape, proto.dtype, order=out_order)
            assert c.get(out=out) is out
            np.testing.assert_array_equal(out, proto)
    with pytest.raises(RuntimeError):
        cp.ones((3, 3)).get(out=np.empty((3, 3))[:2, :2])
    with pytest.raises(ValueError):
        cp.ones((3, 3)).get(out=np.empty((3, 2)))
    with pytest.raises(TypeError):
        cp.ones((3, 3)).get(out=np.empty((3, 3), np.float32))
