"""The CPU backend's transcendental, rounding and two-argument math ufuncs beside NumPy, one
process, `out=` given to both (no allocation timed).

    PYTHONPATH=build/python python3 bench/cpu_math_bench.py                 # 1 thread and all cores
    PYTHONPATH=build/python python3 bench/cpu_math_bench.py --quick
    COPPER_CPU_VECTOR_MATH=off PYTHONPATH=build/python python3 bench/cpu_math_bench.py   # libm per element

copper's loops call glibc's libmvec (docs/architecture.md, "The CPU backend"); the inputs
are drawn three ways, since special values take another path through the loops: `clean`
(inside every domain), `mixed` (both signs: the log family's NaNs, errstate's 'invalid'),
`nan50` (half the elements NaN, as in data with missing values). Median ms of 1e7 elements
(--size); ratio = copper / NumPy. Also the integer sums whose loops the same change made SIMD.
"""
import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WallClock, bench_ms  # noqa: E402

UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos",
         "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "floor", "ceil", "trunc",
         "rint"]
BINARY = ["arctan2", "hypot"]
QUICK_UNARY = ["exp", "log", "sin", "tanh", "arcsin", "floor"]


def inputs(rng, n, dtype, kind):
    if kind == "clean":
        x = rng.uniform(0.05, 0.95, n)
    else:
        x = rng.uniform(-2.0, 2.0, n)
    if kind == "nan50":
        x[rng.random(n) < 0.5] = np.nan
    return x.astype(dtype)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=float, default=1e7)
    ap.add_argument("--quick", action="store_true", help="fewer functions, 1e6 elements")
    ap.add_argument("--threads", default=None, help="comma-separated thread counts (default: 1 and all)")
    args = ap.parse_args()
    import copper as cp

    cp.set_default_device("cpu")
    n = int(1e6 if args.quick else args.size)
    threads = [int(t) for t in args.threads.split(",")] if args.threads else sorted({1, os.cpu_count() or 1})
    clock = WallClock(cp.synchronize)
    rng = np.random.default_rng(0)
    warnings.simplefilter("ignore")  # errstate's warnings are raised (and silenced) on both sides
    isa = os.environ.get("COPPER_CPU_VECTOR_MATH", "default")
    print(f"copper CPU math beside NumPy {np.__version__}, {n:.0e} elements, COPPER_CPU_VECTOR_MATH={isa}")
    print()
    print("| function | dtype | input | threads | NumPy ms | copper ms | copper / NumPy |")
    print("|---|---|---|---:|---:|---:|---:|")
    unary = QUICK_UNARY if args.quick else UNARY
    for dtype in ("float32", "float64"):
        for kind in ("clean", "mixed", "nan50"):
            x = inputs(rng, n, dtype, kind)
            y = inputs(rng, n, dtype, kind)
            xc, yc = cp.asarray(x), cp.asarray(y)
            out, outc = np.empty_like(x), cp.empty_like(xc)
            cases = [(name, (x,), (xc,)) for name in unary]
            cases += [(name, (x, y), (xc, yc)) for name in BINARY]
            for name, np_args, cp_args in cases:
                np_fn, cp_fn = getattr(np, name), getattr(cp, name)
                np_ms = bench_ms(lambda: np_fn(*np_args, out=out), WallClock(lambda: None))[0]
                for t in threads:
                    cp.set_num_threads(t)
                    cp_ms = bench_ms(lambda: cp_fn(*cp_args, out=outc), clock)[0]
                    print(f"| {name} | {dtype} | {kind} | {t} | {np_ms:.2f} | {cp_ms:.2f} | {cp_ms / np_ms:.2f} |",
                          flush=True)
    print()
    print("| sum | threads | NumPy ms | copper ms | copper / NumPy |")
    print("|---|---:|---:|---:|---:|")
    for dtype in ("int32", "uint32", "int64"):
        x = rng.integers(-1000, 1000, n).astype(dtype)
        xc = cp.asarray(x)
        np_ms = bench_ms(lambda: np.sum(x), WallClock(lambda: None))[0]
        for t in threads:
            cp.set_num_threads(t)
            cp_ms = bench_ms(lambda: cp.sum(xc), clock)[0]
            print(f"| {dtype} | {t} | {np_ms:.2f} | {cp_ms:.2f} | {cp_ms / np_ms:.2f} |", flush=True)


if __name__ == "__main__":
    main()
