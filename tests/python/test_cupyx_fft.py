"""copper.x.scipy.fft / fftpack and plan objects (CuPy's cupyx.scipy.fftpack.get_fft_plan)
on every device: results against numpy.fft, CuPy's errors for plans that do not fit."""
import threading

import numpy as np
import pytest

import copper as cp
from copper.x.scipy import fft as sfft
from copper.x.scipy import fftpack
from copper.x.scipy.fftpack import get_fft_plan
from fft_cases import assert_fft_close, fortran, numpy_input

NORMS = [None, "backward", "ortho", "forward"]
ND_CASES = [((3, 4), None, None), ((3, 4), (1, 5), (-2, -1)), ((3, 4), None, (-1, -2)), ((3, 4), None, (0,)),
            ((2, 3, 4), None, None), ((2, 3, 4), (1, 4, 10), (-3, -2, -1)), ((2, 3, 4), None, (0, 1)),
            ((5, 6, 7), (6, 3), (1, 2)), ((8,), (5,), None)]


def _close(got, expected, x):
    assert_fft_close(got, expected, max(x.shape + (2,)), input_dtype=x.dtype)


@pytest.mark.parametrize("shape,s,axes", ND_CASES)
@pytest.mark.parametrize("name", ["fftn", "ifftn"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_context_plan_c2c_matches_numpy(device, rng, shape, s, axes, name, dtype):
    x = numpy_input(rng, shape, dtype)
    a = cp.asarray(x)
    plan = get_fft_plan(a, s, axes)
    assert isinstance(plan, cp.cuda.cufft.Plan1d if len(axes or s or shape) == 1 else cp.cuda.cufft.PlanNd)
    for norm in NORMS:
        with plan:
            got = getattr(cp.fft, name)(a, s=s, axes=axes if axes is not None or s is None else range(-len(s), 0),
                                        norm=norm)
        _close(got, getattr(np.fft, name)(x, s=s, axes=axes if axes is not None or s is None else
                                          range(-len(s), 0), norm=norm), x)


@pytest.mark.parametrize("shape,s,axes", [c for c in ND_CASES if c[2] != (-1, -2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16])
def test_context_plan_real_nd_matches_numpy(device, rng, shape, s, axes, dtype):
    axes = axes if axes is not None or s is None else tuple(range(-len(s), 0))
    x = numpy_input(rng, shape, dtype)
    a = cp.asarray(x)
    with get_fft_plan(a, s, axes, value_type="R2C"):
        got = cp.fft.rfftn(a, s=s, axes=axes)
    _close(got, np.fft.rfftn(x, s=s, axes=axes), x)
    c = numpy_input(rng, shape, np.complex128 if dtype == np.float64 else np.complex64)
    with get_fft_plan(cp.asarray(c), s, axes, value_type="C2R"):
        got = cp.fft.irfftn(cp.asarray(c), s=s, axes=axes, norm="ortho")
    _close(got, np.fft.irfftn(c, s=s, axes=axes, norm="ortho"), c)


@pytest.mark.parametrize("n", [None, 1, 5, 10, 17])
def test_context_plan_1d_matches_numpy(device, rng, n):
    for name, value_type, dtype in [("fft", "C2C", np.complex64), ("ifft", "C2C", np.complex128),
                                    ("rfft", "R2C", np.float64), ("irfft", "C2R", np.complex128),
                                    ("hfft", "C2R", np.complex64), ("ihfft", "R2C", np.float32)]:
        x = numpy_input(rng, (3, 10), dtype)
        a = cp.asarray(x)
        plan = get_fft_plan(a, shape=None if n is None else (n,), axes=-1, value_type=value_type)
        assert isinstance(plan, cp.cuda.cufft.Plan1d) and plan.batch == 3
        with plan:
            got = getattr(cp.fft, name)(a, n=n)
            again = getattr(cp.fft, name)(a, n=n)
        expected = getattr(np.fft, name)(x, n=n)
        _close(got, expected, x)
        _close(again, expected, x)


def test_plan_keeps_its_backend_plans_out_of_the_cache(device, rng):
    x = numpy_input(rng, (16, 12), np.complex128)
    a = cp.asarray(x)
    plan = get_fft_plan(a)
    cache = cp.fft.config.get_plan_cache()
    with plan:
        cp.fft.fftn(a)
    kept = len(plan._set)
    assert kept >= 1
    cache.clear()
    hits, misses = cache.get_hits(), cache.get_misses()
    with plan:
        got = cp.fft.fftn(a)
    # the kept plans ran: the cache made nothing and was not asked
    assert (cache.get_curr_size(), cache.get_hits(), cache.get_misses()) == (0, hits, misses)
    assert len(plan._set) == kept
    _close(got, np.fft.fftn(x), x)


def test_wrong_plans_raise_cupys_errors(device, rng):
    a = cp.asarray(numpy_input(rng, (3, 4), np.complex64))
    big = cp.asarray(numpy_input(rng, (6, 8), np.complex64))
    with pytest.raises(ValueError, match="The cuFFT plan and a.shape do not match"), get_fft_plan(big):
        cp.fft.fftn(a)
    with pytest.raises(ValueError, match="cuFFT plan dtype mismatch"), get_fft_plan(a.astype(cp.complex128)):
        cp.fft.fftn(a)
    with pytest.raises(ValueError, match="array orders mismatch"), get_fft_plan(fortran(a)):
        cp.fft.fftn(a)
    with pytest.raises(ValueError, match="expected plan to have type cufft.Plan1d"), get_fft_plan(a):
        cp.fft.fft(a)
    one = get_fft_plan(cp.asarray(numpy_input(rng, (20,), np.complex64)))
    with pytest.raises(ValueError, match="Target array size does not match the plan"), one:
        cp.fft.fft(a[0])
    with pytest.raises(ValueError, match="Batch size does not match the plan"), get_fft_plan(a[0:1], axes=-1):
        cp.fft.fft(a)
    cplan = get_fft_plan(a, (3, 6), (0, 1), value_type="C2R")  # irfft2 to 3 x 6 real values
    with pytest.raises(ValueError, match="The cuFFT plan and a.shape do not match"), cplan:
        cp.fft.irfft2(a, s=(3, 5))
    with cplan:
        _close(cp.fft.irfft2(a, s=(3, 6)), np.fft.irfft2(a.get(), s=(3, 6)), a.get())
    with pytest.raises(RuntimeError, match="either as a context manager or as an argument"), one:
        sfft.fft(a, plan=one)
    with pytest.raises(ValueError, match="Target array size does not match the plan"):
        sfft.fftn(a, plan=one)  # a Plan1d runs fftn one axis at a time (CuPy's rule)


def test_plan_errors_leave_out_untouched_and_context_is_restored(device, rng):
    a = cp.asarray(numpy_input(rng, (4, 4), np.complex128))
    out = cp.zeros((4, 4), cp.complex128)
    with pytest.raises(ValueError), get_fft_plan(cp.zeros((2, 2), cp.complex128)):
        cp.fft.fftn(a, out=out)
    assert not out.any().item()
    assert cp.cuda.cufft.get_current_plan() is None
    outer, inner = get_fft_plan(a), get_fft_plan(a, axes=(0,))
    with outer:
        with inner:
            assert cp.cuda.cufft.get_current_plan() is inner
        assert cp.cuda.cufft.get_current_plan() is outer
    assert cp.cuda.cufft.get_current_plan() is None


def test_get_fft_plan_rejects_what_cupy_rejects(device, rng):
    a = cp.asarray(numpy_input(rng, (4, 5, 6, 7), np.complex64))
    with pytest.raises(ValueError, match="must be contiguous"):
        get_fft_plan(a[:, ::2])
    with pytest.raises(ValueError, match="different lengths"):
        get_fft_plan(a, (4, 5), (0,))
    with pytest.raises(ValueError, match="up to three axes"):
        get_fft_plan(a)
    with pytest.raises(ValueError, match="could not be created"):
        get_fft_plan(a, axes=(1, 2))
    with pytest.raises(ValueError, match="exceeds the number of dimensions"):
        get_fft_plan(a, axes=(4,))
    with pytest.raises(ValueError, match="F-order"):
        get_fft_plan(fortran(a[0]).real.copy(order="F"), axes=(0, 1), value_type="R2C")
    with pytest.raises(ValueError, match="value_type"):
        get_fft_plan(a, axes=(0,), value_type="Z2Z")
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        get_fft_plan(a, shape=(0,), axes=(0,))


def test_cached_and_held_plans_share_the_plan_classes(device, rng):
    cache = cp.fft.config.get_plan_cache()
    cache.clear()
    cp.fft.fft(cp.asarray(numpy_input(rng, (10,), np.complex64)))
    node = next(iter(cache))[1]
    assert isinstance(node.plan, cp.cuda.cufft.Plan1d) and not isinstance(node.plan, cp.cuda.cufft.PlanNd)
    assert cp.cuda.cufft.CUFFT_C2C == 0x29 and cp.cuda.cufft.CUFFT_Z2D == 0x6C


def test_plan_context_is_per_thread(device, rng):
    x = numpy_input(rng, (6, 6), np.complex128)
    a = cp.asarray(x)
    seen, results = [], []

    def other():
        seen.append(cp.cuda.cufft.get_current_plan())
        results.append(cp.fft.fftn(cp.asarray(x[:3])).get())  # would not fit the main thread's plan

    with get_fft_plan(a):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [None]
    np.testing.assert_allclose(results[0], np.fft.fftn(x[:3]), atol=1e-12)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_scipy_fft_1d(device, rng, name):
    dtype = np.float32 if name in ("rfft", "ihfft") else np.complex128
    x = numpy_input(rng, (4, 9), dtype)
    for n, axis, norm in [(None, -1, None), (5, 0, "ortho"), (12, 1, "forward")]:
        got = getattr(sfft, name)(cp.asarray(x), n, axis, norm, overwrite_x=True, workers=2)
        _close(got, getattr(np.fft, name)(x, n, axis, norm), x)
    plan = get_fft_plan(cp.asarray(x), shape=(7,), axes=0,
                        value_type={"rfft": "R2C", "ihfft": "R2C", "irfft": "C2R", "hfft": "C2R"}.get(name, "C2C"))
    _close(getattr(sfft, name)(cp.asarray(x), 7, 0, plan=plan), getattr(np.fft, name)(x, 7, 0), x)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"])
def test_scipy_fft_nd(device, rng, name):
    dtype = np.float64 if name.startswith("rfft") else np.complex64
    x = numpy_input(rng, (3, 5, 6), dtype)
    nd = name.endswith("n")
    for s, axes in [(None, None), ((4, 8), None), ((2, 7), (0, 2))] if nd else [(None, (-2, -1)), ((4, 4), (0, 1))]:
        np_axes = tuple(range(-len(s), 0)) if s is not None and axes is None else axes
        got = getattr(sfft, name)(cp.asarray(x), s, axes) if nd else getattr(sfft, name)(cp.asarray(x), s, axes)
        _close(got, getattr(np.fft, name)(x, s, np_axes), x)


def test_scipy_hfftn_ihfftn(device, rng):
    x = numpy_input(rng, (4, 6), np.complex128)
    r = numpy_input(rng, (4, 6), np.float64)
    swap = {None: "forward", "ortho": "ortho", "forward": "backward"}
    for norm in (None, "ortho", "forward"):
        _close(sfft.hfftn(cp.asarray(x), norm=norm), np.fft.irfftn(np.conj(x), norm=swap[norm]), x)
        _close(sfft.hfft2(cp.asarray(x), s=(4, 8), norm=norm), np.fft.irfft2(np.conj(x), s=(4, 8), norm=swap[norm]), x)
        _close(sfft.ihfftn(cp.asarray(r), norm=norm), np.conj(np.fft.rfftn(r, norm=swap[norm])), r)
        _close(sfft.ihfft2(cp.asarray(r), norm=norm), np.conj(np.fft.rfft2(r, norm=swap[norm])), r)


def test_next_fast_len():
    assert [sfft.next_fast_len(n) for n in (0, 1, 6, 11, 13, 97, 1000, 1031)] == [0, 1, 6, 12, 14, 98, 1000, 1050]
    with pytest.raises(ValueError):
        sfft.next_fast_len(-1)


def _packed(y, n):
    """SciPy's fftpack real layout of NumPy's rfft result along the last axis."""
    parts = [y[..., :1].real]
    for k in range(1, y.shape[-1]):
        parts += [y[..., k:k + 1].real, y[..., k:k + 1].imag]
    return np.concatenate(parts, axis=-1)[..., :n]


@pytest.mark.parametrize("n", [None, 1, 2, 7, 8, 15])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_fftpack_rfft_irfft(device, rng, n, dtype):
    x = numpy_input(rng, (3, 8), dtype)
    got = fftpack.rfft(cp.asarray(x), n)
    length = n or 8
    expected = _packed(np.fft.rfft(x, length), length).astype(np.float32 if dtype == np.float32 else np.float64)
    _close(got, expected, x)
    t = fftpack.rfft(cp.asarray(x.T.copy()), n, axis=0)
    _close(t, expected.T, x)
    back = fftpack.irfft(got)
    xs = x[..., :length] if length <= 8 else np.concatenate([x, np.zeros((3, length - 8))], -1)
    _close(back, xs.astype(expected.dtype), x)
    with pytest.raises(TypeError):
        fftpack.rfft(cp.asarray(x) + 1j)


def test_fftpack_c2c(device, rng):
    x = numpy_input(rng, (4, 6, 5), np.complex128)
    a = cp.asarray(x)
    _close(fftpack.fft(a, 8, 1), np.fft.fft(x, 8, 1), x)
    _close(fftpack.ifft(a), np.fft.ifft(x), x)
    _close(fftpack.fftn(a, (2, 3, 4)), np.fft.fftn(x, (2, 3, 4), (0, 1, 2)), x)
    _close(fftpack.ifftn(a, (3, -1), axes=(0, 2)), np.fft.ifftn(x, (3, 5), (0, 2)), x)
    _close(fftpack.fftn(a, 3, axes=1), np.fft.fftn(x, (3,), (1,)), x)
    with pytest.raises(ValueError, match="same length"):
        fftpack.fftn(a, (2, 3))
    plan = get_fft_plan(a, axes=(1, 2))
    _close(fftpack.fftn(a, axes=(1, 2), plan=plan), np.fft.fftn(x, axes=(1, 2)), x)
