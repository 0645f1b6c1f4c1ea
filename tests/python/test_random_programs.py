"""Random programs against NumPy: short sequences of elementwise ops, views, in-place
updates, out= into overlapping or reversed slices, deferred temporaries used later, setitem
and reductions, run by NumPy and by copper (with automatic fusion on and off), then every
array the program holds is compared. Seeded, so a failure names its program; the
generators below print it (`python -c "import test_random_programs as t; t.show(SEED)"`)."""
import warnings

import numpy as np
import pytest

import copper as cp

BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "true_divide", "hypot", "arctan2", "copysign", "fmax"]
UNARY = ["negative", "sqrt", "exp", "abs", "square", "sin", "floor", "reciprocal", "log1p", "sign"]
COMPARE = ["less", "equal", "greater_equal"]
DTYPES = [np.float64, np.float32, np.int32, np.int64, np.int16, np.uint8, np.bool_, np.complex128]


def first_builtin(e):
    return next(t for t in type(e).__mro__ if t.__module__ == "builtins")


def same_outcome(run_numpy, run_copper):
    """Runs both; both raise an exception of the same builtin type, or neither does."""
    try:
        run_numpy()
        numpy_error = None
    except Exception as e:  # NumPy's own refusal is part of the oracle
        numpy_error = e
    try:
        run_copper()
        copper_error = None
    except Exception as e:
        copper_error = e
    if (numpy_error is None) != (copper_error is None) or (
            numpy_error and first_builtin(numpy_error) is not first_builtin(copper_error)):
        raise AssertionError(f"NumPy: {numpy_error!r}; copper: {copper_error!r}")
    return numpy_error is None


def draw(rng, dtype, shape):
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0 if dtype == np.uint8 else -20, 20, size=shape).astype(dtype)
    if dtype == np.complex128:
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape).astype(dtype)


def chain_program(seed, device, log):
    """Elementwise chains over three arrays of one random shape, with views and writes."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(s) for s in rng.integers(1, 6, size=rng.integers(1, 4)))
    ns = [draw(rng, DTYPES[rng.integers(len(DTYPES))], shape) for _ in range(3)]
    cs = [cp.asarray(a, device=device) for a in ns]

    def add(numpy_op, copper_op, text):
        """A new variable from both libraries' results, when neither refuses the op."""
        log.append(f"v{len(ns)} = {text}")
        results = []
        if same_outcome(lambda: results.append(numpy_op()), lambda: results.append(copper_op())):
            ns.append(np.asarray(results[0]))
            cs.append(results[1])

    for _ in range(rng.integers(3, 15)):
        r = rng.random()
        i, j = int(rng.integers(len(ns))), int(rng.integers(len(ns)))
        if r < 0.35:
            op = BINARY[rng.integers(len(BINARY))]
            add(lambda: getattr(np, op)(ns[i], ns[j]), lambda: getattr(cp, op)(cs[i], cs[j]), f"{op}(v{i}, v{j})")
        elif r < 0.55:
            op = UNARY[rng.integers(len(UNARY))]
            add(lambda: getattr(np, op)(ns[i]), lambda: getattr(cp, op)(cs[i]), f"{op}(v{i})")
        elif r < 0.62:
            op = COMPARE[rng.integers(len(COMPARE))]
            add(lambda: getattr(np, op)(ns[i], ns[j]), lambda: getattr(cp, op)(cs[i], cs[j]), f"{op}(v{i}, v{j})")
        elif r < 0.72:
            s = float(rng.integers(-3, 4)) if rng.random() < 0.5 else int(rng.integers(1, 4))
            op = ["add", "multiply", "subtract"][rng.integers(3)]
            log.append(f"{op}(v{i}, {s!r}, out=v{i})")
            same_outcome(lambda: getattr(np, op)(ns[i], s, out=ns[i]), lambda: getattr(cp, op)(cs[i], s, out=cs[i]))
        elif r < 0.8:
            view = [lambda a: a[::-1], lambda a: a.T, lambda a: a[..., ::2]][rng.integers(3)]
            add(lambda: view(ns[i]), lambda: view(cs[i]), f"view of v{i}")
        elif r < 0.88:
            op = ["sum", "max", "mean", "prod"][rng.integers(4)]
            axis = None if ns[i].ndim == 0 or rng.random() < 0.3 else int(rng.integers(ns[i].ndim))
            add(lambda: getattr(np, op)(ns[i], axis=axis), lambda: getattr(cp, op)(cs[i], axis=axis), f"{op}(v{i}, axis={axis})")
        elif r < 0.94:
            log.append(f"v{i}[...] = where(real(v{j}) > 0, v{i}, 1)")
            same_outcome(lambda: ns[i].__setitem__(Ellipsis, np.where(np.real(ns[j]) > 0, ns[i], 1)),
                         lambda: cs[i].__setitem__(Ellipsis, cp.where(cp.real(cs[j]) > 0, cs[i], 1)))
        else:
            # Casts of computed floats to integers would test the last bit of sin or exp
            # (C libraries differ there), so computed values go to wide types only.
            target = [np.float64, np.complex128, np.float32][rng.integers(3)]
            add(lambda: ns[i].astype(target), lambda: cs[i].astype(target), f"v{i}.astype({target.__name__})")
    return ns, cs


def slice_of(rng, n, length):
    step = int(rng.choice([1, 2, -1, -2]))
    if (length - 1) * abs(step) + 1 > n:
        step = 1 if step > 0 else -1
    span = (length - 1) * abs(step) + 1
    start = int(rng.integers(0, n - span + 1))
    if step > 0:
        return slice(start, start + span, step)
    return slice(start + span - 1, None if start == 0 else start - 1, step)


def alias_program(seed, device, log):
    """Three 1-D arrays; ops between equal-length slices written through out= into slices
    that may overlap the inputs (reversed, strided), in-place operators, temporaries."""
    rng = np.random.default_rng(seed)
    n = 12
    ns = [(rng.standard_normal(n) * 4).astype([np.float64, np.float32, np.int64][rng.integers(3)]) for _ in range(3)]
    cs = [cp.asarray(a, device=device) for a in ns]
    tn, tc = [], []
    for _ in range(rng.integers(2, 12)):
        r = rng.random()
        length = int(rng.integers(1, 6))
        i, j, k = (int(x) for x in rng.integers(0, 3, size=3))
        si, sj, sk = (slice_of(rng, n, length) for _ in range(3))
        if r < 0.35:
            op = BINARY[rng.integers(7)]
            log.append(f"{op}(a{i}[{si}], a{j}[{sj}], out=a{k}[{sk}])")
            same_outcome(lambda: getattr(np, op)(ns[i][si], ns[j][sj], out=ns[k][sk]),
                         lambda: getattr(cp, op)(cs[i][si], cs[j][sj], out=cs[k][sk]))
        elif r < 0.55:
            log.append(f"a{k}[{sk}] += a{j}[{sj}] * 2")

            def numpy_step():
                ns[k][sk] += ns[j][sj] * 2

            def copper_step():
                cs[k][sk] += cs[j][sj] * 2

            same_outcome(numpy_step, copper_step)
        elif r < 0.7:
            log.append(f"t{len(tn)} = sqrt(abs(a{i}[{si}])) - a{j}[{sj}]")
            tn.append(np.sqrt(np.abs(ns[i][si])) - ns[j][sj])
            tc.append(cp.sqrt(cp.abs(cs[i][si])) - cs[j][sj])
        elif r < 0.82 and tn:
            t = int(rng.integers(len(tn)))
            if tn[t].shape[0] == length:
                log.append(f"a{k}[{sk}] = t{t}")
                same_outcome(lambda: ns[k].__setitem__(sk, tn[t]), lambda: cs[k].__setitem__(sk, tc[t]))
        elif r < 0.9:
            log.append(f"t{len(tn)} = a{i}.sum() + a{j}[{sj}]")
            tn.append(ns[i].sum() + ns[j][sj])
            tc.append(cs[i].sum() + cs[j][sj])
        else:
            log.append(f"a{k}[{sk}] *= -1")
            ns[k][sk] *= -1
            cs[k][sk] *= -1
    return ns + tn, cs + tc


def compare_all(ns, cs, log):
    for q, (n, c) in enumerate(zip(ns, cs)):
        got, want = cp.asnumpy(c), np.asarray(n)
        assert got.shape == want.shape and got.dtype == want.dtype, (q, got.dtype, want.dtype, "\n".join(log))
        if want.dtype.kind in "fc":
            tol = 1e-4 if want.dtype in (np.float32, np.complex64, np.float16) else 1e-5
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg="\n".join(log))
        else:
            np.testing.assert_array_equal(got, want, err_msg="\n".join(log))


def run(program, seed, device):
    log = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ns, cs = program(seed, device, log)
        except AssertionError as e:
            raise AssertionError(f"seed {seed}: {e}\n" + "\n".join(log)) from None
        compare_all(ns, cs, log)


def show(seed, program=chain_program):
    log = []
    program(seed, "cpu", log)
    print("\n".join(log))


@pytest.fixture(params=[True, False], ids=["fused", "eager"])
def fusion(request):
    was = cp.fusion_enabled()
    cp.set_fusion(request.param)
    yield request.param
    cp.set_fusion(was)


@pytest.mark.parametrize("block", range(4))
def test_random_elementwise_programs(device, fusion, block):
    for seed in range(block * 100, block * 100 + 100):
        run(chain_program, seed, device)


@pytest.mark.parametrize("block", range(4))
def test_random_aliasing_programs(device, fusion, block):
    for seed in range(10_000 + block * 150, 10_000 + block * 150 + 150):
        run(alias_program, seed, device)
