"""The CPU backend's ops that are neither libmvec calls (bench/cpu_math_bench.py) nor plain
arithmetic, beside NumPy in one process: dot products, ufuncs whose inputs need a
conversion, frexp / ldexp, bitwise_count and power.

    PYTHONPATH=build/python python3 bench/cpu_ops_bench.py              # 1 thread and all cores
    PYTHONPATH=build/python python3 bench/cpu_ops_bench.py --threads 1

Median ms of one call at 1e6 elements (--size); ratio = copper / NumPy. Each row's values are
checked against NumPy first (exactly, or to a few ulp where the two libraries round
differently), so a fast wrong answer cannot pass as a result.
"""
import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WallClock, bench_ms  # noqa: E402


def cases(rng, n):
    """(name, NumPy callable, copper callable factory over converted arrays, rtol) rows."""
    rows = []
    for dt in ("float32", "float64", "int64", "complex128"):
        a = (rng.standard_normal(n) * 10).astype(dt)
        b = (rng.standard_normal(n) * 10).astype(dt)
        m = (rng.standard_normal((1000, 1000)) * 10).astype(dt)
        v = (rng.standard_normal(1000) * 10).astype(dt)
        tol = 0 if dt == "int64" else 1e-4 if dt == "float32" else 1e-10
        rows.append((f"dot {dt}", lambda a=a, b=b: np.dot(a, b), ("dot", a, b), tol))
        rows.append((f"vecdot {dt}", lambda a=a, b=b: np.vecdot(a, b), ("vecdot", a, b), tol))
        rows.append((f"matrix @ vector {dt}", lambda m=m, v=v: m @ v, ("matmul", m, v), tol))
    mixed = [("int32", "float64", "add"), ("float32", "float64", "add"), ("int64", "float32", "multiply"),
             ("int32", "int64", "add"), ("int32", "float32", "less")]
    for ta, tb, op in mixed:
        a = (rng.standard_normal(n) * 100).astype(ta)
        b = (rng.standard_normal(n) * 100).astype(tb)
        rows.append((f"{op} {ta}, {tb}", lambda a=a, b=b, op=op: getattr(np, op)(a, b), (op, a, b), 0))
    ia = rng.integers(1, 1000, n).astype(np.int32)
    ib = rng.integers(1, 1000, n).astype(np.int32)
    rows.append(("true_divide int32, int32", lambda: np.true_divide(ia, ib), ("true_divide", ia, ib), 0))
    rows.append(("sqrt int32", lambda: np.sqrt(ia), ("sqrt", ia), 0))
    for dt in ("float32", "float64"):
        x = (rng.standard_normal(n) * 1e3).astype(dt)
        k32 = rng.integers(-20, 20, n).astype(np.int32)
        k64 = k32.astype(np.int64)
        rows.append((f"frexp {dt}", lambda x=x: np.frexp(x), ("frexp", x), 0))
        rows.append((f"ldexp {dt}, int32", lambda x=x, k=k32: np.ldexp(x, k), ("ldexp", x, k32), 0))
        rows.append((f"ldexp {dt}, int64", lambda x=x, k=k64: np.ldexp(x, k), ("ldexp", x, k64), 0))
        p = np.abs(x) / 1e3
        y = (rng.random(n) * 3).astype(dt)
        rows.append((f"power {dt} ** 0.5", lambda p=p: np.power(p, 0.5), ("power", p, 0.5), 0))
        rows.append((f"power {dt} ** 2.7", lambda p=p: np.power(p, 2.7), ("power", p, 2.7), 1e-6))
        rows.append((f"power {dt} ** array", lambda p=p, y=y: np.power(p, y), ("power", p, y), 1e-6))
        # Integer bases to an integer power: exact results, which double pow takes from libm.
        k = rng.integers(-100, 100, n).astype(dt)
        rows.append((f"power {dt} (integers) ** 3", lambda k=k: np.power(k, 3), ("power", k, 3), 0))
    for dt in ("int8", "int32", "int64", "uint64"):
        info = np.iinfo(dt)
        z = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        rows.append((f"bitwise_count {dt}", lambda z=z: np.bitwise_count(z), ("bitwise_count", z), 0))
    return rows


def agree(got, want, rtol):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        g = g.get() if hasattr(g, "get") else np.asarray(g)
        w = np.asarray(w)
        if g.dtype != w.dtype or g.shape != w.shape:
            return False
        if rtol == 0:
            if not np.array_equal(g, w, equal_nan=True):
                return False
        elif not np.allclose(g, w, rtol=rtol, atol=rtol * float(np.max(np.abs(w), initial=0))):
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=float, default=1e6)
    ap.add_argument("--threads", default=None, help="comma-separated thread counts (default: 1 and all)")
    args = ap.parse_args()
    import copper as cp

    cp.set_default_device("cpu")
    n = int(args.size)
    threads = [int(t) for t in args.threads.split(",")] if args.threads else sorted({1, os.cpu_count() or 1})
    clock = WallClock(cp.synchronize)
    rng = np.random.default_rng(0)
    warnings.simplefilter("ignore")
    print(f"copper CPU ops beside NumPy {np.__version__}, {n:.0e} elements (matrix @ vector: 1000 x 1000)")
    print()
    print("| op | threads | NumPy ms | copper ms | copper / NumPy |")
    print("|---|---:|---:|---:|---:|")
    for name, np_call, (op, *operands), rtol in cases(rng, n):
        converted = [cp.asarray(o) if isinstance(o, np.ndarray) else o for o in operands]
        cp_call = (lambda f=getattr(cp, op), c=converted: f(*c))
        if not agree(cp_call(), np_call(), rtol):
            print(f"| {name} | - | - | - | WRONG RESULT |", flush=True)
            continue
        np_ms = bench_ms(np_call, WallClock(lambda: None))[0]
        for t in threads:
            cp.set_num_threads(t)
            cp_ms = bench_ms(cp_call, clock)[0]
            print(f"| {name} | {t} | {np_ms:.3f} | {cp_ms:.3f} | {cp_ms / np_ms:.2f} |", flush=True)


if __name__ == "__main__":
    main()
