"""copper's C++ functions are inspectable (copper._signatures): inspect.signature gives
NumPy's parameter names, kinds and defaults, and the forwarding wrapper changes no call."""
import inspect

import numpy as np
import pytest

import copper as cp
from copper import _core, _signatures


def test_every_public_function_has_a_signature():
    missing = []
    for name in dir(cp):
        fn = getattr(cp, name)
        if name.startswith("_") or isinstance(fn, type) or not callable(fn):
            continue
        if type(fn).__name__ == "nb_func" and len(fn.__nb_signature__) == 1:
            missing.append(name)
    assert missing == [], f"nanobind functions left uninspectable: {missing}"


@pytest.mark.parametrize("name, expected", [
    ("zeros", "(shape, dtype=None, order='C', *, device=None, like=None)"),
    ("linspace", None),
    ("meshgrid", "(*xi, copy=True, sparse=False, indexing='xy')"),
    ("take", "(a, indices, axis=None, out=None, mode='raise')"),
    ("can_cast", "(from_, to, casting='safe')"),
    ("where", "(condition, x=None, y=None)"),
])
def test_signatures_match_numpy(name, expected):
    sig = inspect.signature(getattr(cp, name))
    numpy_sig = inspect.signature(getattr(np, name)) if expected is None else None
    if expected is not None:
        assert str(sig) == expected
    else:  # the parameters NumPy has, in NumPy's order, before copper's keyword-only extras
        def names(s):
            return [p for p in s.parameters if p not in ("device", "like")]
        assert names(sig) == names(numpy_sig)


def test_wrappers_forward_every_call_unchanged(device, rng):
    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
    a = cp.zeros(shape, "f4", "F", device=device)
    assert a.flags.f_contiguous and a.dtype == np.float32 and a.shape == shape
    assert cp.zeros.__name__ == "zeros" and cp.zeros.__module__ == "copper"
    assert cp.zeros.__doc__ == _core.zeros.__doc__
    x = rng.standard_normal(7)
    idx = rng.integers(-7, 7, size=4)
    np.testing.assert_array_equal(cp.take(cp.asarray(x, device=device), idx).get(), np.take(x, idx))
    with pytest.raises(IndexError):  # errors pass through as they are (a GPU's at the next synchronization)
        cp.take(cp.asarray(x, device=device), [9]).get()
    with pytest.raises(TypeError):
        cp.zeros(3, bogus=1)


def test_parser_handles_positional_only_and_bracketed_annotations():
    class Fake:
        __nb_signature__ = (("def f(a: tuple[int, int], b: int = \\0, /, c: str = 'x', *args, "
                             "d: dict[str, int] = \\1, **kw) -> None", None, (3, {"k": 1})),)
    sig = _signatures.signature_of(Fake())
    assert str(sig) == "(a, b=3, /, c='x', *args, d={'k': 1}, **kw)"
    class Overloaded:
        __nb_signature__ = (("def f(a: int) -> None", None, ()), ("def f(a: str) -> None", None, ()))
    assert _signatures.signature_of(Overloaded()) is None


def test_linalg_functions_and_dlpack_are_inspectable():
    """copper.linalg's C++ functions and ndarray.__dlpack__ show their parameters (the array
    API suite checks the names and keyword-only ones)."""
    assert list(inspect.signature(cp.linalg.cholesky).parameters) == ["a", "upper"]
    assert list(inspect.signature(cp.linalg.tensordot).parameters) == ["a", "b", "axes"]
    sig = inspect.signature(cp.arange(3.0).__dlpack__)
    assert list(sig.parameters) == ["stream", "max_version", "dl_device", "copy"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in sig.parameters.values())
    assert cp.from_dlpack(cp.arange(3.0)).get().tolist() == [0.0, 1.0, 2.0]
