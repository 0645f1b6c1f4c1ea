"""copper.fft's 1-d transforms against numpy.fft on every device: every size from 1 to
64, large primes, every norm, padding and cropping, dtype promotion, strided input."""
import numpy as np
import pytest

import copper as cp
from conftest import ALL_DTYPES
from fft_cases import assert_fft_close, fortran, numpy_input

FUNCS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
REAL_INPUT = {"rfft", "ihfft"}       # complex input is a TypeError
REAL_OUTPUT = {"irfft", "hfft"}      # n is the real output's length
NORMS = [None, "backward", "ortho", "forward"]


def check(name, x, n=None, **kw):
    expected = getattr(np.fft, name)(x, n=n, **kw)
    got = getattr(cp.fft, name)(cp.asarray(x), n=n, **kw)
    length = n or max(x.shape + (2,))
    assert_fft_close(got, expected, length, input_dtype=x.dtype)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_every_size_from_1_to_64(device, rng, name, dtype):
    if name in REAL_INPUT and np.dtype(dtype).kind == "c":
        pytest.skip("real input only")
    for n in range(1, 65):
        m = n // 2 + 1 if name in REAL_OUTPUT else n
        check(name, numpy_input(rng, (m,), dtype), n=n)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("n", [1009, 65537])
def test_large_primes(device, rng, name, n):
    for dtype in (np.float64, np.complex64) if name not in REAL_INPUT else (np.float32, np.float64):
        m = n // 2 + 1 if name in REAL_OUTPUT else n
        check(name, numpy_input(rng, (m,), dtype), n=n)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_norms_and_axes(device, rng, name, norm, axis):
    dtype = np.float64 if name in REAL_INPUT else np.complex128
    x = numpy_input(rng, (6, 7, 5), dtype)
    check(name, x, axis=axis, norm=norm)
    check(name, x.astype(np.float32 if name in REAL_INPUT else np.complex64), axis=axis, norm=norm)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("n", [1, 2, 5, 10, 16, 33])
@pytest.mark.parametrize("axis", [0, -1])
def test_padding_and_cropping(device, rng, name, n, axis):
    dtype = np.float64 if name in REAL_INPUT else np.complex128
    check(name, numpy_input(rng, (10, 12), dtype), n=n, axis=axis)
    check(name, numpy_input(rng, (10, 12), dtype), n=n, axis=axis, norm="ortho")


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtype_promotion(device, rng, name, dtype):
    x = numpy_input(rng, (4, 9), dtype)
    if name in REAL_INPUT and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            getattr(np.fft, name)(x)
        with pytest.raises(TypeError, match="not supported for the input types"):
            getattr(cp.fft, name)(cp.asarray(x))
        return
    check(name, x)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("layout", ["negative", "transposed", "fortran", "every_third"])
def test_non_contiguous_input(device, rng, name, layout):
    dtype = np.float64 if name in REAL_INPUT else np.complex128
    base = numpy_input(rng, (12, 18), dtype)
    if layout == "negative":
        x = base[::-2, ::-3]
    elif layout == "transposed":
        x = base.T
    elif layout == "fortran":
        x = np.asfortranarray(base)
    else:
        x = base[:, ::3]
    c = cp.asarray(base)
    cx = {"negative": c[::-2, ::-3], "transposed": c.T, "fortran": fortran(c), "every_third": c[:, ::3]}[layout]
    for axis in (0, 1):
        expected = getattr(np.fft, name)(x, axis=axis)
        got = getattr(cp.fft, name)(cx, axis=axis)
        assert_fft_close(got, expected, max(x.shape))
    np.testing.assert_array_equal(c.get(), base)  # the input is never written


@pytest.mark.parametrize("name", FUNCS)
def test_batches_over_leading_and_trailing_axes(device, rng, name):
    dtype = np.float32 if name in REAL_INPUT else np.complex64
    x = numpy_input(rng, (3, 4, 8, 5), dtype)
    for axis in range(4):
        check(name, x, axis=axis)


@pytest.mark.parametrize("name", FUNCS)
def test_empty_batches_and_padding_empty_axes(device, name):
    dtype = np.float64 if name in REAL_INPUT else np.complex128
    check(name, np.zeros((0, 6), dtype))
    check(name, np.zeros((3, 0), dtype), n=5)
    check(name, np.zeros((0,), dtype), n=4)


def test_float16_and_integer_results(device, rng):
    x = numpy_input(rng, (16,), np.float16)
    for name in FUNCS:
        check(name, x)
    assert cp.fft.irfft(cp.asarray(x)).dtype == np.float16
    assert cp.fft.fft(cp.asarray(np.arange(8, dtype=np.int8))).dtype == np.complex128


def test_python_lists_and_numpy_arrays_are_accepted(device):
    assert_fft_close(cp.fft.fft([1, 2, 3, 4]), np.fft.fft([1, 2, 3, 4]))
    assert_fft_close(cp.fft.rfft(np.arange(6.0)), np.fft.rfft(np.arange(6.0)))


def test_result_stays_on_the_inputs_device(device):
    x = cp.asarray(np.arange(8.0), device=device)
    assert str(cp.fft.fft(x).device) == str(x.device)


def test_round_trips(device, rng):
    for n in (7, 16, 100):
        x = numpy_input(rng, (3, n), np.complex128)
        c = cp.asarray(x)
        np.testing.assert_allclose(cp.fft.ifft(cp.fft.fft(c)).get(), x, atol=1e-13)
        r = x.real.copy()
        np.testing.assert_allclose(cp.fft.irfft(cp.fft.rfft(cp.asarray(r)), n=n).get(), r, atol=1e-13)
        np.testing.assert_allclose(cp.fft.ihfft(cp.fft.hfft(cp.asarray(x[:, : n // 2 + 1]), n=n)).get(),
                                   np.fft.ihfft(np.fft.hfft(x[:, : n // 2 + 1], n=n)), atol=1e-12)


def test_cpu_thread_counts_agree(rng):
    x = numpy_input(rng, (64, 1024), np.complex128)
    old = cp.get_num_threads()
    try:
        cp.set_num_threads(1)
        one = cp.fft.fft(cp.asarray(x, device="cpu")).get()
        cp.set_num_threads(max(old, 2))
        many = cp.fft.fft(cp.asarray(x, device="cpu")).get()
    finally:
        cp.set_num_threads(old)
    np.testing.assert_allclose(one, many, rtol=1e-13, atol=1e-12)
    assert_fft_close(cp.asarray(many), np.fft.fft(x), 1024)
