"""copper.fuse (CuPy's explicit fusion decorator) against the unfused function, with NumPy
as the oracle. Every test runs on each device; on the CPU both ways a fused function can
run there: the generated kernel compiled by the host compiler ('compile') and the graph
evaluated block by block by copper's eager operations ('blocks')."""
import numpy as np
import pytest

import copper as cp
from copper import _fuse, _fusion_eval
from conftest import random_array


@pytest.fixture(params=["compile", "blocks"])
def mode(request, device, monkeypatch):
    """How fused functions run on the CPU (the GPU always compiles)."""
    if request.param == "blocks" and device != "cpu":
        pytest.skip("the GPU always runs the generated kernel")
    monkeypatch.setattr(_fuse, "compile_on_cpu", request.param == "compile")
    return request.param


def _compile_sample(mode, device, keep):
    """The host compiler takes about a second per kernel: on the CPU, compile mode covers
    only a representative part of the big grids (the GPU and the blocks mode cover all)."""
    if mode == "compile" and device == "cpu" and not keep:
        pytest.skip("compile mode on the CPU samples this grid")


def _check(actual, expected, rtol=1e-6):
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    a = actual.get() if isinstance(actual, cp.ndarray) else np.asarray(actual)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(a, expected, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(a, expected)


def test_decorator_forms():
    @cp.fuse
    def f(x):
        """doc of f"""
        return x + x

    @cp.fuse()
    def g(x):
        return x * 2

    @cp.fuse(kernel_name="named")
    def h(x):
        return x - 1

    assert f.__name__ == "f" and f.__doc__ == "doc of f" and g.__name__ == "g" and h.name == "named"
    x = cp.arange(6, dtype=np.float32)
    _check(f(x), np.arange(6, dtype=np.float32) * 2)
    _check(g(x), np.arange(6, dtype=np.float32) * 2)
    _check(h(x), np.arange(6, dtype=np.float32) - 1)
    with pytest.raises(TypeError):
        cp.fuse(unknown=1)


def _binary_ops():
    return [lambda x, y: x + y, lambda x, y: x - y * 2, lambda x, y: (x * y) / 3, lambda x, y: x < y,
            lambda x, y: cp.maximum(x, y) + cp.sqrt(cp.absolute(y))]


@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.int8, np.int64), (np.uint8, np.float16),
                                    (np.int32, np.complex64), (np.float64, np.bool_), (np.uint64, np.int8)])
@pytest.mark.parametrize("op", range(5))
def test_elementwise_matches_eager(mode, device, dtypes, op):
    _compile_sample(mode, device, op in (0, 4))
    rng = np.random.default_rng(op)
    fn = _binary_ops()[op]
    nx, ny = random_array(rng, (3, 4), dtypes[0]), random_array(rng, (4,), dtypes[1])
    x, y = cp.asarray(nx), cp.asarray(ny)
    try:
        expected = fn(x, y)
    except Exception as e:  # the fused function raises what eager raises
        with pytest.raises(type(e)):
            cp.fuse(fn)(x, y)
        return
    fused = cp.fuse(fn)
    got = fused(x, y)
    _check(got, expected.get(), rtol=1e-3 if np.float16 in dtypes else 1e-6)
    # NumPy compares uint64 with signed ints in a mixed loop, which copper runs unfused.
    mixed = op == 3 and dtypes == (np.uint64, np.int8)
    assert fused.plan_kind(x, y) == ("eager" if mixed else "elementwise")


@pytest.mark.parametrize("scalar", [3, 2.5, np.float32(1.5), np.int16(7), True, 1 + 2j])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float16, np.uint32])
def test_scalars_keep_nep50(mode, device, scalar, dtype):
    _compile_sample(mode, device, dtype == np.float16)
    x = cp.asarray(random_array(np.random.default_rng(1), (5,), dtype, 1, 50))
    for fn in (lambda a, s: a * s + 1, lambda a, s: s - a, lambda a, s: a >= s):
        expected = fn(x, scalar)
        got = cp.fuse(fn)(x, scalar)
        _check(got, expected.get(), rtol=1e-3)


def test_weak_int_out_of_range_raises_as_eager(mode):
    @cp.fuse
    def f(x, s):
        return x + s

    x = cp.arange(4, dtype=np.int8)
    _check(f(x, 3), np.arange(4, dtype=np.int8) + 3)
    with pytest.raises(OverflowError):
        f(x, 300)


def test_inplace_chain_writes_back(mode):
    @cp.fuse()
    def chain(x):
        x *= 5
        x *= x
        x += x

    n = random_array(np.random.default_rng(2), (1000,), np.float32, -3, 3)
    x = cp.asarray(n)
    assert chain(x) is None
    e = n.copy()
    e *= 5
    e *= e
    e += e
    _check(x, e)


def test_inplace_params_and_out(mode):
    @cp.fuse
    def f(x, y, z, u):
        cp.add(x, y, out=z)
        cp.subtract(z, x, out=u)
        x += 2
        return u, z * 2

    rng = np.random.default_rng(3)
    nx, ny, nz, nu = (random_array(rng, (3, 4), np.int32) for _ in range(4))
    x, y, z, u = map(cp.asarray, (nx, ny, nz, nu))
    ru, rz = f(x, y, z, u)
    nz = nx + ny
    nu = nz - nx
    nx = nx + 2
    assert ru is u
    _check(u, nu)
    _check(z, nz)
    _check(rz, nz * 2)
    _check(x, nx)


def test_int_inplace_true_divide_raises():
    @cp.fuse
    def f(x, y):
        x /= y

    x = cp.arange(1, 5, dtype=np.int32)
    with pytest.raises(TypeError):
        f(x, x)


@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min", "all", "any"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (-1, True), ((0, 2), False)])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_reductions_with_premap(mode, device, kind, axis, keepdims, dtype):
    _compile_sample(mode, device, keepdims or dtype == np.float32)
    rng = np.random.default_rng(4)
    n = random_array(rng, (3, 5, 4), dtype, -3, 3)
    x = cp.asarray(n)

    def fn(a):
        return getattr(cp, kind)(a * 2 - 1, axis=axis, keepdims=keepdims)

    fused = cp.fuse(fn)
    _check(fused(x), fn(x).get(), rtol=1e-5)
    assert fused.plan_kind(x) == "reduction"


def test_norm_of_rows_is_one_reduction(mode):
    @cp.fuse
    def norm(x):
        return cp.sqrt(cp.sum(x ** 2, axis=-1))

    n = random_array(np.random.default_rng(5), (7, 6, 5), np.float64)
    x = cp.asarray(n)
    _check(norm(x), np.sqrt(np.sum(n ** 2, axis=-1)), rtol=1e-12)
    assert norm.plan_kind(x) == "reduction"


def test_reduction_postmap_with_scalar_argument_and_methods(mode):
    @cp.fuse
    def f(x, s):
        return (x + s).sum(axis=0, dtype=np.float64) / s

    n = random_array(np.random.default_rng(6), (4, 3), np.int16)
    x = cp.asarray(n)
    _check(f(x, 3), (n + 3).sum(axis=0, dtype=np.float64) / 3)
    _check(f(x, 5.5), (n + 5.5).sum(axis=0, dtype=np.float64) / 5.5)


def test_nan_reductions_and_empty_axis(mode):
    n = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 3.0]])
    x = cp.asarray(n)
    _check(cp.fuse(lambda a: cp.nansum(a * 2, axis=1))(x), np.nansum(n * 2, axis=1))
    _check(cp.fuse(lambda a: cp.nanprod(a, axis=0))(x), np.nanprod(n, axis=0))
    e = cp.zeros((2, 0, 3), dtype=np.int64)
    _check(cp.fuse(lambda a: cp.sum(a, axis=1))(e), np.zeros((2, 3), dtype=np.int64))


def test_where_astype_copy_clip_and_indexing(mode):
    rng = np.random.default_rng(7)
    np_points = random_array(rng, (16, 2), np.float32)
    np_mask = rng.random(16) > 0.5
    points, mask = cp.asarray(np_points), cp.asarray(np_mask)
    got = cp.fuse(lambda p, m: cp.where(m[:, None], cp.inf, p))(points, mask)
    _check(got, np.where(np_mask[:, None], np.inf, np_points))
    got = cp.fuse(lambda p: p.astype(np.int16) + p[::-1].copy())(points)
    _check(got, np_points.astype(np.int16) + np_points[::-1])
    got = cp.fuse(lambda p: cp.clip(p * 3, -10, 20.5))(points)
    _check(got, np.clip(np_points * 3, -10, 20.5))
    got = cp.fuse(lambda p: p + p[0] + p[1, 1])(points)
    _check(got, np_points + np_points[0] + np_points[1, 1])


def test_setitem_full_and_returns(mode):
    @cp.fuse
    def f(x, y):
        y[...] = x
        x[:] = cp.nan
        return y, x, (x,), None

    nx = random_array(np.random.default_rng(8), (3, 4), np.float64)
    x, y = cp.asarray(nx), cp.zeros((3, 4), dtype=np.float32)
    ry, rx, (rx2,), none = f(x, y)
    assert ry is y and rx is x and rx2 is x and none is None
    _check(y, nx.astype(np.float32))
    assert np.isnan(x.get()).all()


def test_float16_and_complex_kernels(mode):
    rng = np.random.default_rng(9)
    nh, nc = random_array(rng, (50,), np.float16, -4, 4), random_array(rng, (50,), np.complex128, -4, 4)
    h, c = cp.asarray(nh), cp.asarray(nc)
    _check(cp.fuse(lambda a: a * a - 1.5)(h), nh * nh - np.float16(1.5), rtol=1e-3)
    _check(cp.fuse(lambda a, b: a * b + b / 3)(h, c), nh * nc + nc / 3, rtol=1e-3)
    _check(cp.fuse(lambda a: cp.max(a, axis=0))(h), np.max(nh, axis=0))
    _check(cp.fuse(lambda b: cp.sum(b * 1j))(c), np.sum(nc * 1j), rtol=1e-12)


def test_integer_wraparound_and_division_match_eager(mode):
    n = np.array([120, -128, 127, -7, 9], dtype=np.int8)
    x = cp.asarray(n)
    y = cp.asarray(np.array([3, -2, 0, 4, -5], dtype=np.int8))
    with np.errstate(all="ignore"):
        got = cp.fuse(lambda a, b: (a * 3 + a) // b + a % b)(x, y)
        expected = (x * 3 + x) // y + x % y
    _check(got, expected.get())


def test_non_contiguous_and_broadcast_inputs(mode):
    rng = np.random.default_rng(10)
    n = random_array(rng, (6, 8), np.float64)
    x = cp.asarray(n)
    t, r = x.T, x[::-2, 1::3]
    _check(cp.fuse(lambda a, b: a * 2 + b)(t, cp.asarray(n[0, :6])), n.T * 2 + n[0, :6])
    _check(cp.fuse(lambda a: -a)(r), -n[::-2, 1::3])


def test_composition_and_tuple_returns(mode):
    @cp.fuse
    def f(x, y):
        return x - y * 2, x + y

    @cp.fuse
    def g(x, y):
        a, b = f(x + 1, y)
        return a * b

    n = random_array(np.random.default_rng(11), (9,), np.int64)
    x = cp.asarray(n)
    _check(g(x, x), ((n + 1) - n * 2) * ((n + 1) + n))
    assert g.plan_kind(x, x) == "elementwise"


def test_numpy_arguments_run_the_plain_function():
    @cp.fuse
    def f(x, y):
        return x * y + 1

    n = np.arange(5.0)
    r = f(n, n)
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, n * n + 1)


def test_branching_on_values_raises():
    @cp.fuse
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="Python scalar"):
        f(cp.arange(3))


def test_unfusable_functions_run_eagerly(mode):
    @cp.fuse
    def two_reductions(x, y):
        return x.sum(axis=0) + y.sum(axis=1)

    @cp.fuse
    def norm_divide(x):
        x = x / cp.sum(x)
        return cp.clip(x, 0.1, 0.2)

    n = random_array(np.random.default_rng(12), (4, 4), np.float64, 1, 5)
    x = cp.asarray(n)
    _check(two_reductions(x, x), n.sum(axis=0) + n.sum(axis=1))
    assert two_reductions.plan_kind(x, x) == "eager"
    _check(norm_divide(x), np.clip(n / n.sum(), 0.1, 0.2))
    with pytest.raises(IndexError):
        cp.fuse(lambda a: a[5])(x)


def test_traces_once_per_signature(mode):
    calls = []

    @cp.fuse
    def f(x, s):
        calls.append(1)
        return x * s

    x = cp.arange(4, dtype=np.float32)
    for s in (1.0, 2.0, 3.5):
        _check(f(x, s), np.arange(4, dtype=np.float32) * np.float32(s))
    assert len(calls) == 1
    f(x.astype(np.float64), 2.0)
    assert len(calls) == 2
    f.clear_cache()
    f(x, 2.0)
    assert len(calls) == 3


def test_none_parameters_and_get_array_module(mode):
    @cp.fuse
    def f(x, y, z):
        assert cp.get_array_module(x) is cp
        if y is None:
            return x * z
        return x + y + z

    x = cp.arange(5, dtype=np.int32)
    n = np.arange(5, dtype=np.int32)
    _check(f(x, None, x) + f(x, x, x), n * n + 3 * n)


def test_large_blocks_cover_every_row(device, monkeypatch):
    monkeypatch.setattr(_fusion_eval, "BLOCK_ELEMENTS", 64)
    monkeypatch.setattr(_fuse, "compile_on_cpu", False)
    n = random_array(np.random.default_rng(13), (37, 9), np.float32)
    x = cp.asarray(n)

    @cp.fuse
    def f(a, b):
        a += b
        return a * 2

    _check(f(x, cp.asarray(n[0])), (n + n[0]) * 2)
    _check(x, n + n[0])


def test_aliased_arguments_see_in_place_updates(mode):
    @cp.fuse
    def f(x, y, z):
        x += y
        x += z

    n = random_array(np.random.default_rng(14), (4, 4), np.int64)
    x = cp.asarray(n)
    f(x, x, x.T)
    e = n.copy()
    e += e
    e += e.T
    _check(x, e)


@pytest.mark.parametrize("axis,keepdims", [(-1, False), ((1, 2), True), (0, False)])
def test_reductions_in_blocks(device, monkeypatch, axis, keepdims):
    monkeypatch.setattr(_fusion_eval, "BLOCK_ELEMENTS", 40)
    monkeypatch.setattr(_fuse, "compile_on_cpu", False)
    rng = np.random.default_rng(15)
    n, w = random_array(rng, (23, 4, 5), np.float64), random_array(rng, (5,), np.float64)

    @cp.fuse
    def f(a, b, s):
        return cp.sqrt(cp.sum(a * a + b, axis=axis, keepdims=keepdims) + s)

    with np.errstate(invalid="ignore"):
        expected = np.sqrt(np.sum(n * n + w, axis=axis, keepdims=keepdims) + 2.5)
    _check(f(cp.asarray(n), cp.asarray(w), 2.5), expected, rtol=1e-12)
