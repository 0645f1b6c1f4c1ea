"""scikit-learn estimators with array API dispatch take copper arrays (copper is its own
array API namespace) and match their NumPy results. Skipped where scikit-learn or
array-api-compat is not installed (scripts/setup installs both)."""
import os
import sys

import numpy as np
import pytest

import copper as cp

# scikit-learn's array API dispatch needs SciPy's, switched on before SciPy is imported.
_scipy_was_imported = "scipy" in sys.modules and os.environ.get("SCIPY_ARRAY_API") != "1"
os.environ["SCIPY_ARRAY_API"] = "1"
sklearn = pytest.importorskip("sklearn")
pytest.importorskip("array_api_compat")
if _scipy_was_imported:
    pytest.skip("SciPy was imported before SCIPY_ARRAY_API=1 could be set", allow_module_level=True)


def _missing_prerequisites():
    """What scikit-learn calls that other parts of copper provide (asarray's copy=, take,
    unique_values, boolean masks); the tests skip, naming them, until all are there."""
    missing = []
    try:
        cp.asarray(cp.zeros(1), copy=None)
    except TypeError:
        missing.append("asarray(copy=)")
    missing += [name for name in ("take", "unique_values", "unique_inverse") if not hasattr(cp, name)]
    try:
        z = cp.zeros(2)
        z[z < 0] = 1
    except NotImplementedError:
        missing.append("boolean-mask assignment")
    return missing


@pytest.fixture
def xy(device):
    if _missing_prerequisites():
        pytest.skip("needs " + ", ".join(_missing_prerequisites()))
    rng = np.random.default_rng(31)
    X = rng.normal(size=(80, 6)) @ rng.normal(size=(6, 6)) + rng.normal(size=6)
    y = X @ rng.normal(size=6) + 0.1 * rng.normal(size=80)
    labels = (X[:, 0] + X[:, 1] > np.median(X[:, 0] + X[:, 1])).astype(np.int64) + (X[:, 2] > 0)
    return X, y, labels


def fit_both(make, X, *args, method="transform"):
    """Fits one estimator on NumPy and one on copper (array API dispatch on)."""
    ref = make().fit(X, *args)
    with sklearn.config_context(array_api_dispatch=True):
        est = make().fit(cp.asarray(X), *[cp.asarray(a) for a in args])
        out = getattr(est, method)(cp.asarray(X))
    return ref, est, out


def as_host(v):
    return v.get() if isinstance(v, cp.ndarray) else np.asarray(v)


def test_standard_scaler(xy):
    from sklearn.preprocessing import StandardScaler
    X, _, _ = xy
    ref, est, out = fit_both(StandardScaler, X)
    assert isinstance(out, cp.ndarray)
    np.testing.assert_allclose(out.get(), ref.transform(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(as_host(est.mean_), ref.mean_, rtol=1e-12)
    np.testing.assert_allclose(as_host(est.scale_), ref.scale_, rtol=1e-12)


def test_pca(xy):
    from sklearn.decomposition import PCA
    X, _, _ = xy
    ref, est, out = fit_both(lambda: PCA(n_components=3, svd_solver="full"), X)
    assert isinstance(out, cp.ndarray)
    np.testing.assert_allclose(as_host(est.explained_variance_), ref.explained_variance_, rtol=1e-10)
    # Components are defined up to sign; sklearn flips them deterministically, so they match.
    np.testing.assert_allclose(np.abs(as_host(est.components_)), np.abs(ref.components_), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(np.abs(out.get()), np.abs(ref.transform(X)), rtol=1e-8, atol=1e-10)


def test_ridge(xy):
    from sklearn.linear_model import Ridge
    X, y, _ = xy
    ref, est, out = fit_both(lambda: Ridge(alpha=0.5, solver="svd"), X, y, method="predict")
    assert isinstance(out, cp.ndarray)
    np.testing.assert_allclose(as_host(est.coef_), ref.coef_, rtol=1e-9)
    np.testing.assert_allclose(out.get(), ref.predict(X), rtol=1e-9)


def test_linear_discriminant_analysis(xy):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    X, _, labels = xy
    ref, est, out = fit_both(lambda: LinearDiscriminantAnalysis(solver="svd"), X, labels, method="predict")
    assert isinstance(out, cp.ndarray)
    np.testing.assert_array_equal(out.get(), ref.predict(X))
    with sklearn.config_context(array_api_dispatch=True):
        proba = est.predict_proba(cp.asarray(X))
    np.testing.assert_allclose(proba.get(), ref.predict_proba(X), rtol=1e-8, atol=1e-12)
