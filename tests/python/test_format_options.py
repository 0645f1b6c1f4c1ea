"""Print options: get/set/printoptions, their checks and error messages, against NumPy."""
import sys

import numpy as np
import pytest

import copper as cp


@pytest.fixture(autouse=True)
def restore_options():
    saved = cp.get_printoptions()
    yield
    cp.set_printoptions(**saved)


def test_defaults_match_numpy(device):
    assert cp.get_printoptions() == np.get_printoptions()


def test_set_and_get(device, rng):
    cp.set_printoptions(precision=3, threshold=50, edgeitems=2, linewidth=60, suppress=True, nanstr="NaN",
                        infstr="Inf", sign="+", floatmode="maxprec_equal")
    expected = dict(np.get_printoptions(), precision=3, threshold=50, edgeitems=2, linewidth=60, suppress=True,
                    nanstr="NaN", infstr="Inf", sign="+", floatmode="maxprec_equal")
    assert cp.get_printoptions() == expected
    # Options left as None keep their values.
    cp.set_printoptions(precision=5)
    assert cp.get_printoptions()["linewidth"] == 60
    a = rng.uniform(-5, 5, size=(4, 30))
    a[0, 0] = np.nan
    with np.printoptions(**dict(expected, precision=5)):
        assert repr(cp.asarray(a)) == repr(a)
        assert str(cp.asarray(a)) == str(a)


def test_printoptions_context_restores(device):
    before = cp.get_printoptions()
    with cp.printoptions(precision=2, linewidth=20) as opts:
        assert opts["precision"] == 2 and opts["linewidth"] == 20
        assert repr(cp.asarray(np.array([1.23456, 2.5]))) == "array([1.23, 2.5 ])"
    assert cp.get_printoptions() == before
    with pytest.raises(RuntimeError, match="boom"):
        with cp.printoptions(precision=1):
            raise RuntimeError("boom")
    assert cp.get_printoptions() == before


def test_copper_options_are_separate_from_numpy(device):
    with cp.printoptions(precision=1):
        assert np.get_printoptions()["precision"] == 8
        assert repr(cp.asarray(np.array([1.25]))) == "array([1.2])"


def test_threshold_forms(device):
    cp.set_printoptions(threshold=sys.maxsize)
    with np.printoptions(threshold=sys.maxsize):
        assert repr(cp.asarray(np.arange(1500))) == repr(np.arange(1500))
    cp.set_printoptions(threshold=np.inf)  # common idiom: never summarize
    assert "..." not in repr(cp.asarray(np.arange(1500)))
    cp.set_printoptions(threshold=5.5)
    with np.printoptions(threshold=5.5):
        assert repr(cp.asarray(np.arange(6))) == repr(np.arange(6))
        assert repr(cp.asarray(np.arange(5))) == repr(np.arange(5))


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(threshold="a"), TypeError, "threshold must be numeric"),
    (dict(threshold=float("nan")), ValueError, "threshold must be non-NAN, try sys.maxsize for untruncated"),
    (dict(precision=1.5), TypeError, "precision must be an integer"),
    (dict(sign="x"), ValueError, "sign option must be one of ' ', '\\+', or '-'"),
    (dict(floatmode="x"), ValueError, 'floatmode option must be one of "fixed", "unique", "maxprec", "maxprec_equal"'),
])
def test_bad_options_raise_like_numpy(device, kwargs, exc, message):
    before = cp.get_printoptions()
    with pytest.raises(exc, match=message):
        np.set_printoptions(**kwargs)
    with pytest.raises(exc, match=message):
        cp.set_printoptions(**kwargs)
    assert cp.get_printoptions() == before  # nothing changed on error
    assert np.get_printoptions() == before


def test_negative_precision_fails_when_printing_floats(device):
    cp.set_printoptions(precision=-1)
    with np.printoptions(precision=-1):
        with pytest.raises(ValueError, match="precision must be >= 0"):
            repr(np.array([1.5]))
        with pytest.raises(ValueError, match="precision must be >= 0"):
            repr(cp.asarray(np.array([1.5])))
        assert repr(cp.asarray(np.array([1]))) == repr(np.array([1]))


def test_unsupported_options(device):
    with pytest.raises(NotImplementedError, match="formatter"):
        cp.set_printoptions(formatter={"float": str})
    with pytest.raises(NotImplementedError, match="legacy"):
        cp.set_printoptions(legacy="1.13")
    cp.set_printoptions(legacy=False)  # the current style is accepted
