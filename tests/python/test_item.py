"""ndarray.item with NumPy's forms: item() of a size-1 array, item(i) at a flat C-order index,
item(i, j, ...) and item((i, j, ...)) at one index per axis; through views, and with NumPy's
errors. NumPy is the oracle."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES, random_array


def same(device, a0, *args):
    a = cp.asarray(a0, device=device)
    got, expected = None, None
    try:
        expected = a0.item(*args)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e), match=str(e).split(" for ")[0].replace("(", r"\(").replace(")", r"\)")):
            a.item(*args)
        return
    got = a.item(*args)
    assert type(got) is type(expected)
    if isinstance(expected, float) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == expected


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_flat_and_per_axis_indices(device, rng, dtype):
    a0 = random_array(rng, (3, 4, 5), dtype)
    for args in [(0,), (7,), (59,), (-1,), (-60,), ((17,),), (1, 2, 3), ((2, 3, 4),), (-1, -4, 0)]:
        same(device, a0, *args)


@pytest.mark.parametrize("view", ["reversed", "transposed", "stepped", "zero-d", "one"])
def test_indices_through_views(device, rng, view):
    a0 = rng.standard_normal((6, 7))
    v0 = {"reversed": a0[::-1, ::-2], "transposed": a0.T, "stepped": a0[1::2, 2:],
          "zero-d": a0[2, 3], "one": a0[2:3, 4:5]}[view]
    a = cp.asarray(a0, device=device)
    v = {"reversed": a[::-1, ::-2], "transposed": a.T, "stepped": a[1::2, 2:],
         "zero-d": a[2, 3], "one": a[2:3, 4:5]}[view]
    for k in range(v0.size):
        assert v.item(k) == v0.item(k)
        assert v.item(-k - 1) == v0.item(-k - 1)
    if v0.size == 1:
        assert v.item() == v0.item() and v.item(()) == v0.item(())


def test_errors_are_numpys(device):
    a0 = np.arange(6.0).reshape(2, 3)
    for args in [(6,), (-7,), ((1, 5),), (1, 2, 3), (), (1.5,), ("a",), (True,), ((0, 1.0),)]:
        same(device, a0, *args)
    same(device, np.array(5.0), 1)
    same(device, np.zeros((0, 3)), 0)


def test_item_of_a_deferred_result(device, rng):
    a0 = rng.standard_normal((4, 5))
    a = cp.asarray(a0, device=device)
    was = cp.fusion_enabled()
    cp.set_fusion(True)
    try:
        y = a * 2.0 + 1.0
        assert y.item(7) == (a0 * 2.0 + 1.0).item(7)
        assert y.item(3, 4) == (a0 * 2.0 + 1.0).item(3, 4)
    finally:
        cp.set_fusion(was)
