"""Ufunc objects (issue 21) and the new elementwise ops (issue 14): copper beside NumPy
(and CuPy on a GPU) in one process.

    PYTHONPATH=build/python python3 bench/ufunc_bench.py            # CPU here, GPU where copper finds one
    PYTHONPATH=build/python python3 bench/ufunc_bench.py --quick

(a) Per-call host overhead on 10 float64 elements: `x + y`, `add(x, y)`, `add(x, y, out=o)`,
    `sqrt(x)`, keyword calls (`where=`, `dtype=`, `signature=`), `add.reduce`, `add.outer`.
    Goal: `x + y` and `add(x, y)` no slower than the bound functions before ufunc objects.
(b) Methods on large arrays: add.reduce / subtract.reduce / maximum.accumulate /
    subtract.accumulate / add.reduceat / multiply.outer; the ops with a ReduceOp run the
    parallel reductions, the others the sequential fold (Backend::fold).
(c) New elementwise ops on 1e7 elements: float_power, logaddexp, copysign, ldexp, divmod,
    frexp, gcd, isclose.

GPU times use each library's CUDA events; CPU ones the host clock. Prints one markdown table.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WallClock, bench_ms  # noqa: E402


def libraries():
    import copper
    libs = {"numpy": (np, WallClock(lambda: None))}
    on_gpu = copper.cuda.is_available()
    if on_gpu:
        copper.set_default_device("cuda:0")
        libs["copper"] = (copper, WallClock(lambda: copper.cuda.Device().synchronize()))
        try:
            import cupy
            cupy.zeros(1)
            libs["cupy"] = (cupy, WallClock(lambda: cupy.cuda.Device().synchronize()))
        except Exception as e:  # noqa: BLE001
            print(f"CuPy skipped: {e}", file=sys.stderr)
    else:
        libs["copper"] = (copper, WallClock(lambda: None))
    return libs, on_gpu


def workloads(xp, n, rows):
    rng = np.random.default_rng(0)
    host = {
        "x10": rng.random(10), "y10": rng.random(10), "x": rng.random(n) + 0.5, "y": rng.random(n) + 0.5,
        "i": rng.integers(1, 1000, n), "j": rng.integers(1, 1000, n), "e": rng.integers(-20, 20, n),
        "m": rng.random((rows, n // rows)), "mask10": rng.random(10) < 0.5,
        "idx": np.sort(rng.integers(0, n, 1000)), "v": rng.random(3000),
    }
    d = {k: xp.asarray(v) for k, v in host.items()}
    o10 = xp.empty(10)
    return [
        ("overhead", "x + y (10 f64)", lambda: d["x10"] + d["y10"]),
        ("overhead", "add(x, y) (10 f64)", lambda: xp.add(d["x10"], d["y10"])),
        ("overhead", "add(x, y, out=o)", lambda: xp.add(d["x10"], d["y10"], out=o10)),
        ("overhead", "sqrt(x)", lambda: xp.sqrt(d["x10"])),
        ("overhead", "add(x, 1.0)", lambda: xp.add(d["x10"], 1.0)),
        ("overhead", "add(x, y, where=m, out=o)", lambda: xp.add(d["x10"], d["y10"], where=d["mask10"], out=o10)),
        ("overhead", "add(x, y, dtype=f4)", lambda: xp.add(d["x10"], d["y10"], dtype=np.float32)),
        ("overhead", "add(x, y, signature='dd->d')", lambda: xp.add(d["x10"], d["y10"], signature="dd->d")),
        ("overhead", "add.reduce(x)", lambda: xp.add.reduce(d["x10"])),
        ("overhead", "add.outer(x, y)", lambda: xp.add.outer(d["x10"], d["y10"])),
        ("methods", "add.reduce(m, axis=1)", lambda: xp.add.reduce(d["m"], axis=1)),
        ("methods", "subtract.reduce(m, axis=1)", lambda: xp.subtract.reduce(d["m"], axis=1)),
        ("methods", "subtract.reduce(m, axis=0)", lambda: xp.subtract.reduce(d["m"], axis=0)),
        ("methods", "maximum.accumulate(m, axis=0)", lambda: xp.maximum.accumulate(d["m"], axis=0)),
        ("methods", "subtract.accumulate(x)", lambda: xp.subtract.accumulate(d["x"])),
        ("methods", "add.reduceat(x, 1000 idx)", lambda: xp.add.reduceat(d["x"], d["idx"])),
        ("methods", "multiply.outer(v, v)", lambda: xp.multiply.outer(d["v"], d["v"])),
        ("ops", "float_power(x, y)", lambda: xp.float_power(d["x"], d["y"])),
        ("ops", "logaddexp(x, y)", lambda: xp.logaddexp(d["x"], d["y"])),
        ("ops", "copysign(x, -y)", lambda: xp.copysign(d["x"], d["y"])),
        ("ops", "ldexp(x, e)", lambda: xp.ldexp(d["x"], d["e"])),
        ("ops", "divmod(x, y)", lambda: xp.divmod(d["x"], d["y"])),
        ("ops", "frexp(x)", lambda: xp.frexp(d["x"])),
        ("ops", "gcd(i, j)", lambda: xp.gcd(d["i"], d["j"])),
        ("ops", "isclose(x, y)", lambda: xp.isclose(d["x"], d["y"])),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    n, rows = (10**5, 100) if opts.quick else (10**7, 1000)
    libs, on_gpu = libraries()
    results = {}
    for name, (xp, clock) in libs.items():
        for section, label, fn in workloads(xp, n, rows):
            try:
                ms, _ = bench_ms(fn, clock)
            except (TypeError, NotImplementedError, AttributeError) as err:  # a peer lacks it (CuPy's where=)
                print(f"{name}: {label}: {type(err).__name__}: {str(err)[:80]}")
                continue
            results.setdefault((section, label), {})[name] = ms
    names = list(libs)
    print(f"device: {'GPU' if on_gpu else 'CPU'}; n = {n}; times in microseconds (overhead) or ms")
    print("| section | workload | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for (section, label), row in results.items():
        scale = 1000.0 if section == "overhead" else 1.0
        cells = [f"{row[k] * scale:.3f}" if k in row else "-" for k in names]
        print(f"| {section} | {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
