"""Bad arguments to copper.fft raise what numpy.fft raises, with NumPy's messages."""
import numpy as np
import pytest

import copper as cp
from conftest import DEVICES

CASES = [
    ("fft", dict(n=0)),
    ("fft", dict(n=-3)),
    ("ifft", dict(n=0)),
    ("irfft", dict(n=0)),
    ("fft", dict(norm="sideways")),
    ("ifft", dict(norm="sideways")),
    ("rfft", dict(norm="")),
    ("irfft", dict(norm="Ortho")),
    ("hfft", dict(norm="x")),
    ("ihfft", dict(norm="x")),
    ("fft", dict(axis=2)),           # n from a.shape[2]: IndexError
    ("fft", dict(n=4, axis=2)),      # AxisError
    ("ifft", dict(axis=-3)),
    ("rfft", dict(n=4, axis=-3)),
    ("hfft", dict(axis=5)),
    ("fftn", dict(axes=(3,))),       # numpy.take: IndexError
    ("fftn", dict(s=(4,), axes=(3,))),
    ("fftn", dict(s=(4, 4), axes=(0,))),
    ("fft2", dict(s=(4, 4, 4))),
    ("fftn", dict(s=(0, 4), axes=(0, 1))),
    ("irfftn", dict(s=(4, 0), axes=(0, 1))),
    ("rfftn", dict(axes=())),
    ("irfftn", dict(axes=())),
    ("rfft2", dict(norm="bad")),
]


def numpy_error(name, x, kw):
    try:
        getattr(np.fft, name)(x, **kw)
    except Exception as e:  # noqa: BLE001  (the oracle's exception, whatever it is)
        return e
    raise AssertionError(f"numpy.fft.{name}(**{kw}) did not raise")


@pytest.mark.parametrize("name,kw", CASES)
def test_numpy_errors(device, name, kw):
    x = np.arange(12.0).reshape(3, 4)
    expected = numpy_error(name, x, kw)
    with pytest.raises(type(expected)) as got:
        getattr(cp.fft, name)(cp.asarray(x), **kw)
    assert str(got.value) == str(expected)


def test_complex_input_to_real_transforms(device):
    x = np.ones((4, 4), np.complex128)
    for name, kw in [("rfft", {}), ("rfft", {"n": 5}), ("rfftn", {}), ("ihfft", {})]:
        expected = numpy_error(name, x, kw)
        with pytest.raises(TypeError) as got:
            getattr(cp.fft, name)(cp.asarray(x), **kw)
        assert str(got.value) == str(expected)


def test_zero_dimensional_input(device):
    x = np.float64(3.0)
    expected = numpy_error("fft", x, {})
    with pytest.raises(type(expected), match="tuple index out of range"):
        cp.fft.fft(cp.asarray(x))
    r = cp.fft.fftn(cp.asarray(x))
    assert r.shape == () and float(r.get()) == 3.0


def test_non_integer_sizes(device):
    x = cp.ones(4)
    with pytest.raises(TypeError):
        cp.fft.fft(x, n=2.0)
    with pytest.raises(TypeError):
        cp.fft.fftn(x, s=(2.0,), axes=(0,))


def test_nothing_written_on_error(device):
    out = cp.zeros((3, 4), np.complex128)
    with pytest.raises(ValueError):
        cp.fft.fft(cp.ones((3, 4)), n=4, norm="bad", out=out)
    np.testing.assert_array_equal(out.get(), 0)


def test_devices_must_match():
    if "cuda:0" not in DEVICES:
        pytest.skip("needs a GPU")
    x = cp.ones(4, device="cpu")
    with pytest.raises(ValueError):
        cp.fft.fft(x, out=cp.empty(4, np.complex128, device="cuda:0"))


def test_missing_fftw_names_the_package():
    import subprocess
    import sys
    code = "import copper as cp; cp.fft.fft(cp.ones(4, device='cpu'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**__import__("os").environ, "COPPER_FFTW_PATH": "none"})
    assert r.returncode != 0
    assert "RuntimeError" in r.stderr and "libfftw3-double3" in r.stderr
