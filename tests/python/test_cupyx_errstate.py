"""copper.x.errstate(linalg=...): LAPACK / cuSOLVER failures raise LinAlgError (NumPy's
behaviour, the default) or, under 'ignore', give the routine's output, on every device."""
import threading

import numpy as np
import pytest

import copper as cp
import copper.x as cx


def test_default_is_numpys_raise(device):
    assert cx.geterr() == {"linalg": "raise"}
    with pytest.raises(np.linalg.LinAlgError):
        cp.linalg.inv(cp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    with cx.errstate(linalg="raise"):
        with pytest.raises(np.linalg.LinAlgError):
            cp.linalg.cholesky(cp.asarray([[1.0, -2.0], [-2.0, 1.0]]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_ignore_returns_the_routines_output(device, rng, dtype):
    singular = cp.asarray(np.array([[[1, 2], [2, 4]], [[2, 1], [1, 3]]], dtype))
    with cx.errstate(linalg="ignore"):
        inv = cp.linalg.inv(singular)
        assert cx.geterr() == {"linalg": "ignore"}
        cp.linalg.solve(singular, cp.ones((2, 2, 1), dtype))
        cp.linalg.cholesky(cp.asarray(np.array([[1, -2], [-2, 1]], dtype)))
    assert cx.geterr() == {"linalg": "raise"}
    # the regular matrix of the stack is still inverted correctly
    np.testing.assert_allclose(inv[1].get(), np.linalg.inv(np.array([[2, 1], [1, 3]], dtype)), rtol=1e-5)
    assert not np.isfinite(inv[0].get()).all()


def test_good_input_is_unaffected(device, rng):
    a = rng.standard_normal((3, 4, 4)) + 4 * np.eye(4)
    with cx.errstate(linalg="ignore"):
        got = cp.linalg.inv(cp.asarray(a))
    np.testing.assert_allclose(got.get(), np.linalg.inv(a), rtol=1e-10)


def test_seterr_errstate_nest_and_restore():
    old = cx.seterr(linalg="ignore")
    assert old == {"linalg": "raise"}
    try:
        with cx.errstate(linalg="raise"):
            assert cx.geterr()["linalg"] == "raise"
            with cx.errstate():
                assert cx.geterr()["linalg"] == "raise"
        assert cx.geterr()["linalg"] == "ignore"
        with pytest.raises(RuntimeError), cx.errstate(linalg="raise"):
            raise RuntimeError
        assert cx.geterr()["linalg"] == "ignore"
    finally:
        cx.seterr(**old)
    with pytest.raises(ValueError, match="linalg must be"):
        cx.seterr(linalg="warn")
    assert cx.geterr() == {"linalg": "raise"}


def test_mode_is_per_thread():
    seen = []
    with cx.errstate(linalg="ignore"):
        t = threading.Thread(target=lambda: seen.append(cx.geterr()["linalg"]))
        t.start()
        t.join()
    assert seen == ["raise"]
