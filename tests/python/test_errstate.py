"""seterr / geterr / seterrcall / errstate (issue 14): copper reports divide-by-zero,
overflow and invalid where NumPy does, element by element over special values, with
NumPy's messages, in every mode ('ignore', 'warn', 'raise', 'call', 'print', 'log').
On a GPU the errors are reported at the next synchronization: these tests read results
back (a synchronization) inside the checked block."""
import warnings

import numpy as np
import pytest

import copper as cp

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -0.5, np.inf, -np.inf, np.nan, 1e300, -1e300, 3e38, 1e-300]

UNARY = ["reciprocal", "square", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
         "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
         "negative", "absolute", "floor", "rint", "sign", "spacing", "deg2rad", "fabs"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power", "float_power",
          "arctan2", "hypot", "maximum", "minimum", "fmax", "fmin", "copysign", "logaddexp", "logaddexp2",
          "heaviside", "divmod", "nextafter"]

def messages(fn, sync):
    """The RuntimeWarning messages fn() gives, with the result read back inside the block."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
        if sync:
            for r in result if isinstance(result, tuple) else (result,):
                r.get()
    return sorted({str(w.message) for w in caught if w.category is RuntimeWarning})


def fresh_state():
    cp.seterr(divide="warn", over="warn", under="ignore", invalid="warn")


@pytest.fixture(autouse=True)
def _default_state():
    old = cp.seterr()
    fresh_state()
    yield
    cp.seterr(**old)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_unary_warnings_match_numpy(device, name, dtype):
    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
    for v in SPECIAL:
        with np.errstate(over="ignore", invalid="ignore"):
            h = np.array([v]).astype(dtype)  # 1e300 -> inf in float32: the input, not the op
        expected = messages(lambda: np_fn(h), False)
        got = messages(lambda: cp_fn(cp.asarray(h)), True)
        assert got == expected, (name, dtype, v)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_binary_warnings_match_numpy(device, name, dtype):
    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
    with np.errstate(all="ignore"):
        values = np.array(SPECIAL).astype(dtype)
    for x in values:
        hx = np.array([x])
        hy = values
        expected = messages(lambda: np_fn(hx, hy), False)
        got = messages(lambda: cp_fn(cp.asarray(hx), cp.asarray(hy)), True)
        assert got == expected, (name, dtype, x)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint64])
@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod"])
def test_integer_division_by_zero(device, name, dtype):
    h = np.array([7, 0, 3]).astype(dtype)
    for divisor in [np.array([1, 2, 0]).astype(dtype), np.array([1, 2, 3]).astype(dtype)]:
        expected = messages(lambda: getattr(np, name)(h, divisor), False)
        got = messages(lambda: getattr(cp, name)(cp.asarray(h), cp.asarray(divisor)), True)
        assert got == expected


@pytest.mark.parametrize("dtype", [np.complex128, np.float16])
def test_other_float_types(device, dtype):
    for name, args in [("divide", ([1 + 0j, 0j, 2], [0j, 0j, 1])), ("log", ([0j, 1, -1],)),
                       ("multiply", ([6e4, 1e300, 2], [2, 1e300, 3])), ("sqrt", ([-1, 4, 0],))]:
        with np.errstate(all="ignore"):
            hs = [np.array(a).astype(dtype) if np.dtype(dtype).kind == "c" else np.real(np.array(a)).astype(dtype)
                  for a in args]
        expected = messages(lambda: getattr(np, name)(*hs), False)
        got = messages(lambda: getattr(cp, name)(*[cp.asarray(h) for h in hs]), True)
        assert got == expected, (name, dtype)


def test_in_place_and_strided_and_broadcast(device):
    x = cp.asarray(np.array([1.0, 0.0, 3.0, 4.0]))
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
        x /= cp.asarray(np.array([0.0, 1.0, 1.0, 1.0]))
        x.get()
    y = cp.asarray(np.array([[1.0, -1.0], [4.0, 9.0]]))
    with pytest.warns(RuntimeWarning, match="invalid value encountered in sqrt"):
        cp.sqrt(y.T[::-1]).get()
    with pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
        (cp.full((3, 1), 1e300) * cp.full((1, 4), 1e300)).get()
    big = cp.full(100_000, 2.0)
    big[77_777] = 0.0
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in log"):
        cp.log(big).get()


def numpy_power_flags_exact_infinities():
    """Whether NumPy's same-shape power loop raises overflow for 1e300**inf, whose infinite
    result is exact (IEEE 754 raises nothing): NumPy 2.5 does, and 2.4 does or not with the
    platform's pow."""
    with np.errstate(over="raise"):
        try:
            np.power(np.array([1e300, 2.0]), np.array([np.inf, 1.0]))
        except FloatingPointError:
            return True
    return False


@pytest.mark.parametrize("name", ["add", "multiply", "divide", "power", "floor_divide", "arctan2", "divmod"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_in_place_matches_numpy(device, name, dtype):
    """An output that is also an input (x += y, out=y, strided, past one block of the CPU
    loops): the flags come from the values the op read, not the ones it wrote."""
    if name == "power" and numpy_power_flags_exact_infinities():
        pytest.skip("this NumPy's power loops flag exact infinite results (1e300**inf: overflow), as NumPy 2.5 "
                    "does and NumPy 2.4 does where its libm pow does not raise; copper follows IEEE 754 (no flag)")
    with np.errstate(all="ignore"):
        values = np.array(SPECIAL).astype(dtype)
    np_fn, cp_fn = getattr(np, name), getattr(cp, name)
    nout = 2 if name == "divmod" else 1
    for shift in range(len(values)):
        hx, hy = values, np.roll(values, shift)
        for target in (0, 1, 2):  # overwrite x, then y, then x read twice (x * x)
            for pad in (0, 2500):  # the special values past the first CPU block
                for step in (1, 2):
                    def call(fn, xp, h):
                        x = xp.asarray(np.concatenate([np.ones(pad, dtype), hx]).repeat(step))[::step]
                        y = xp.asarray(np.concatenate([np.ones(pad, dtype), hy]).repeat(step))[::step]
                        y = x if target == 2 else y
                        out = (x, y, x)[target]  # the pad's ones give no errors
                        return fn(x, y, out=(out,) + ((xp.empty_like(out),) if nout == 2 else ()))
                    expected = messages(lambda: call(np_fn, np, hx), False)
                    got = messages(lambda: call(cp_fn, cp, hx), True)
                    assert got == expected, (name, dtype, shift, target, pad, step)


def test_no_warning_without_errors(device):
    rng = np.random.default_rng(0)
    x = cp.asarray(rng.uniform(1, 2, 1000))
    assert messages(lambda: (cp.log(x), x / x, cp.sqrt(x) * 3), True) == []


def test_seterr_geterr_like_numpy():
    assert cp.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    old = cp.seterr(all="ignore", invalid="raise")
    assert old == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    assert cp.geterr() == {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "raise"}
    with pytest.raises(ValueError):
        cp.seterr(divide="loud")
    cp.seterr(**old)
    assert cp.geterr() == old


def test_modes(device, capsys):
    zero = cp.asarray(np.array([0.0]))
    with cp.errstate(divide="ignore"):
        assert messages(lambda: cp.log(zero), True) == []
    assert cp.geterr()["divide"] == "warn"
    with cp.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
            cp.log(zero).get()
    with cp.errstate(divide="print"):
        cp.log(zero).get()
    assert "Warning: divide by zero encountered in log" in capsys.readouterr().out
    calls = []
    with cp.errstate(call=lambda kind, flag: calls.append((kind, flag)), divide="call", invalid="call"):
        cp.log(zero).get()
        cp.sqrt(cp.asarray(np.array([-1.0]))).get()
    assert calls == [("divide by zero", 1), ("invalid value", 8)]

    class Log:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.append(text)

    log = Log()
    with cp.errstate(call=log, over="log"):
        cp.exp(cp.asarray(np.array([1000.0]))).get()
    assert log.lines == ["Warning: overflow encountered in exp\n"]
    assert cp.geterrcall() is None


def test_seterrcall_checks_and_errstate_decorates():
    assert cp.seterrcall(print) is None
    assert cp.geterrcall() is print
    assert cp.seterrcall(None) is print
    with pytest.raises(ValueError):
        cp.seterrcall(3)

    @cp.errstate(invalid="ignore")
    def quiet():
        return messages(lambda: cp.sqrt(cp.asarray(np.array([-1.0]))), True)

    assert quiet() == []
    assert cp.geterr()["invalid"] == "warn"


def test_warnings_as_errors_raise(device):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="overflow encountered in multiply"):
            (cp.asarray(np.array([1e300])) * 1e300).get()
