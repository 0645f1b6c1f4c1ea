"""NumPy's small utilities on copper arrays (issue 14), NumPy as the oracle: dtype and shape
queries, shares_memory / may_share_memory, number formatting, einsum_path."""
import itertools

import numpy as np
import pytest

import copper as cp
from conftest import random_array


def test_dtype_queries_match_numpy():
    for a, b in itertools.product([np.float32, np.int8, np.complex64, np.bool_], [np.floating, np.integer, np.number,
                                                                                   np.float32, np.generic]):
        assert cp.issubdtype(a, b) == np.issubdtype(a, b)
    for value in [0, 255, 256, -1, 3.5, 1e40, 1j, np.float64(2.0), True]:
        assert cp.min_scalar_type(value) == np.min_scalar_type(value)
    assert cp.mintypecode(["d", "f"]) == np.mintypecode(["d", "f"])
    assert cp.typename("d") == np.typename("d")
    assert cp.base_repr(255, 16, padding=2) == np.base_repr(255, 16, padding=2)
    assert cp.binary_repr(-5, width=8) == np.binary_repr(-5, width=8)
    assert cp.format_float_positional(np.float32(0.1)) == np.format_float_positional(np.float32(0.1))
    assert cp.format_float_scientific(1.5e-7, precision=3) == np.format_float_scientific(1.5e-7, precision=3)
    assert cp.iterable([1]) and not cp.iterable(3)
    old = cp.getbufsize()
    assert cp.setbufsize(old) == np.getbufsize()


def test_min_scalar_type_of_arrays(device):
    assert cp.min_scalar_type(cp.arange(3, dtype=cp.int64)) == np.dtype(np.int64)
    assert cp.min_scalar_type(cp.asarray(300)) == np.min_scalar_type(np.asarray(300))


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3, 4)])
def test_shape_queries(device, shape):
    rng = np.random.default_rng(1)
    h = random_array(rng, shape, np.float32)
    a = cp.asarray(h)
    assert cp.ndim(a) == np.ndim(h) and cp.shape(a) == np.shape(h) and cp.size(a) == np.size(h)
    for axis in range(-len(shape), len(shape)):
        assert cp.size(a, axis) == np.size(h, axis)
    if len(shape) >= 2:
        assert cp.size(a, (0, -1)) == shape[0] * shape[-1]
    with pytest.raises(np.exceptions.AxisError):
        cp.size(a, len(shape))
    assert not cp.isscalar(a) and cp.isscalar(3.0) and not cp.isscalar([3])
    assert cp.ndim([[1, 2]]) == 2 and cp.shape([[1, 2]]) == (1, 2) and cp.size([[1, 2]]) == 2


def test_isfortran(device):
    h = np.arange(24.0).reshape(4, 6)
    a = cp.asarray(h)
    for f in [lambda x: x, lambda x: x.T, lambda x: x[::2], lambda x: x[0], lambda x: x[:1].T, lambda x: x.T[:, :2]]:
        assert cp.isfortran(f(a)) == np.isfortran(f(h))
    assert cp.isfortran(cp.asfortranarray(a)) and not cp.isfortran(cp.ascontiguousarray(a.T))


# Views of one base: the same index expressions on a NumPy and a copper array of equal
# shape, dtype and layout, so their byte offsets and strides agree.
VIEWS = [
    lambda x: x, lambda x: x[::2], lambda x: x[1::2], lambda x: x[::-1], lambda x: x[3:9], lambda x: x[8:],
    lambda x: x[:12].reshape(3, 4)[:, ::2], lambda x: x[:12].reshape(3, 4)[:, 1::2], lambda x: x[:12].reshape(3, 4).T,
    lambda x: x[:12].reshape(3, 4)[1], lambda x: x[:12].reshape(3, 4)[:, 1], lambda x: x[:0], lambda x: x[5],
    lambda x: x[::3], lambda x: x[1::3], lambda x: x[:18].reshape(3, 6)[:, ::3], lambda x: x[2:20].reshape(3, 6)[::2, 1::4],
]


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.complex128])
def test_shares_memory_matches_numpy(device, dtype):
    h = np.arange(24).astype(dtype)
    a = cp.asarray(h)
    for f, g in itertools.product(VIEWS, VIEWS):
        hv, hw, av, aw = f(h), g(h), f(a), g(a)
        hv, hw = np.asarray(hv), np.asarray(hw)
        if hv.ndim == 0 or hw.ndim == 0:  # integer indexing gives scalars in NumPy, 0-d views in copper
            continue
        assert cp.shares_memory(av, aw) == np.shares_memory(hv, hw)
        assert cp.shares_memory(av, aw, max_work=-1) == np.shares_memory(hv, hw, max_work=-1)
        assert cp.may_share_memory(av, aw) == np.may_share_memory(hv, hw)
        assert outcome(cp.shares_memory, av, aw, max_work=0) == outcome(np.shares_memory, hv, hw, max_work=0)
        assert cp.may_share_memory(av, aw, max_work=-1) == np.may_share_memory(hv, hw, max_work=-1)


def outcome(fn, *args, **kwargs):
    """fn's result, or the name of the exception it raised."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 (compared by type name)
        return type(e).__name__


def test_shares_memory_separate_buffers_and_numpy(device):
    a, b = cp.arange(6), cp.arange(6)
    assert not cp.shares_memory(a, b) and not cp.may_share_memory(a, b)
    assert cp.shares_memory(a, a[2:4].reshape(2, 1))
    assert not cp.shares_memory(a, a.get())  # a copper and a NumPy array never share
    h = np.arange(4)
    assert cp.shares_memory(h, h[1:]) and not cp.may_share_memory(h[:2], h[2:])
    with pytest.raises(ValueError):
        cp.shares_memory(a, a, max_work=-2)


def test_shares_memory_max_work(device):
    # Interleaved 2-D views whose bounds overlap but whose elements never meet: the exact
    # search needs more than one step, so a tiny max_work gives up as NumPy's does.
    base = cp.zeros(10000, dtype=cp.int8)
    x = base[: 100 * 97].reshape(100, 97)[:, ::2]
    y = base[1: 1 + 100 * 97].reshape(100, 97)[:, ::2]
    hb = np.zeros(10000, dtype=np.int8)
    hx = hb[: 100 * 97].reshape(100, 97)[:, ::2]
    hy = hb[1: 1 + 100 * 97].reshape(100, 97)[:, ::2]
    assert cp.shares_memory(x, y) == np.shares_memory(hx, hy)
    with pytest.raises(np.exceptions.TooHardError):
        cp.shares_memory(x, y, max_work=1)


def test_asarray_chkfinite(device):
    a = cp.asarray_chkfinite([1.0, 2.0], dtype=np.float32)
    assert a.dtype == np.float32 and a.device == cp.get_default_device()
    assert cp.asarray_chkfinite([1, 2]).dtype == np.asarray_chkfinite([1, 2]).dtype
    for bad in [[1.0, np.nan], [np.inf], [1 + 1j * np.inf]]:
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            cp.asarray_chkfinite(bad)
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            cp.asarray_chkfinite(cp.asarray(bad))


def test_einsum_path(device):
    rng = np.random.default_rng(2)
    hs = [random_array(rng, s, np.float64) for s in [(4, 5), (5, 6), (6, 3)]]
    expected = np.einsum_path("ij,jk,kl->il", *hs, optimize="greedy")
    assert cp.einsum_path("ij,jk,kl->il", *[cp.asarray(h) for h in hs], optimize="greedy") == expected


def test_info_prints(capsys):
    cp.info(cp.shares_memory)
    assert "shares_memory" in capsys.readouterr().out


def test_random_bit_generator_shares_the_module_stream(device):
    cp.random.seed(5)
    bg = cp.random.get_bit_generator()
    first = cp.random.random_sample(4).get()
    cp.random.seed(5)
    bg2 = cp.random.get_bit_generator()
    bg2.random_raw(1)  # advances the module functions' stream too
    second = cp.random.random_sample(4).get()
    assert not np.array_equal(first, second)
    own = cp.random.Philox4x3210(123)
    cp.random.set_bit_generator(own)
    x = cp.random.random_sample(3).get()
    cp.random.set_bit_generator(cp.random.Philox4x3210(123))
    assert np.array_equal(x, cp.random.random_sample(3).get())
    with pytest.raises(TypeError):
        cp.random.set_bit_generator(3)
    del bg
