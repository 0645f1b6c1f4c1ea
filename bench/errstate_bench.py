"""The cost of errstate's checks (issue 14): elementwise ops with NumPy's default modes
(copper checks every result for divide-by-zero, overflow and invalid) against
errstate(all='ignore') (no checks), beside NumPy with its defaults.

    PYTHONPATH=build/python python3 bench/errstate_bench.py [--size N] [--device cuda:0]

Prints one line per workload: NumPy ms, copper ms checked, copper ms unchecked, and the
checked/unchecked ratio (1.00 means the checks are free). Medians of repeated runs; GPU
runs end with a synchronization each, so the reported time includes the kernel.
"""
import argparse
import statistics
import time

import numpy as np

import copper as cp


def timed(fn, sync, repeat):
    fn()
    sync()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000_000)
    parser.add_argument("--device", default=None)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    if args.device:
        cp.set_default_device(args.device)
    rng = np.random.default_rng(0)
    hx = rng.uniform(0.5, 2.0, args.size)
    hy = rng.uniform(0.5, 2.0, args.size)
    x, y = cp.asarray(hx), cp.asarray(hy)
    xf, hxf = x.astype(cp.float32), hx.astype(np.float32)
    sync = cp.cuda.Device().synchronize if str(x.device).startswith("cuda") else (lambda: None)
    workloads = [
        ("x * 5 (f64)", lambda m, a, b: a * 5, (hx, hy), (x, y)),
        ("x / y (f64)", lambda m, a, b: a / b, (hx, hy), (x, y)),
        ("log(x) (f64)", lambda m, a, b: m.log(a), (hx, hy), (x, y)),
        ("x * 5 (f32)", lambda m, a, b: a * 5, (hxf, hy), (xf, y)),
        ("x *= 1 in place (f64)", lambda m, a, b: a.__imul__(1), (hx, hy), (x, y)),
    ]
    print(f"device {x.device}, {args.size} elements")
    print(f"{'workload':26s} {'NumPy ms':>9s} {'checked':>9s} {'unchecked':>9s} {'ratio':>6s}")
    for name, fn, host_args, dev_args in workloads:
        numpy_ms = timed(lambda: fn(np, *host_args), lambda: None, args.repeat)
        checked = timed(lambda: fn(cp, *dev_args), sync, args.repeat)
        with cp.errstate(all="ignore"):
            unchecked = timed(lambda: fn(cp, *dev_args), sync, args.repeat)
        print(f"{name:26s} {numpy_ms:9.3f} {checked:9.3f} {unchecked:9.3f} {checked / unchecked:6.2f}")


if __name__ == "__main__":
    main()
