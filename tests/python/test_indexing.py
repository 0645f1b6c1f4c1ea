"""Basic indexing against NumPy: integers, slices (any step), newaxis, ellipsis give
views; assignment broadcasts and casts like NumPy's setitem. Advanced indexing is
not supported yet and says so."""
import contextlib
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import copper as cp
from conftest import ALL_DTYPES, DEVICES, random_array


@contextlib.contextmanager
def on_device(dev):
    previous = cp.get_default_device()
    cp.set_default_device(dev)
    try:
        yield
    finally:
        cp.set_default_device(previous)


def check(c, n):
    """Exact equality; NumPy's scalar results are compared as the 0-d views copper returns."""
    n = np.asarray(n)
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape
    assert c.dtype == n.dtype
    np.testing.assert_array_equal(c.get(), n)


KEYS = [
    0, -1, 2, (1, 2), (-2, -1, 0), slice(None), slice(1, 3), slice(None, None, -1), slice(3, 0, -2),
    slice(-100, 100), slice(100, -100, -1), slice(2, 2), (Ellipsis, 1), (1, Ellipsis), (Ellipsis,),
    (None,), (None, 1, None), (slice(None), None, slice(None, None, 2)), (Ellipsis, None),
    (0, Ellipsis, None, -1), (slice(None, None, -3), 1, slice(1, None)), (), (np.int64(1), np.int32(-1)),
    (slice(np.int64(1), None), slice(None, None, np.int8(-1))), Ellipsis, None,
]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_getitem_is_a_view(device, rng, dtype):
    n = random_array(rng, (4, 5, 6), dtype)
    c = cp.asarray(n)
    for key in KEYS:
        c_out = c[key]
        check(c_out, n[key])
        assert c_out.base is not None
        if isinstance(n[key], np.ndarray):
            assert c_out.strides == n[key].strides


def test_view_writes_reach_the_base(device, rng):
    n = random_array(rng, (4, 6), np.float32)
    c = cp.asarray(n)
    v_n, v_c = n[1:, ::-2], c[1:, ::-2]
    w_n, w_c = v_n[::2, None, 1], v_c[::2, None, 1]  # a view of a view
    values = random_array(rng, w_n.shape, np.float32)
    w_n[...] = values
    w_c[...] = cp.asarray(values)
    check(c, n)
    check(v_c, v_n)
    assert w_c.base is not None


def test_index_types(device, rng):
    n = random_array(rng, (5, 4), np.int16)
    c = cp.asarray(n)
    check(c[cp.asarray(np.int64(2))], n[2])             # 0-d integer copper array
    check(c[np.array(3), np.uint8(1)], n[np.array(3), np.uint8(1)])
    check(c[slice(None, np.int64(-1), None)], n[:-1])
    check(c[-5], n[-5])


@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2)])
def test_getitem_edge_shapes(device, rng, shape):
    n = np.asarray(random_array(rng, shape, np.float64))
    c = cp.asarray(n)
    reversed_all = tuple(slice(None, None, -1) for _ in shape)
    for key in [Ellipsis, (), None, (Ellipsis, None), reversed_all] + ([slice(1, None)] if shape else []):
        check(c[key], n[key])


def test_getitem_errors(device):
    c = cp.zeros((2, 3))
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 0 with size 2$"):
        c[5]
    with pytest.raises(IndexError, match="^index -4 is out of bounds for axis 1 with size 3$"):
        c[0, -4]
    with pytest.raises(IndexError, match=r"^too many indices for array: array is 2-dimensional, but 3 were indexed$"):
        c[0, 0, 0]
    with pytest.raises(IndexError, match=r"^too many indices for array: array is 0-dimensional, but 1 were indexed$"):
        cp.zeros(())[0]
    with pytest.raises(IndexError, match=r"^an index can only have a single ellipsis \('\.\.\.'\)$"):
        c[..., ...]
    with pytest.raises(ValueError, match="^slice step cannot be zero$"):
        c[::0]
    invalid = r"^only integers, slices \(`:`\), ellipsis \(`\.\.\.`\), numpy.newaxis \(`None`\) and integer or " \
              r"boolean arrays are valid indices$"
    for key in [1.0, "a", 2 ** 70, np.float64(1)]:
        with pytest.raises(IndexError, match=invalid):
            c[key]
    with pytest.raises(TypeError, match="^slice indices must be integers or None or have an __index__ method$"):
        c[0:2.0]
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        c[np.array([1.0])]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_setitem_values(device, rng, dtype):
    n = random_array(rng, (4, 5), dtype)
    c = cp.asarray(n)
    row = random_array(rng, (5,), dtype)
    cases = [
        (1, row), ((slice(None), 2), random_array(rng, (4,), dtype)), ((slice(None, None, -2), 1), n[0, :2].copy()),
        ((Ellipsis, None, slice(1, 3)), random_array(rng, (4, 1, 2), dtype)), ((0, 0), n[3, 4].copy()),
        ((slice(1, 3),), random_array(rng, (1, 1, 2, 5), dtype)),  # extra leading 1s are dropped like NumPy
    ]
    for key, value in cases:
        n[key] = value
        c[key] = cp.asarray(value)
        check(c, n)
    # NumPy arrays and lists as values (copied to the device, then cast 'unsafe').
    n[2] = np.arange(5)
    c[2] = np.arange(5)
    n[::3, 1:3] = [[1, 0], [0, 1]]
    c[::3, 1:3] = [[1, 0], [0, 1]]
    check(c, n)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float16, np.float32, np.complex64, np.bool_])
@pytest.mark.parametrize("value", [1, True, -2.75, 1.5e3, 2 + 3j, np.float32(7.5), np.int16(-3)])
def test_setitem_scalar_casts_like_numpy(device, dtype, value):
    n = np.zeros((3, 2), dtype)
    c = cp.zeros((3, 2), dtype=dtype)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's ComplexWarning; copper does not warn
            n[1:, 0] = value
    except Exception as e:  # copper raises what NumPy raises
        with pytest.raises(type(e)):
            c[1:, 0] = value
        return
    c[1:, 0] = value
    check(c, n)


def test_setitem_scalar_errors(device):
    c = cp.zeros(3, dtype=np.int8)
    with pytest.raises(OverflowError, match="^Python integer 300 out of bounds for int8$"):
        c[0] = 300
    with pytest.raises(OverflowError, match="^Python integer 300 out of bounds for int8$"):
        c[:] = 300
    with pytest.raises(OverflowError, match="^Python integer -1 out of bounds for uint8$"):
        cp.zeros(2, dtype=np.uint8)[1] = -1
    with pytest.raises(ValueError, match="^cannot convert float NaN to integer$"):
        c[0] = float("nan")
    with pytest.raises(OverflowError, match="^cannot convert float infinity to integer$"):
        c[1:] = float("inf")
    with pytest.raises(TypeError, match="not 'complex'$"):
        c[0] = 1j
    with pytest.raises(TypeError, match="^float\\(\\) argument must be a string or a real number, not 'complex'$"):
        cp.zeros(2)[0] = 1j
    with pytest.raises(ValueError, match=r"^could not broadcast input array from shape \(2,\) into shape \(3,\)$"):
        cp.zeros(3)[:] = cp.zeros(2)
    np.testing.assert_array_equal(c.get(), np.zeros(3, np.int8))  # untouched by every failed assignment


def test_setitem_overlapping(device, rng):
    n = random_array(rng, (10,), np.int32)
    c = cp.asarray(n)
    n[1:] = n[:-1]
    c[1:] = c[:-1]
    check(c, n)
    n[:-2] = n[2:]
    c[:-2] = c[2:]
    check(c, n)
    m = random_array(rng, (4, 4), np.float64)
    d = cp.asarray(m)
    m[...] = m.T
    d[...] = d.T
    check(d, m)
    m[::-1] = m[:]
    d[::-1] = d[:]
    check(d, m)


def test_iteration_and_fill(device, rng):
    n = random_array(rng, (3, 2), np.float32)
    c = cp.asarray(n)
    rows = list(c)
    assert len(rows) == 3
    for r_c, r_n in zip(rows, n):
        check(r_c, r_n)
    with pytest.raises(TypeError, match="^iteration over a 0-d array$"):
        iter(cp.zeros(()))
    c[1:].fill(2.5)
    n[1:].fill(2.5)
    check(c, n)
    with pytest.raises(OverflowError, match="^Python integer 300 out of bounds for int8$"):
        cp.zeros(2, dtype=np.int8).fill(300)


def slice_strategy(size):
    bound = st.one_of(st.none(), st.integers(-size - 2, size + 2))
    return st.builds(slice, bound, bound, st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))


@st.composite
def basic_index(draw, shape):
    """A random basic index: ints, slices, None and at most one Ellipsis, for `shape`."""
    items = []
    axis = 0
    used_ellipsis = False
    while True:
        choice = draw(st.sampled_from(["int", "slice", "slice", "none", "ellipsis", "stop"]))
        if choice == "stop":
            break
        if choice == "none":
            items.append(None)
        elif choice == "ellipsis":
            if used_ellipsis:
                continue
            used_ellipsis = True
            items.append(Ellipsis)
            axis = len(shape) - sum(1 for _ in items if _ is not None and _ is not Ellipsis) + axis
            axis = min(axis, len(shape))
        elif axis < len(shape):
            size = shape[axis]
            if choice == "int" and size > 0:
                items.append(draw(st.integers(-size, size - 1)))
            else:
                items.append(draw(slice_strategy(size)))
            axis += 1
        if len(items) > 6:
            break
    return tuple(items)


@pytest.mark.parametrize("dev", DEVICES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(data=st.data())
def test_slicing_hypothesis(dev, data):
    dtype = data.draw(st.sampled_from([np.int8, np.uint32, np.float64, np.complex64, np.bool_]))
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=0, max_size=4)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    n = np.asarray(random_array(rng, shape, dtype))
    with on_device(dev):
        c = cp.asarray(n)
        # A view of a negative-stride view, so offsets and strides compose.
        if shape and data.draw(st.booleans()):
            n, c = n[::-1], c[::-1]
        key = data.draw(basic_index(shape))
        try:
            expected = n[key]
        except IndexError:
            with pytest.raises(IndexError):
                c[key]
            return
        got = c[key]
        check(got, expected)
        # Assignment through the same index, of a broadcastable random value.
        target = np.asarray(expected)
        value_shape = target.shape[data.draw(st.integers(0, target.ndim)):]
        value = np.asarray(random_array(rng, value_shape, dtype))
        n[key] = value
        c[key] = cp.asarray(value)
        check(c, n)
