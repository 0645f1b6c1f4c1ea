"""Advanced indexing (integer and boolean arrays, lists, bools) for get and set, with
NumPy as the oracle: every dtype, both devices, strided sources, repeated indices,
empty results, NumPy's errors; and hypothesis with ndindex's index strategies."""
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import copper as cp
from conftest import ALL_DTYPES, DEVICES, assert_matches, random_array


def check(c, n):
    n = np.asarray(n)
    assert isinstance(c, cp.ndarray)
    assert c.shape == n.shape, (c.shape, n.shape)
    assert c.dtype == n.dtype
    np.testing.assert_array_equal(c.get(), n)


def to_copper(key, device=None):
    """The same index with NumPy arrays made copper arrays (lists stay lists), on `device`
    (None: the default device)."""
    if isinstance(key, tuple):
        return tuple(to_copper(k, device) for k in key)
    if isinstance(key, np.ndarray):
        return cp.asarray(key, device=device)
    return key


KEYS = [
    [0, 2, 1],
    [[0, 1], [2, 2]],
    np.array([-1, 0, -3]),
    (slice(None), [1, 0, 1]),
    ([0, 2], [1, 3]),
    ([0, 2], slice(1, 3), [1, 3]),            # separated: the broadcast axis goes first
    (slice(None), [0, 1], [1, 2]),            # adjacent: it stays in place
    (1, slice(None), [0, 2]),                 # an integer counts as advanced: separated
    (slice(None), 1, [0, 2]),                 # adjacent
    (Ellipsis, [0, 3]),
    ([[0], [2]], None, [1, 2, 3]),
    (None, [1], slice(None), Ellipsis),
    np.array([True, False, True]),
    (slice(None), np.array([True, False, True, True])),
    np.ones((3, 4), bool),
    np.zeros((3, 4), bool),
    (np.array([True, False, True]), [0, 3]),
    True,
    False,
    (Ellipsis, True),
    (0, True, [1, 2]),
    [],
    (slice(None), []),
    ([True, False, False],),
    (np.array([[True, False], [False, True], [True, True]]).reshape(3, 2)[:, :1].repeat(4, 1),),
    np.array([1, 2], dtype=np.uint8),
    np.array([[0, 1]], dtype=np.int32),
]


@pytest.mark.parametrize("key", KEYS, ids=lambda k: repr(k)[:40])
def test_getitem_keys(device, rng, key):
    n = random_array(rng, (3, 4, 5), np.float32)
    c = cp.asarray(n)
    check(c[to_copper(key)], n[key])
    check(c[key], n[key])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_getitem_every_dtype(device, rng, dtype):
    n = random_array(rng, (6, 7), dtype)
    c = cp.asarray(n)
    idx = rng.integers(-6, 6, size=(4, 3))
    check(c[idx], n[idx])
    check(c[cp.asarray(idx)], n[idx])
    mask = rng.random((6, 7)) < 0.5
    check(c[mask], n[mask])
    check(c[cp.asarray(mask)], n[mask])
    check(c[:, [6, 0, 3]], n[:, [6, 0, 3]])
    check(c[mask[:, 0]], n[mask[:, 0]])


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex128, np.bool_])
def test_getitem_strided_sources(device, rng, dtype):
    n = random_array(rng, (8, 10, 6), dtype)
    c = cp.asarray(n)
    views = [lambda a: a[::-1], lambda a: a[:, ::-2], lambda a: a.transpose(2, 0, 1), lambda a: a[1::2, :, ::-1]]
    for view in views:
        nv, cv = view(n), view(c)
        idx = rng.integers(-nv.shape[0], nv.shape[0], size=5)
        check(cv[idx], nv[idx])
        check(cv[:, idx % nv.shape[1]], nv[:, idx % nv.shape[1]])
        mask = rng.random(nv.shape) < 0.3
        check(cv[cp.asarray(mask)], nv[mask])
        check(cv[mask[:, 0, 0]], nv[mask[:, 0, 0]])
        check(cv[idx, :, idx % nv.shape[2]], nv[idx, :, idx % nv.shape[2]])


def test_getitem_index_arrays_strided_and_broadcast(device, rng):
    n = random_array(rng, (9, 8), np.int64)
    c = cp.asarray(n)
    rows = rng.integers(0, 9, size=(6, 4))
    cols = rng.integers(0, 8, size=(1, 4))
    check(c[cp.asarray(rows)[::-2], cp.asarray(cols)], n[rows[::-2], cols])
    check(c[cp.asarray(rows).T, 3], n[rows.T, 3])


def test_getitem_empty(device, rng):
    n = random_array(rng, (4, 0, 3), np.float64)
    c = cp.asarray(n)
    check(c[[0, 3]], n[[0, 3]])
    check(c[:, []], n[:, []])
    check(c[np.zeros((4, 0), bool)], n[np.zeros((4, 0), bool)])
    m = random_array(rng, (5, 3), np.float64)
    check(cp.asarray(m)[np.zeros(5, bool)], m[np.zeros(5, bool)])
    check(cp.asarray(m)[[]], m[[]])
    check(cp.asarray(m)[np.zeros((0, 2), np.int64)], m[np.zeros((0, 2), np.int64)])


def test_getitem_zero_d(device, rng):
    n = np.array(3.5)
    c = cp.asarray(n)
    check(c[True], n[True])
    check(c[False], n[False])
    check(c[np.array(True)], n[np.array(True)])
    check(c[None, True], n[None, True])


def test_getitem_errors(device):
    c = cp.zeros((3, 4, 5))
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 1 with size 4$"):
        c[:, [5]].get()
    with pytest.raises(IndexError, match="^index -4 is out of bounds for axis 0 with size 3$"):
        c[[0, -4]].get()
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 2 with size 5$"):
        c[1, :, cp.asarray(np.array([7]))].get()
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        c[[1.0]]
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        c[cp.asarray(np.array([1.5]))]
    with pytest.raises(IndexError, match="^boolean index did not match indexed array along axis 0; size of axis is 3 "
                                         "but size of corresponding boolean axis is 2$"):
        c[np.ones(2, bool)]
    with pytest.raises(IndexError, match="^boolean index did not match indexed array along axis 2; size of axis is 5 "
                                         "but size of corresponding boolean axis is 6$"):
        c[:, np.ones((4, 6), bool)]
    with pytest.raises(IndexError, match=r"^shape mismatch: indexing arrays could not be broadcast together with "
                                         r"shapes \(2,\) \(3,\) $"):
        c[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="^too many indices for array: array is 3-dimensional, but 4 were indexed$"):
        c[[0], [0], [0], [0]]
    with pytest.raises(IndexError, match="^only integers, slices"):
        c[[0, slice(None)]]


def test_error_leaves_device_usable(device):
    c = cp.arange(10)
    with pytest.raises(IndexError):
        c[[3, 12]].get()
    check(c[[3, 9]], np.array([3, 9]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_setitem_every_dtype(device, rng, dtype):
    n = random_array(rng, (6, 7), dtype)
    c = cp.asarray(n)
    idx = np.array([5, 0, -1, 2])
    v = random_array(rng, (4, 7), dtype)
    n[idx] = v
    c[idx] = cp.asarray(v)
    check(c, n)
    mask = rng.random((6, 7)) < 0.5
    v = random_array(rng, (int(mask.sum()),), dtype)
    n[mask] = v
    c[cp.asarray(mask)] = cp.asarray(v)
    check(c, n)
    n[mask[:, 1]] = n[0]
    c[mask[:, 1]] = c[0]
    check(c, n)
    s = random_array(rng, (), dtype)[()]
    n[:, [1, 3]] = s
    c[:, [1, 3]] = s
    check(c, n)


KEYS_SET = [
    [0, 2, 1],
    (slice(None), [1, 0, 3]),
    ([0, 2], slice(1, 3), [1, 3]),
    (1, slice(None), [0, 2]),
    np.array([True, False, True]),
    (slice(None), np.array([True, False, True, True])),
    np.ones((3, 4), bool),
    np.ones((3, 4, 5), bool),
    (np.array([True, False, True]), [0, 3]),
    True,
    (Ellipsis, [0, 4]),
    [],
]


@pytest.mark.parametrize("key", KEYS_SET, ids=lambda k: repr(k)[:40])
def test_setitem_keys(device, rng, key):
    n = random_array(rng, (3, 4, 5), np.float64)
    c = cp.asarray(n)
    shape = n[key].shape
    for value_shape in [(), shape, shape[1:], (1,) + shape]:
        v = random_array(rng, value_shape, np.float64)
        try:
            n[key] = v
        except (TypeError, ValueError) as e:  # NumPy's own rules (a full mask takes 0-d or 1-d values)
            with pytest.raises(type(e), match="^" + str(e).replace("(", r"\(").replace(")", r"\)") + "$"):
                c[to_copper(key)] = cp.asarray(v)
            continue
        c[to_copper(key)] = cp.asarray(v)
        check(c, n)
    n[key] = 2.5
    c[key] = 2.5
    check(c, n)


def test_setitem_repeated_indices_last_wins(device, rng):
    n = np.zeros(10, np.int64)
    c = cp.asarray(n)
    idx = np.array([1, 1, 1, 3, 3, 9, 1])
    v = np.arange(7) + 10
    n[idx] = v
    c[idx] = cp.asarray(v)
    check(c, n)
    # Many repeats over a small target, and a large target space (hash table on a GPU).
    for size in [5, 100000]:
        n = np.zeros((size, 2), np.float32)
        c = cp.asarray(n)
        idx = rng.integers(0, min(size, 50), size=20000)
        v = rng.random((20000, 2)).astype(np.float32)
        n[idx] = v
        c[cp.asarray(idx)] = cp.asarray(v)
        check(c, n)
    # Repeats across two index arrays.
    n = np.zeros((4, 4))
    c = cp.asarray(n)
    i, j = np.array([0, 1, 0, 3, 0]), np.array([2, 2, 2, 1, 2])
    n[i, j] = np.arange(5.0)
    c[i, j] = cp.arange(5.0)
    check(c, n)


def test_setitem_casts_and_overlaps(device, rng):
    n = np.arange(10, dtype=np.int32)
    c = cp.asarray(n)
    n[[1, 2]] = np.array([1.7, -2.2])
    c[[1, 2]] = cp.asarray(np.array([1.7, -2.2]))
    check(c, n)
    n[[0, 1, 2]] = n[2::-1]  # the value is a view of the target: read before written
    c[[0, 1, 2]] = c[2::-1]
    check(c, n)
    n[n > 4] = n[:5]
    c[c > 4] = c[:5]
    check(c, n)
    with pytest.raises(OverflowError):
        c8 = cp.zeros(3, dtype=cp.int8)
        c8[[0]] = 300


def test_setitem_strided_target(device, rng):
    n = random_array(rng, (8, 6), np.float64)
    c = cp.asarray(n)
    nv, cv = n[::-2, 1:], c[::-2, 1:]
    nv[[0, 2]] = 7.0
    cv[[0, 2]] = 7.0
    check(c, n)
    mask = rng.random(nv.shape) < 0.5
    nv[mask] = -1.0
    cv[mask] = -1.0
    check(c, n)
    v = random_array(rng, (int(mask.sum()),), np.float64)
    nv[mask] = v
    cv[cp.asarray(mask)] = cp.asarray(v)
    check(c, n)


def test_augmented_assignment(device, rng):
    n = random_array(rng, (4, 5, 6), np.float64)
    c = cp.asarray(n)
    i, j = [0, 2, 3], [1, 5, 0]
    n[i, :, j] += 3
    c[i, :, j] += 3
    check(c, n)
    n[n > 0] *= 2
    c[c > 0] *= 2
    check(c, n)


def test_setitem_errors(device):
    c = cp.zeros((5, 3))
    with pytest.raises(ValueError, match=r"^shape mismatch: value array of shape \(3,3\) could not be broadcast to "
                                         r"indexing result of shape \(2,3\)$"):
        c[np.array([1, 0, 1, 0, 0], bool)] = cp.ones((3, 3))
    with pytest.raises(ValueError, match=r"^shape mismatch: value array of shape \(2,2,3\) could not be broadcast to "
                                         r"indexing result of shape \(2,3\)$"):
        c[[0, 1]] = cp.ones((2, 2, 3))
    with pytest.raises(ValueError, match="^NumPy boolean array indexing assignment cannot assign 4 input values to "
                                         "the 15 output values where the mask is true$"):
        c[np.ones((5, 3), bool)] = cp.ones(4)
    with pytest.raises(TypeError, match="^NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                                        "input, input has 2 dimensions$"):
        c[np.ones((5, 3), bool)] = cp.ones((1, 15))


def test_out_of_bounds_assignment_writes_nothing(device):
    c = cp.arange(10)
    with pytest.raises(IndexError, match="^index 10 is out of bounds for axis 0 with size 10$"):
        c[[1, 2, 10, 3]] = cp.asarray(np.array([-1, -2, -3, -4]))
        c.get()
    check(c, np.arange(10))
    with pytest.raises(IndexError, match="^index -11 is out of bounds for axis 0 with size 10$"):
        c[[-11]] = 5
        c.get()
    check(c, np.arange(10))


# ---- hypothesis: index expressions from ndindex, valid and invalid ----

try:
    from ndindex.tests.helpers import ndindices, short_shapes
except ImportError:  # pragma: no cover
    ndindices = short_shapes = None


def _outcome(fn):
    try:
        return fn(), None
    except (IndexError, ValueError, TypeError) as e:
        return None, type(e)


@pytest.mark.skipif(ndindices is None, reason="ndindex not installed")
@pytest.mark.parametrize("dev", DEVICES)
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(shape=short_shapes if short_shapes is not None else st.just(()),
       idx=ndindices if ndindices is not None else st.just(()), data=st.data())
def test_index_hypothesis(dev, shape, idx, data):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
        expected, error = _outcome(lambda: n[idx])
    c = cp.asarray(n, device=dev)
    if error is not None:
        with pytest.raises(error):
            c[to_copper(idx, dev)].get()
        return
    got = c[to_copper(idx, dev)]
    check(got, expected)
    # Assignment through the same index: a broadcastable value, or a scalar.
    value_shape = np.shape(expected)[data.draw(st.integers(0, np.ndim(expected)), label="value dims"):]
    value = (np.arange(int(np.prod(value_shape)), dtype=np.int32).reshape(value_shape) + 1000) * -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, set_error = _outcome(lambda: n.__setitem__(idx, value))
    if set_error is not None:
        with pytest.raises(set_error):
            c[to_copper(idx, dev)] = cp.asarray(value, device=dev)
            c.get()
        return
    c[to_copper(idx, dev)] = cp.asarray(value, device=dev)
    check(c, n)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.int32, np.float32, np.float64])
def test_setitem_many_repeats_small_elements(device, rng, dtype):
    """Repeated random targets over a large array (the GPU packs the last writer and its
    value into one word for elements of up to 4 bytes): the last write in C order wins,
    through one and two index arrays, on a strided target, and nothing is written when an
    index is out of bounds."""
    n = 30000
    base = random_array(rng, (n,), dtype)
    idx = rng.integers(-n, n, n)
    vals = random_array(rng, (n,), dtype)
    want = base.copy()
    want[idx] = vals
    c = cp.asarray(base)
    c[cp.asarray(idx)] = cp.asarray(vals)
    check(c, want)
    # A strided target and two index arrays.
    base2 = random_array(rng, (60, 1000), dtype)
    i, j = rng.integers(0, 30, 5000), rng.integers(-1000, 1000, 5000)
    v2 = random_array(rng, (5000,), dtype)
    want2 = base2.copy()
    want2[::2][i, j] = v2
    c2 = cp.asarray(base2)
    c2[::2][cp.asarray(i), cp.asarray(j)] = cp.asarray(v2)
    check(c2, want2)
    # Out of bounds: IndexError (a GPU's at the next synchronization) and nothing written.
    c3 = cp.asarray(base)
    bad = idx.copy()
    bad[n // 2] = n
    with pytest.raises(IndexError, match=f"index {n} is out of bounds for axis 0 with size {n}"):
        c3[cp.asarray(bad)] = cp.asarray(vals)
        c3.get()
    check(c3, base)
    # put with mode='wrap': repeats after wrapping.
    c4 = cp.asarray(base)
    w = rng.integers(-3 * n, 3 * n, n)
    want4 = base.copy()
    np.put(want4, w, vals, mode="wrap")
    cp.put(c4, cp.asarray(w), cp.asarray(vals), mode="wrap")
    check(c4, want4)


@pytest.mark.parametrize("bad", [7, -8])
def test_put_raises_its_own_index_error(device, bad):
    # put's raise mode raises at the call on every device, NumPy's message; on a GPU the
    # error must not wait for a later, unrelated synchronization (CuPy's put raises too).
    a = np.arange(7.0)
    x = cp.asarray(a, device=device)
    with pytest.raises(IndexError, match=f"^index {bad} is out of bounds for axis 0 with size 7$"):
        cp.put(x, cp.asarray([2, bad, 3], device=device), cp.asarray([9.0, 8.0, 7.0], device=device))
    y = cp.asarray(np.ones(1), device=device)
    np.testing.assert_array_equal((y + 1).get(), [2.0])  # nothing left for the next reader
    x.put([1, -1], [5.0, 6.0])
    np.testing.assert_array_equal(x[[1, 6]].get(), [5.0, 6.0])


@pytest.mark.parametrize("index", [[0], [3, 0], np.array([-1]), (slice(None), [1])])
def test_indices_into_an_empty_axis_raise_at_the_call(device, index):
    # Every index into an axis of length 0 is out of bounds: NumPy's IndexError (its first
    # index in the message) at the get or set itself, on every device, with nothing left
    # for a later synchronization to raise.
    shape = (0,) if not isinstance(index, tuple) else (2, 0)
    a = np.zeros(shape)
    x = cp.asarray(a, device=device)
    with pytest.raises(IndexError) as want:
        a[index]
    with pytest.raises(IndexError, match="^" + re.escape(str(want.value)) + "$"):
        x[index]
    with pytest.raises(IndexError, match="^" + re.escape(str(want.value)) + "$"):
        x[index] = 1.0
    y = cp.asarray(np.ones(1), device=device)
    np.testing.assert_array_equal((y + 1).get(), [2.0])
