"""copper.ReductionKernel against NumPy: CuPy's documented l2norm, axis/keepdims,
identities, out arguments, dtypes, long rows (split across threads / blocks) and errors."""
import re

import numpy as np
import pytest

import copper as cp
from conftest import random_pair

l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
rsum = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rsum")
rmax = cp.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "rmax")


def test_l2norm_documentation_example(device):
    x = cp.arange(10, dtype=np.float32).reshape(2, 5)
    y = l2norm(x, axis=1)
    assert y.dtype == np.float32 and y.shape == (2,)
    # float32 sums of a few squares: a few ulp.
    np.testing.assert_allclose(y.get(), np.linalg.norm(np.arange(10, dtype=np.float32).reshape(2, 5), axis=1),
                               rtol=1e-6)


AXES = [None, 0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2), ()]


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_over_axes(device, rng, axis, keepdims):
    n, x = random_pair(rng, (4, 5, 6), np.float64, strided=True)
    y = rsum(x, axis=axis, keepdims=keepdims)
    expected = n.sum(axis=axis, keepdims=keepdims)
    assert y.shape == expected.shape
    # Summation order differs from NumPy's pairwise sums: relative 1e-12 is ample for 120 terms.
    np.testing.assert_allclose(y.get(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float16, np.float32, np.complex64, np.complex128])
def test_sum_dtypes(device, rng, dtype):
    n, x = random_pair(rng, (3, 40), dtype, )
    y = rsum(x, axis=1)
    assert y.dtype == dtype
    expected = n.sum(axis=1, dtype=dtype)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(y.get(), expected)
    else:
        # float16 accumulates in float16 on both sides, in different orders: a few ulp of the sum.
        rtol = {np.float16: 2e-2, np.float32: 1e-5, np.complex64: 1e-5}.get(dtype, 1e-12)
        np.testing.assert_allclose(y.get().astype(np.complex128), expected.astype(np.complex128), rtol=rtol,
                                   atol=rtol * np.abs(n).sum())


def test_max_without_identity(device, rng):
    n = -np.abs(rng.normal(size=(7, 33))) - 1  # all negative: a zero start would be wrong
    y = rmax(cp.asarray(n), axis=1)
    np.testing.assert_array_equal(y.get(), n.max(axis=1))
    np.testing.assert_array_equal(rmax(cp.asarray(n)).get(), n.max())
    with pytest.raises(ValueError, match="zero-size array to reduction operation rmax which has no identity"):
        rmax(cp.zeros((0, 3)))


def test_empty_reductions_give_the_identity(device):
    y = rsum(cp.zeros((3, 0)), axis=1)
    np.testing.assert_array_equal(y.get(), np.zeros(3))
    assert rsum(cp.zeros((0, 3)), axis=0).shape == (3,)
    assert rsum(cp.zeros((0, 3)), axis=1).shape == (0,)


def test_zero_dim_input(device):
    y = rsum(cp.asarray(np.float64(2.5)))
    assert y.shape == () and float(y.get()) == 2.5


def test_out_arguments(device):
    x = cp.arange(12, dtype=np.float64).reshape(3, 4)
    out = cp.empty(3, dtype=np.float64)
    assert rsum(x, axis=1, out=out) is out
    np.testing.assert_array_equal(out.get(), np.arange(12.0).reshape(3, 4).sum(axis=1))
    out2 = cp.empty(4, dtype=np.float64)
    assert rsum(x, out2, axis=0) is out2
    np.testing.assert_array_equal(out2.get(), np.arange(12.0).reshape(3, 4).sum(axis=0))
    with pytest.raises(ValueError, match="Out shape is mismatched"):
        rsum(x, axis=1, out=cp.empty(4))
    with pytest.raises(TypeError, match="Type is mismatched"):
        rsum(x, axis=1, out=cp.empty(3, dtype=np.float32))
    with pytest.raises(ValueError, match="both a positional and keyword"):
        rsum(x, out2, out=out2)


def test_several_inputs_broadcast_scalars_and_reduce_type(device, rng):
    n, x = random_pair(rng, (5, 8), np.float32)
    nw, w = random_pair(rng, (8,), np.float32)
    weighted_mean = cp.ReductionKernel(
        "T x, T w, float32 s", "T y, float64 total", "x * w * s", "a + b",
        "y = a / (_in_ind.size() / _out_ind.size()); total = a", "0", "weighted_mean", reduce_type="float64")
    y = weighted_mean(x, w, 2.0, axis=1)
    sums = (n.astype(np.float64) * nw * 2).sum(axis=1)
    np.testing.assert_allclose(y.get(), (sums / 8).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("shape,axis", [((2, 300000), 1), ((1000003,), None), ((300000, 3), 0), ((3, 70), 1)])
def test_long_rows_are_split_and_combined(device, shape, axis):
    n = (np.arange(np.prod(shape), dtype=np.int64) % 1000).reshape(shape)
    np.testing.assert_array_equal(rsum(cp.asarray(n), axis=axis).get(), n.sum(axis=axis))
    m = n.astype(np.float64) - 500.0
    np.testing.assert_array_equal(rmax(cp.asarray(m), axis=axis).get(), m.max(axis=axis))


def test_struct_reduce_type(device, rng):
    n = rng.normal(size=(4, 500)).astype(np.float32)
    minmax = cp.ReductionKernel("float32 x", "float32 lo, float32 hi", "MinMax{x, x}",
                                "MinMax{min(a.lo, b.lo), max(a.hi, b.hi)}", "lo = a.lo; hi = a.hi", None, "minmax",
                                reduce_type="MinMax", preamble="struct MinMax { float lo, hi; };")
    lo, hi = cp.empty(4, np.float32), cp.empty(4, np.float32)
    minmax(cp.asarray(n), lo, hi, axis=1)
    np.testing.assert_array_equal(lo.get(), n.min(axis=1))
    np.testing.assert_array_equal(hi.get(), n.max(axis=1))


def test_axis_errors(device):
    x = cp.zeros((2, 3))
    with pytest.raises(np.exceptions.AxisError):
        rsum(x, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        rsum(x, axis=(0, -2))
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        rsum()


def test_compile_error_names_the_users_line(device):
    broken = cp.ReductionKernel("T x", "T y", "x *\nnot_defined", "a + b", "y = a", "0", "broken_reduce")
    with pytest.raises(cp.CompileError) as info:
        broken(cp.arange(4.0))
    assert re.search(r"broken_reduce_map[(:]2\b", str(info.value)), str(info.value)
