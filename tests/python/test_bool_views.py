"""Bool views of bytes other than 0 and 1 (x_int8.view(bool)): NumPy reads every nonzero
byte as True, so casts, arithmetic, logic, sums, masks and user kernels see 1. C++ reading
such a byte as a bool is undefined and in practice passes the byte on (3 + 4 gave 7; a
mask's count was the sum of its bytes, so most of the result was never written). The CPU
backend's kernels load bools through backend/cpu/element_load.h, the CUDA ones through
kernels/common.cuh's loaded_t."""
import numpy as np
import pytest

import copper as cp

RNG = np.random.default_rng(38)
RAW = RNG.integers(-128, 128, size=(4, 37)).astype(np.int8)
RAW[RNG.random(RAW.shape) < 0.3] = 0
RAW[0, :4] = [1, 2, 0, -1]
VALUES = RNG.standard_normal((4, 37))


def on(xp, device, a):
    return np.asarray(a) if xp is np else cp.asarray(a, device=device)


def normalized(a):
    a = np.asarray(a)
    return a.view(np.uint8) != 0 if a.dtype == bool else a


def compare(device, run):
    want = normalized(run(np, RAW.view(bool)))
    got = normalized(cp.asnumpy(run(cp, cp.asarray(RAW, device=device).view(bool))))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-12)


def ints(xp, device, n):
    return on(xp, device, np.arange(n))


# Each case: (name, run(xp, device, v)) with v the bool view; NumPy's answer is the oracle.
CASES = {
    "astype_int32": lambda xp, d, v: v.astype(np.int32),
    "astype_float64": lambda xp, d, v: v.astype(np.float64),
    "astype_float16": lambda xp, d, v: v.astype(np.float16),
    "astype_complex64": lambda xp, d, v: v.astype(np.complex64),
    "astype_uint8_strided": lambda xp, d, v: v[:, ::3].astype(np.uint8),
    "float_plus_bool": lambda xp, d, v: on(xp, d, VALUES) + v,
    "bool_plus_int": lambda xp, d, v: v + 1,
    "bool_plus_bool": lambda xp, d, v: v + v[::-1],
    "bool_times_bool": lambda xp, d, v: v * v[:, ::-1],
    "bitwise_and": lambda xp, d, v: v & v[::-1],
    "bitwise_xor": lambda xp, d, v: v ^ v[::-1],
    "invert": lambda xp, d, v: ~v,
    "logical_and": lambda xp, d, v: xp.logical_and(v, v[::-1]),
    "logical_xor": lambda xp, d, v: xp.logical_xor(v, v[::-1]),
    "logical_not": lambda xp, d, v: xp.logical_not(v),
    "equal_true": lambda xp, d, v: v == True,  # noqa: E712
    "equal_reversed": lambda xp, d, v: v == v[::-1],
    "less": lambda xp, d, v: v < v[::-1],
    "maximum": lambda xp, d, v: xp.maximum(v, v[::-1]),
    "where_condition": lambda xp, d, v: xp.where(v, 1.0, 2.0),
    "where_values": lambda xp, d, v: xp.where(v[0] ^ v[1], v[2], v[3]).astype(np.int8),
    "formula": lambda xp, d, v: xp.sqrt(v * 2.0 + 1.0),
    "sum": lambda xp, d, v: xp.asarray(v.sum()),
    "sum_axis0": lambda xp, d, v: v.sum(axis=0),
    "sum_axis1": lambda xp, d, v: v.sum(axis=1),
    "mean": lambda xp, d, v: v.mean(axis=0),
    "prod": lambda xp, d, v: v.prod(axis=1),
    "all_axis0": lambda xp, d, v: v.all(axis=0),
    "max_axis1": lambda xp, d, v: v.max(axis=1),
    "argmax": lambda xp, d, v: v.argmax(axis=1),
    "cumsum": lambda xp, d, v: v.cumsum(axis=1),
    "logical_and_reduce": lambda xp, d, v: xp.logical_and.reduce(v, axis=1),
    "add_reduce": lambda xp, d, v: xp.add.reduce(v, axis=1),
    "logical_and_accumulate": lambda xp, d, v: xp.logical_and.accumulate(v, axis=1),
    "count_nonzero": lambda xp, d, v: xp.asarray(xp.count_nonzero(v)),
    "count_nonzero_axis": lambda xp, d, v: xp.count_nonzero(v, axis=1),
    "nonzero": lambda xp, d, v: xp.stack(xp.nonzero(v)),
    "nonzero_transposed": lambda xp, d, v: xp.stack(xp.nonzero(v.T)),
    "flatnonzero": lambda xp, d, v: xp.flatnonzero(v),
    "mask": lambda xp, d, v: on(xp, d, VALUES)[v],
    "mask_transposed": lambda xp, d, v: on(xp, d, VALUES).T[v.T],
    "mask_assign": lambda xp, d, v: (lambda a: (a.__setitem__(v, 0.5), a)[1])(on(xp, d, VALUES).copy()),
    "compress": lambda xp, d, v: xp.compress(v[0], on(xp, d, VALUES), axis=1),
    "extract": lambda xp, d, v: xp.extract(v, on(xp, d, VALUES)),
    "copyto_where": lambda xp, d, v: (lambda a: (xp.copyto(a, 7.0, where=v), a)[1])(on(xp, d, VALUES).copy()),
    "matmul": lambda xp, d, v: v @ v.T,
    "dot_float": lambda xp, d, v: v.astype(np.float64) @ on(xp, d, VALUES).T,
    "average_weights": lambda xp, d, v: xp.asarray(xp.average(on(xp, d, VALUES), weights=v)),
    "bincount_weights": lambda xp, d, v: xp.bincount(ints(xp, d, 37) % 5, weights=v[0]),
    "item": lambda xp, d, v: xp.asarray([int(v[1, 3]), int(v[0, 1]), v[0, 3].item()]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bool_view_of_other_bytes_reads_as_numpy_does(device, name):
    compare(device, lambda xp, v: CASES[name](xp, device, v))


@pytest.mark.parametrize("fused", [True, False])
def test_bool_view_in_a_fused_chain(device, fused):
    def run(xp, v):
        x = on(xp, device, VALUES)
        return ((x * v + v) * 2 - v).sum(axis=1)
    was = cp.fusion_enabled()
    cp.set_fusion(fused)
    try:
        compare(device, run)
    finally:
        cp.set_fusion(was)


def test_user_kernels_read_a_bool_view_as_numpy_would(device):
    copy = cp.ElementwiseKernel("bool x", "int32 y", "y = x", "bool_view_copy")
    both = cp.ElementwiseKernel("bool x, bool z", "bool y", "y = x && z", "bool_view_and")
    count = cp.ReductionKernel("bool x", "int64 y", "x", "a + b", "y = a", "0", "bool_view_count")
    raw = RAW[0]
    v = cp.asarray(raw, device=device).view(bool)
    want = raw.view(bool)
    np.testing.assert_array_equal(cp.asnumpy(copy(v)), want.astype(np.int32))
    np.testing.assert_array_equal(cp.asnumpy(copy(v[::3])), want[::3].astype(np.int32))
    np.testing.assert_array_equal(cp.asnumpy(both(v, v[::-1])).view(np.uint8), (want & want[::-1]).view(np.uint8))
    assert int(count(v)) == np.count_nonzero(want)


def test_copies_keep_the_bytes_as_numpy_does(device):
    # Plain moves are not reads of the value: NumPy's copy, take and sort keep each byte.
    v = cp.asarray(RAW, device=device).view(bool)
    np.testing.assert_array_equal(cp.asnumpy(v.copy().view(np.int8)), RAW)
    # astype(bool) and a copy in another order too (a GPU chain would load the values).
    np.testing.assert_array_equal(cp.asnumpy(v.astype(bool).view(np.int8)), RAW.view(bool).astype(bool).view(np.int8))
    np.testing.assert_array_equal(cp.asnumpy(cp.array(v, order="F").view(np.int8)), RAW)
    np.testing.assert_array_equal(cp.asnumpy(v[:, [2, 0]].view(np.int8)), RAW[:, [2, 0]])
