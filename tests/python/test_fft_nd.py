"""copper.fft's n-d transforms, out=, frequencies and shifts against numpy.fft: axes in
any order, s padding and cropping, repeated axes, more than three axes, layouts."""
import itertools
import warnings

import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES
from fft_cases import assert_fft_close, fortran, numpy_input

ND = ["fftn", "ifftn", "rfftn", "irfftn"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2"]
REAL_INPUT = {"rfftn", "rfft2"}


def input_dtype(name):
    return np.float64 if name in REAL_INPUT else np.complex128


def check(name, x, cx=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = getattr(np.fft, name)(x, **kw)
        got = getattr(cp.fft, name)(cp.asarray(x) if cx is None else cx, **kw)
    assert_fft_close(got, expected, max(expected.shape + x.shape + (2,)), input_dtype=x.dtype)


@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("axes", [None, (0,), (2,), (0, 1), (1, 0), (2, 0), (0, 2, 1), (-1, -3), (2, 1, 0)])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_axes_orders(device, rng, name, axes, norm):
    check(name, numpy_input(rng, (4, 5, 6), input_dtype(name)), axes=axes, norm=norm)


@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("s", [(3, 8), (1, 1), (7, 2), (6, 5)])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (0, 2), (2, 1)])
def test_s_pads_and_crops(device, rng, name, s, axes):
    check(name, numpy_input(rng, (4, 5, 6), input_dtype(name)), s=s, axes=axes)


@pytest.mark.parametrize("name", ND + TWO_D)
def test_defaults_and_deprecated_forms(device, rng, name):
    x = numpy_input(rng, (3, 4, 6), input_dtype(name))
    check(name, x)
    check(name, x, s=(4, 8))  # axes None with s: the last len(s) axes (DeprecationWarning)
    check(name, x, s=(2, -1), axes=(0, 2))  # -1: the input's length
    check(name, x, s=(None, 5), axes=(0, 2))  # None: the 1-d default (DeprecationWarning)


def test_deprecation_warnings(device):
    x = cp.ones((4, 4))
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`"):
        cp.fft.fftn(x, s=(4, 4))
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        cp.fft.fftn(x, s=(None, 4), axes=(0, 1))


@pytest.mark.parametrize("name", ND + TWO_D)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtypes(device, rng, name, dtype):
    x = numpy_input(rng, (4, 6), dtype)
    if name in REAL_INPUT and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            getattr(cp.fft, name)(cp.asarray(x))
        return
    check(name, x)  # irfftn of float16 is float32 over 2 axes (ifft first), float16 over one
    check(name, x, axes=(1,))


@pytest.mark.parametrize("name", ND)
def test_repeated_axes(device, rng, name):
    x = numpy_input(rng, (4, 6), input_dtype(name))
    check(name, x, axes=(0, 0))
    check(name, x, axes=(1, 0, 1))
    check(name, x, s=(3, 5, 4), axes=(1, 1, 0))


@pytest.mark.parametrize("name", ND)
def test_more_than_three_axes(device, rng, name):
    x = numpy_input(rng, (3, 4, 2, 5, 6), input_dtype(name))
    check(name, x)
    check(name, x, axes=(4, 0, 2, 1))
    check(name, x, s=(2, 3, 4, 5, 8), axes=(0, 1, 2, 3, 4))


@pytest.mark.parametrize("name", ND + TWO_D)
@pytest.mark.parametrize("layout", ["fortran", "negative", "transposed", "sliced"])
def test_layouts(device, rng, name, layout):
    base = numpy_input(rng, (6, 8, 10), input_dtype(name))
    views = {
        "fortran": (np.asfortranarray(base), lambda c: fortran(c)),
        "negative": (base[::-1, :, ::-2], lambda c: c[::-1, :, ::-2]),
        "transposed": (base.transpose(2, 0, 1), lambda c: c.transpose(2, 0, 1)),
        "sliced": (base[1:5, ::2, 3:], lambda c: c[1:5, ::2, 3:]),
    }
    x, make = views[layout]
    c = cp.asarray(base)
    check(name, x, make(c))
    check(name, x, make(c), axes=(0, 1))
    np.testing.assert_array_equal(c.get(), base)


def test_output_layout_follows_input(device, rng):
    x = fortran(cp.asarray(numpy_input(rng, (6, 8), np.complex128)))
    assert cp.fft.fftn(x).flags.f_contiguous
    assert cp.fft.fft2(cp.asarray(numpy_input(rng, (6, 8), np.complex64))).flags.c_contiguous


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2"])
def test_empty_axes_return_the_input(device, name):
    x = cp.ones((3, 4))
    assert getattr(cp.fft, name)(x, axes=()) is x


@pytest.mark.parametrize("name", ["rfftn", "irfftn", "rfft2", "irfft2"])
def test_empty_axes_of_real_transforms_raise_index_error(device, name):
    x = cp.ones((3, 4))
    with pytest.raises(IndexError):
        getattr(np.fft, name)(np.ones((3, 4)), axes=())
    with pytest.raises(IndexError):
        getattr(cp.fft, name)(x, axes=())


def test_empty_arrays(device):
    for shape in [(0, 5), (2, 0, 5), (0, 0, 5)]:
        x = np.zeros(shape, np.complex128)
        for name in ("fftn", "ifftn"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    expected = getattr(np.fft, name)(x)
                except ValueError:
                    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
                        getattr(cp.fft, name)(cp.asarray(x))
                    continue
            assert_fft_close(getattr(cp.fft, name)(cp.asarray(x)), expected)
        check("fftn", x, s=(3,) * x.ndim, axes=tuple(range(x.ndim)))


# ---- out= -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_out_of_the_result_dtype_is_written_and_returned(device, rng, name):
    x = numpy_input(rng, (5, 8), np.float64 if name in ("rfft", "ihfft") else np.complex128)
    expected = getattr(np.fft, name)(x)
    out = cp.empty(expected.shape, expected.dtype)
    r = getattr(cp.fft, name)(cp.asarray(x), out=out)
    assert r is out
    assert_fft_close(out, expected)


def test_out_of_another_dtype_or_layout(device, rng):
    x = numpy_input(rng, (6, 8), np.complex128)
    expected = np.fft.fftn(x)
    out = cp.zeros((6, 8), np.complex64)
    assert cp.fft.fftn(cp.asarray(x), out=out) is out
    assert_fft_close(out, expected.astype(np.complex64))
    out = cp.zeros((8, 6), np.complex128).T  # F-ordered
    cp.fft.fft(cp.asarray(x), out=out)
    assert_fft_close(out, np.fft.fft(x))
    big = cp.zeros((12, 16), np.complex128)
    cp.fft.fft2(cp.asarray(x), out=big[::-2, ::2])
    assert_fft_close(big[::-2, ::2], np.fft.fft2(x))


def test_out_overlapping_the_input(device, rng):
    x = numpy_input(rng, (4, 8), np.complex128)
    c = cp.asarray(x)
    assert cp.fft.fft(c, out=c) is c
    assert_fft_close(c, np.fft.fft(x))


def test_out_errors(device):
    x = cp.ones((4, 8))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        cp.fft.fft(x, out=cp.empty((4, 9), np.complex128))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'fft' output from dtype\\('complex128'\\)"):
        cp.fft.fft(x, out=cp.empty((4, 8), np.float64))
    with pytest.raises(TypeError):
        cp.fft.fft(x, out=np.empty((4, 8), np.complex128))


# ---- frequencies and shifts -----------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 5, 10, 101])
@pytest.mark.parametrize("d", [1.0, 0.5, 3])
def test_fftfreq_and_rfftfreq(device, n, d):
    for name in ("fftfreq", "rfftfreq"):
        expected = getattr(np.fft, name)(n, d)
        got = getattr(cp.fft, name)(n, d)
        assert got.dtype == expected.dtype
        assert str(got.device) == str(cp.get_default_device())
        np.testing.assert_array_equal(got.get(), expected)


def test_fftfreq_options_and_errors(device):
    assert str(cp.fft.fftfreq(4, device="cpu").device) == "cpu"
    assert cp.fft.fftfreq(4, dtype=np.float32).dtype == np.float32
    assert cp.fft.rfftfreq(4, d=2.0, dtype="float32").dtype == np.float32
    assert cp.fft.rfftfreq(-3).shape == np.fft.rfftfreq(-3).shape
    with pytest.raises(ValueError, match="n should be an integer"):
        cp.fft.fftfreq(4.0)
    with pytest.raises(ZeroDivisionError):
        cp.fft.fftfreq(0)
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.fft.fftfreq(-1)


@pytest.mark.parametrize("shape,axes", [((5,), None), ((10,), 0), ((10, 10), None), ((10, 7), 0), ((10, 7), (0, 1)),
                                        ((4, 5, 6), (2, 0)), ((4, 5, 6), -1)])
def test_shifts(device, rng, shape, axes):
    x = numpy_input(rng, shape, np.float32)
    for name in ("fftshift", "ifftshift"):
        got = getattr(cp.fft, name)(cp.asarray(x), axes)
        np.testing.assert_array_equal(got.get(), getattr(np.fft, name)(x, axes))
    np.testing.assert_array_equal(cp.fft.ifftshift(cp.fft.fftshift(cp.asarray(x), axes), axes).get(), x)


def test_fft_then_shift_round_trip_on_many_shapes(device, rng):
    for shape in itertools.product([1, 2, 3, 8], [1, 5, 6]):
        x = numpy_input(rng, shape, np.complex64)
        check("fft2", x)
        check("ifft2", x)
