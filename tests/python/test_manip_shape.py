"""Shape manipulation against NumPy: reshape, ravel/flatten, transpose, axis moves,
squeeze/expand_dims, broadcasting views, atleast_nd. Every result that NumPy returns
as a view must be a view here too (same .base-ness, writes show through)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import copper as cp
from conftest import ALL_DTYPES, DEVICES, random_array

# Manipulation only moves bytes, so a representative dtype per size and kind suffices
# for most tests; copies through the backend are exercised over ALL_DTYPES separately.
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.complex128]
LAYOUTS = ["c", "f", "strided", "negative"]


def pair(rng, shape, dtype, layout="c"):
    """The same data as (NumPy view, copper view) with the requested memory layout."""
    shape = tuple(shape)
    if layout == "c":
        base = np.asarray(random_array(rng, shape, dtype))
        return base, cp.asarray(base)
    if layout == "f":
        base = np.asarray(random_array(rng, shape[::-1], dtype))
        return base.T, cp.asarray(base).T
    if layout == "strided":
        base = random_array(rng, tuple(2 * d + 1 for d in shape), dtype)
        key = tuple(slice(1, None, 2) for _ in shape) or Ellipsis  # base[()] would be a NumPy scalar
        return base[key], cp.asarray(base)[key]
    base = np.asarray(random_array(rng, shape, dtype))  # negative strides on every axis
    key = tuple(slice(None, None, -1) for _ in shape) or Ellipsis
    return base[key], cp.asarray(base)[key]


def check(c, n):
    """Exact equality of values, dtype and shape (manipulation never rounds)."""
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape
    assert c.dtype == n.dtype
    np.testing.assert_array_equal(c.get(), n)


def check_view_semantics(c_in, n_in, c_out, n_out, rng):
    """c_out is a view exactly when n_out is, and writing through it reaches c_in likewise."""
    assert (c_out.base is not None) == (n_out.base is not None)
    if n_out.size == 0 or 0 in n_out.strides:
        return
    values = random_array(rng, n_out.shape, n_out.dtype)
    n_out[...] = values
    c_out[...] = cp.asarray(values)
    check(c_in, n_in)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape,newshape", [
    ((2, 3, 4), (6, 4)), ((2, 3, 4), (4, -1)), ((2, 3, 4), (24,)), ((2, 3, 4), (2, 1, 12, 1)),
    ((6,), (3, 2)), ((6,), (1, 6, 1)), ((1, 5), (5,)), ((4, 1, 3), (2, 2, 3)), ((3, 4), (4, 3)),
    ((), (1, 1)), ((1,), ()), ((0, 3), (3, 0)), ((0, 3), (-1, 5)), ((2, 0), (0,)),
])
def test_reshape_matches_numpy(device, rng, dtype, layout, shape, newshape):
    n, c = pair(rng, shape, dtype, layout)
    n_out, c_out = n.reshape(newshape), c.reshape(newshape)
    check(c_out, n_out)
    if n_out.base is not None and np.shares_memory(n_out, n):
        assert c_out.strides == n_out.strides  # the no-copy algorithm picks NumPy's strides
    check_view_semantics(c, n, c_out, n_out, rng)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_order(device, rng, layout, order):
    n, c = pair(rng, (4, 6), np.float64, layout)
    for shape in [(24,), (3, 8), (2, 2, 6), (6, 4)]:
        n_out, c_out = np.reshape(n, shape, order=order), cp.reshape(c, shape, order=order)
        check(c_out, n_out)
        check_view_semantics(c, n, c_out, n_out, rng)


def test_reshape_call_forms(device, rng):
    n, c = pair(rng, (2, 6), np.int32)
    check(c.reshape(3, 4), n.reshape(3, 4))
    check(c.reshape((3, -1)), n.reshape((3, -1)))
    check(cp.reshape(c, 12), np.reshape(n, 12))
    check(cp.reshape(c, shape=(4, 3)), np.reshape(n, shape=(4, 3)))
    check(cp.reshape(n, (4, 3)), n.reshape(4, 3))  # array-likes are accepted
    copied = c.reshape(12, copy=True)
    assert not np.shares_memory(copied.get(), n)
    copied[0] = 100
    assert c[0, 0].item() == n[0, 0]


def test_reshape_errors(device, rng):
    _, c = pair(rng, (6,), np.int64)
    with pytest.raises(ValueError, match=r"^cannot reshape array of size 6 into shape \(4,\)$"):
        c.reshape(4)
    with pytest.raises(ValueError, match=r"^cannot reshape array of size 6 into shape \(4\)$"):
        c.reshape(-1, 4)
    with pytest.raises(ValueError, match=r"^cannot reshape array of size 6 into shape \(2,newaxis,4\)$"):
        c.reshape(2, -1, 4)
    with pytest.raises(ValueError, match=r"^cannot reshape array of size 6 into shape \(\)$"):
        c.reshape(())
    with pytest.raises(ValueError, match="^can only specify one unknown dimension$"):
        c.reshape(-1, -1)
    with pytest.raises(ValueError, match="^Unable to avoid creating a copy while reshaping.$"):
        cp.reshape(c.reshape(2, 3).T, (6,), copy=False)
    z = cp.zeros((0, 3))
    with pytest.raises(ValueError, match=r"^cannot reshape array of size 0 into shape \(0,newaxis\)$"):
        z.reshape(0, -1)


@pytest.mark.parametrize("dev", DEVICES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_reshape_hypothesis(dev, data):
    """Random shapes, random views (slices with any step, transposes), random target shapes."""
    ndim = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    base = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    n, c = base, cp.asarray(base, device=dev)
    key = tuple(slice(data.draw(st.integers(0, 1)), None, data.draw(st.sampled_from([1, 2, -1, -2])))
                for _ in shape)
    n, c = n[key], c[key]
    if data.draw(st.booleans()):
        n, c = n.T, c.T
    size = n.size
    divisors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    newshape = []
    rest = size
    for _ in range(data.draw(st.integers(0, 3))):
        d = data.draw(st.sampled_from([d for d in divisors if rest % d == 0]))
        newshape.append(d)
        rest //= d
    newshape.append(rest)
    if size and data.draw(st.booleans()):
        newshape[data.draw(st.integers(0, len(newshape) - 1))] = -1
    order = data.draw(st.sampled_from(["C", "F"]))
    n_out, c_out = n.reshape(newshape, order=order), c.reshape(newshape, order=order)
    check(c_out, n_out)
    assert (c_out.base is not None) == (n_out.base is not None)
    view = np.shares_memory(n_out, base)
    assert _shares(c_out, c) == (view and n_out.size > 0)
    if view:
        assert c_out.strides == n_out.strides


def _shares(c_out, c_in):
    """Whether c_out is a view of c_in's buffer (writes through it show up in c_in)."""
    if c_out.size == 0:
        return False
    first = (0,) * c_out.ndim
    before = c_in.get().copy()
    old = c_out[first].item()
    c_out[first] = old + 1
    changed = not np.array_equal(c_in.get(), before)
    c_out[first] = old
    return changed


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_flatten(device, rng, dtype, layout, order):
    n, c = pair(rng, (3, 4, 2), dtype, layout)
    n_r, c_r = n.ravel(order), c.ravel(order)
    check(c_r, n_r)
    check_view_semantics(c, n, c_r, n_r, rng)
    n_f, c_f = n.flatten(order), c.flatten(order)
    check(c_f, n_f)
    assert c_f.base is None and c_f.flags.owndata
    check(cp.ravel(c, order=order), np.ravel(n, order=order))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_transpose(device, rng, dtype, layout):
    n, c = pair(rng, (2, 3, 4), dtype, layout)
    for n_out, c_out in [(n.T, c.T), (n.transpose(), c.transpose()), (n.transpose(1, 0, 2), c.transpose(1, 0, 2)),
                         (n.transpose((2, 0, 1)), c.transpose((2, 0, 1))),
                         (np.transpose(n, (-1, 0, 1)), cp.transpose(c, (-1, 0, 1))),
                         (np.permute_dims(n, (0, 2, 1)), cp.permute_dims(c, (0, 2, 1)))]:
        check(c_out, n_out)
        assert c_out.strides == n_out.strides
        check_view_semantics(c, n, c_out, n_out, rng)


def test_transpose_errors(device):
    c = cp.zeros((2, 3))
    with pytest.raises(ValueError, match="^axes don't match array$"):
        c.transpose(0)
    with pytest.raises(ValueError, match="^repeated axis in transpose$"):
        c.transpose(0, 0)
    with pytest.raises(np.exceptions.AxisError, match="^axis 2 is out of bounds for array of dimension 2$"):
        c.transpose(0, 2)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_swapaxes_moveaxis(device, rng, layout):
    n, c = pair(rng, (2, 3, 4, 5), np.float32, layout)
    cases = [
        (np.swapaxes(n, 0, 3), cp.swapaxes(c, 0, 3)), (n.swapaxes(-1, 1), c.swapaxes(-1, 1)),
        (np.moveaxis(n, 0, -1), cp.moveaxis(c, 0, -1)), (np.moveaxis(n, [0, 1], [3, 0]), cp.moveaxis(c, [0, 1], [3, 0])),
        (np.moveaxis(n, (3, 1, 0), (0, 1, 2)), cp.moveaxis(c, (3, 1, 0), (0, 1, 2))),
    ]
    for n_out, c_out in cases:
        check(c_out, n_out)
        assert c_out.strides == n_out.strides
        check_view_semantics(c, n, c_out, n_out, rng)


def test_swapaxes_moveaxis_errors(device):
    c = cp.zeros((2, 3))
    with pytest.raises(np.exceptions.AxisError, match="^axis2: axis 4 is out of bounds for array of dimension 2$"):
        cp.swapaxes(c, 0, 4)
    with pytest.raises(np.exceptions.AxisError,
                       match="^destination: axis 5 is out of bounds for array of dimension 2$"):
        cp.moveaxis(c, 0, 5)
    with pytest.raises(ValueError, match="^repeated axis in `source` argument$"):
        cp.moveaxis(c, [0, 0], [1, 0])
    with pytest.raises(ValueError, match="^`source` and `destination` arguments must have the same number of elements$"):
        cp.moveaxis(c, [0], [1, 0])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_squeeze_expand_dims(device, rng, layout):
    n, c = pair(rng, (1, 3, 1, 2), np.int16, layout)
    for n_out, c_out in [(n.squeeze(), c.squeeze()), (np.squeeze(n, 0), cp.squeeze(c, 0)),
                         (np.squeeze(n, (0, -2)), cp.squeeze(c, (0, -2))), (n.squeeze(axis=2), c.squeeze(axis=2)),
                         (np.expand_dims(n, 0), cp.expand_dims(c, 0)),
                         (np.expand_dims(n, (1, -1)), cp.expand_dims(c, (1, -1))),
                         (np.expand_dims(n, (0, 2, 6)), cp.expand_dims(c, (0, 2, 6)))]:
        check(c_out, n_out)
        check_view_semantics(c, n, c_out, n_out, rng)
    s = cp.asarray(np.float64(3.5))
    check(cp.expand_dims(s, 0), np.expand_dims(np.float64(3.5), 0))
    check(cp.squeeze(cp.zeros((1, 1))), np.squeeze(np.zeros((1, 1))))


def test_squeeze_expand_dims_errors(device):
    c = cp.zeros((2, 1))
    with pytest.raises(ValueError, match="^cannot select an axis to squeeze out which has size not equal to one$"):
        cp.squeeze(c, 0)
    with pytest.raises(np.exceptions.AxisError, match="^axis 3 is out of bounds for array of dimension 2$"):
        cp.squeeze(c, 3)
    with pytest.raises(np.exceptions.AxisError, match="^axis 5 is out of bounds for array of dimension 3$"):
        cp.expand_dims(c, 5)
    with pytest.raises(ValueError, match="^repeated axis$"):
        cp.expand_dims(c, (0, 0))
    for xp in (np, cp):
        with pytest.raises(ValueError, match="^duplicate value in 'axis'$"):
            xp.zeros((1, 2, 1), dtype=xp.float32).squeeze(axis=(2, 2))
        with pytest.raises(np.exceptions.AxisError):
            xp.squeeze(xp.zeros(()), axis=(0,))


@pytest.mark.parametrize("axis", [0, -1])
def test_squeeze_0d_int_axis(device, rng, axis):
    """NumPy lets an int axis 0 or -1 through for a 0-d array (squeezing nothing)."""
    n, c = pair(rng, (), np.float64)
    check(c.squeeze(axis=axis), n.squeeze(axis=axis))
    check(cp.squeeze(c, axis), np.squeeze(n, axis))


@pytest.mark.parametrize("shapes", [[], [()], [(), ()], [(0,), (1,)], [(2, 1, 3, 4), (3, 1, 4)],
                                    [(0, 1, 1, 0, 3), (5, 2, 0, 1, 0, 0, 3), (2, 1, 0, 0, 0, 3)]])
def test_broadcast_object(device, rng, shapes):
    ns = [np.zeros(s) for s in shapes]
    cs = [cp.zeros(s) for s in shapes]
    b, nb_ = cp.broadcast(*cs), np.broadcast(*ns)
    assert (b.shape, b.size, b.nd, b.ndim, b.numiter, b.index) == (nb_.shape, nb_.size, nb_.nd, nb_.ndim,
                                                                  nb_.numiter, nb_.index)
    assert cp.broadcast(*[s for s in ns]).shape == nb_.shape  # array-likes


def test_broadcast_object_errors(device):
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast to a single shape"):
        cp.broadcast(cp.zeros(2), cp.zeros(3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_views(device, rng, dtype):
    n, c = pair(rng, (3, 1), dtype, "strided")
    n_out, c_out = np.broadcast_to(n, (2, 3, 4)), cp.broadcast_to(c, (2, 3, 4))
    check(c_out, n_out)
    assert c_out.strides == n_out.strides and c_out.base is not None
    n2, c2 = pair(rng, (4,), dtype)
    for x, y in zip(cp.broadcast_arrays(c, c2), np.broadcast_arrays(n, n2)):
        check(x, y)
    assert cp.broadcast_shapes((2, 1), (3,), ()) == np.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert cp.broadcast_shapes(5, (1, 1)) == (1, 5)


def test_broadcast_errors(device):
    with pytest.raises(ValueError, match=r"^shape mismatch: objects cannot be broadcast to a single shape\.  "
                                         r"Mismatch is between arg 0 with shape \(2,\) and arg 1 with shape \(3,\)\.$"):
        cp.broadcast_shapes((2,), (3,))
    with pytest.raises(ValueError, match=r"Mismatch is between arg 1 with shape \(4,2\) and arg 2 with shape \(3,\)"):
        cp.broadcast_arrays(cp.zeros(1), cp.zeros((4, 2)), cp.zeros(3))
    with pytest.raises(ValueError, match=r"^operands could not be broadcast together with remapped shapes "):
        cp.broadcast_to(cp.zeros(3), (2,))
    with pytest.raises(ValueError, match="^input operand has more dimensions than allowed by the axis remapping$"):
        cp.broadcast_to(cp.zeros((2, 3)), (3,))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
def test_atleast_nd(device, rng, shape):
    n, c = pair(rng, shape, np.float32)
    for fn in ["atleast_1d", "atleast_2d", "atleast_3d"]:
        n_out, c_out = getattr(np, fn)(n), getattr(cp, fn)(c)
        check(c_out, n_out)
    pair_out = cp.atleast_2d(c, cp.zeros(2))
    assert isinstance(pair_out, tuple) and len(pair_out) == 2


@pytest.mark.parametrize("shape,new", [((2, 3), (3, 2)), ((2, 3), (3, -1)), ((2, 3), 6), ((6,), (1, 2, 1, 3)),
                                       ((0, 3), (3, 0)), ((), (1, 1))])
def test_shape_setter_in_place(device, rng, shape, new):
    """Setting .shape reshapes the array itself (same memory, base kept), as NumPy's does."""
    n, c = pair(rng, shape, np.float64)
    n.shape, c.shape = new, new
    check(c, n)
    assert c.strides == n.strides and c.base is None


def test_shape_setter_refuses_copy(device, rng):
    for xp in (np, cp):
        f = xp.asfortranarray(xp.zeros((2, 3)))
        with pytest.raises(AttributeError, match="Incompatible shape for in-place modification"):
            f.shape = (3, 2)
        a = xp.zeros(6)
        with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4,\)"):
            a.shape = (4,)
    n, c = pair(rng, (2, 3), np.int32)
    nv, cv = n.T, c.T
    nv.shape, cv.shape = (3, 1, 2), (3, 1, 2)  # a transposed view: inserting a unit axis needs no copy
    check(cv, nv)
    assert cv.base is c and cv.strides == nv.strides


def test_copy_flag_rejects_strings(device, rng):
    """copy='False' would read as True: NumPy 2.1 refuses strings for copy= (reshape, array)."""
    a = rng.standard_normal((2, 3, 4))
    for xp in (np, cp):
        x = xp.asarray(a)
        for call in (lambda: x.reshape(4, 3, 2, copy="False"), lambda: xp.reshape(x, (4, 6), copy=""),
                     lambda: xp.array(x, copy="False"), lambda: xp.asarray(x, copy="True")):
            with pytest.raises(ValueError, match="strings are not allowed for 'copy' keyword"):
                call()
