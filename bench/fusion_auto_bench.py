"""Automatic fusion (issue 17) on the CPU: the same eager code with fusion off and on,
beside NumPy, in one run.

    PYTHONPATH=build/python python3 bench/fusion_auto_bench.py [--size N] [--repeat R]

Workloads: the seeds' in-place chain `x *= 5; x *= x; x += x`, a formula with temporaries
`sqrt(x * x + y * y) * 0.5 + 1`, and the body of CuPy's naive Black-Scholes without its
exp/log/erf (`(s - k) * r + t * t * 0.5`, five ops), and row norms `sqrt(sum(x**2,
axis=-1))` over rows of 1000 (the sum fed by the square). Each copper time ends with
run_deferred() (what a read of the result runs first), so fused and unfused times are
comparable. Prints
median milliseconds and the ratios; the floor is bytes moved over this machine's copy
bandwidth, measured here with NumPy's copy.
"""
import argparse
import statistics
import time

import numpy as np

import copper as cp


def timed(fn, repeat, setup=lambda: None):
    setup()
    fn()
    times = []
    for _ in range(repeat):
        setup()  # untimed: fresh inputs, so the in-place chain never runs into infinities
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    n, rng = args.size, np.random.default_rng(0)
    h = {k: rng.random(n) + 0.5 for k in "xysk"}
    h["x0"] = h["x"].copy()
    d = {k: cp.asarray(v, device="cpu") for k, v in h.items()}

    def chain(m, x):
        x *= 5
        x *= x
        x += x

    def norm(m, x, y):
        return m.sqrt(x * x + y * y) * 0.5 + 1

    def black_scholes_body(m, s, k, t):
        return (s - k) * 0.05 + t * t * 0.5

    def row_norms(m, x):  # the sum fed by the square: x read once, fused
        return m.sqrt(m.sum(x.reshape(-1, 1000) ** 2, axis=-1))

    src = h["x"]
    dst = np.empty_like(src)
    copy_ms = timed(lambda: np.copyto(dst, src), args.repeat)  # reads n*8 bytes, writes n*8 (memory already mapped)
    gbps = 2 * n * 8 / copy_ms / 1e6
    workloads = [
        ("x *= 5; x *= x; x += x", lambda m, a: chain(m, a["x"]), 2),
        ("sqrt(x*x + y*y) * 0.5 + 1", lambda m, a: norm(m, a["x"], a["y"]), 3),
        ("(s - k) * r + t * t * 0.5", lambda m, a: black_scholes_body(m, a["s"], a["k"], a["x"]), 4),
        ("sqrt(sum(x**2, axis=-1)), rows of 1000", lambda m, a: row_norms(m, a["x"]), 1),
    ]
    print(f"cpu, {n} float64, {cp._core.get_num_threads() if hasattr(cp._core, 'get_num_threads') else '?'} threads, "
          f"copy bandwidth {gbps:.1f} GB/s")
    print(f"{'workload':40s} {'NumPy':>8s} {'unfused':>8s} {'fused':>8s} {'floor':>8s}  numpy/fused  fused/floor")
    for name, fn, arrays_moved in workloads:
        def run_numpy():
            r = fn(np, h)
            return r

        def run_copper():
            fn(cp, d)
            cp.run_deferred()  # what any read of the result would run first

        def fresh():
            np.copyto(h["x"], h["x0"])
            d["x"][...] = d["x0"]
            cp.run_deferred()  # the restore is deferred too with fusion on: run it untimed

        numpy_ms = timed(run_numpy, args.repeat, fresh)
        cp.set_fusion(False)
        unfused_ms = timed(run_copper, args.repeat, fresh)
        cp.set_fusion(True)
        fused_ms = timed(run_copper, args.repeat, fresh)
        cp.set_fusion(False)
        floor_ms = arrays_moved * n * 8 / gbps / 1e6
        print(f"{name:40s} {numpy_ms:8.2f} {unfused_ms:8.2f} {fused_ms:8.2f} {floor_ms:8.2f}  "
              f"{numpy_ms / fused_ms:10.2f}x  {fused_ms / floor_ms:10.2f}x")


if __name__ == "__main__":
    main()
