"""numpy.pad in every mode against NumPy: widths larger than the array (iterated
reflections), corners, per-axis keyword pairs, dtypes, empty axes and the errors."""
import numpy as np
import pytest

import copper as cp
from conftest import assert_matches as check, random_array, random_pair as pair

MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap"]
WIDTHS = [1, (2, 0), ((1, 2), (0, 3)), ((4, 7), (5, 1)), 9, ((0, 0), (0, 0))]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("strided", [False, True])
def test_pad_modes(device, rng, mode, width, strided):
    n, c = pair(rng, (3, 4), np.float64, strided)
    got, want = cp.pad(c, width, mode), np.pad(n, width, mode)
    if mode == "mean":  # a sum: the GPU adds in another order
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-13)
        return
    check(got, want)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float32, np.complex64])
def test_pad_dtypes(device, rng, mode, dtype):
    if mode in ("mean", "median", "linear_ramp") and dtype == np.complex64:
        pytest.skip("NumPy's rounding step differs for complex")
    n = random_array(rng, (5, 3), dtype, 0, 50)
    got, want = cp.pad(cp.asarray(n), ((2, 6), (3, 1)), mode), np.pad(n, ((2, 6), (3, 1)), mode)
    if mode in ("linear_ramp", "mean") and dtype == np.float32:  # linspace rounds once less; sums in another order
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)
        return
    check(got, want)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("width", [1, 4, 11, (13, 2)])
@pytest.mark.parametrize("length", [1, 2, 3, 5])
def test_pad_reflect_odd(device, rng, mode, width, length):
    n, c = pair(rng, (length,), np.float64)
    for rt in ["even", "odd"]:
        check(cp.pad(c, width, mode, reflect_type=rt), np.pad(n, width, mode, reflect_type=rt))


@pytest.mark.parametrize("length", [1, 2, 5])
@pytest.mark.parametrize("width", [1, 3, 12, (0, 7)])
def test_pad_wrap_long(device, rng, length, width):
    n, c = pair(rng, (length, 2), np.int32)
    check(cp.pad(c, width, "wrap"), np.pad(n, width, "wrap"))


def test_pad_keywords(device, rng):
    n, c = pair(rng, (3, 4, 2), np.int16)
    check(cp.pad(c, 2, constant_values=((1, 2), (3, 4), (5, 6))),
          np.pad(n, 2, constant_values=((1, 2), (3, 4), (5, 6))))
    check(cp.pad(c, 2, constant_values=7.9), np.pad(n, 2, constant_values=7.9))
    check(cp.pad(c, 3, "linear_ramp", end_values=(-5, 9)), np.pad(n, 3, "linear_ramp", end_values=(-5, 9)))
    for mode in ["maximum", "mean", "median", "minimum"]:
        for sl in [1, (2, 1), ((1, 3), (2, 2), (1, 1)), None, 10]:
            check(cp.pad(c, (2, 3), mode, stat_length=sl), np.pad(n, (2, 3), mode, stat_length=sl))
    f = np.arange(6.0).reshape(2, 3)
    check(cp.pad(cp.asarray(f), {1: (1, 2)}), np.pad(f, {1: (1, 2)}))
    check(cp.pad(cp.asarray(f), np.array([[1, 0], [2, 1]])), np.pad(f, np.array([[1, 0], [2, 1]])))
    check(cp.pad(cp.asarray(np.float32(3)), 2, "edge"), np.pad(np.float32(3), 2, "edge"))


def test_pad_empty_and_callable(device, rng):
    n, c = pair(rng, (3, 4), np.float64)
    got = cp.pad(c, 2, "empty")
    assert got.shape == (7, 8) and got.dtype == c.dtype
    np.testing.assert_array_equal(got.get()[2:5, 2:6], n)
    z = np.zeros((0, 3))
    check(cp.pad(cp.asarray(z), 1), np.pad(z, 1))
    check(cp.pad(cp.asarray(z), ((0, 0), (2, 1)), "edge"), np.pad(z, ((0, 0), (2, 1)), "edge"))
    with pytest.raises(ValueError, match="can't extend empty axis 0 using modes other than 'constant' or 'empty'"):
        cp.pad(cp.asarray(z), 1, "edge")

    def pad_with(vector, pad_width, iaxis, kwargs):
        value = kwargs.get("padder", 10)
        vector[:pad_width[0]] = value
        if pad_width[1]:
            vector[-pad_width[1]:] = value

    check(cp.pad(c, 2, pad_with), np.pad(n, 2, pad_with))
    check(cp.pad(c, (1, 2), pad_with, padder=-3), np.pad(n, (1, 2), pad_with, padder=-3))


def test_pad_errors(device):
    c = cp.zeros((2, 2))
    with pytest.raises(ValueError, match="mode 'nope' is not supported"):
        cp.pad(c, 1, "nope")
    with pytest.raises(ValueError, match="unsupported keyword arguments for mode 'edge'"):
        cp.pad(c, 1, "edge", constant_values=3)
    with pytest.raises(TypeError, match="`pad_width` must be of integral type."):
        cp.pad(c, 1.5)
    with pytest.raises(ValueError, match="index can't contain negative values"):
        cp.pad(c, -1)
    with pytest.raises(ValueError, match="stat_length of 0 yields no value for padding"):
        cp.pad(c, 1, "maximum", stat_length=0)
    with pytest.raises(ValueError):
        cp.pad(c, ((1, 2), (3, 4), (5, 6)))
