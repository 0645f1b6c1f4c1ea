"""The seed workloads, timed with copper and with NumPy side by side (the demo).

    ones((1000, 1000, 1000))                      8 GB of float64
    x *= 5
    x *= 5; x *= x; x += x
    sqrt(sum(x**2, axis=-1))                      on (1000, 100, 1000)
    arange(6).reshape(2, 3).astype('f').sum(axis=1)
    x *= 5 for 1e3 ... 1e8 elements               (a size sweep)

Each result is checked (against NumPy, or against the value it must have), and the
script exits non-zero if any is wrong. Sizes shrink to fit the memory available; set
them explicitly with the options or the environment variables:

    --size N      / COPPER_DEMO_SIZE     edge of the cube (default 1000: 1000**3 elements)
    --repeats R   / COPPER_DEMO_REPEATS  timed runs per workload, after one warm-up (3)
    --sweep-max N / COPPER_DEMO_SWEEP_MAX  largest size in the x *= 5 sweep (1e8)
"""
import argparse
import math
import os
import platform
import statistics
import sys
import time

import numpy as np

import copper as cp

BYTES_PER_ELEMENT = 8  # float64


def available_memory_bytes():
    """MemAvailable from /proc/meminfo (Linux), else total physical memory."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def choose_cube_edge(requested):
    """The cube edge to use: `requested` if given, else 1000 when it fits in memory."""
    if requested:
        return requested
    # One cube lives at a time (copper's is freed before NumPy's is made), plus headroom.
    budget = 0.75 * available_memory_bytes()
    edge = 1000
    if edge**3 * BYTES_PER_ELEMENT > budget:
        edge = max(10, int((budget / BYTES_PER_ELEMENT) ** (1 / 3)) // 10 * 10)
        print(f"note: {budget / 2**30:.1f} GiB of memory is available, too little for the 8 GB "
              f"cube next to NumPy's; using ({edge},{edge},{edge}) instead "
              f"(set COPPER_DEMO_SIZE to choose)")
    return edge


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def median_ms(fn, repeats, sync=lambda: None, loops=1):
    """Median wall time of one call in ms, over `repeats` batches of `loops` calls after a warm-up."""
    fn()
    sync()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        sync()
        samples.append((time.perf_counter() - start) / loops * 1e3)
    return statistics.median(samples)


class Report:
    """Collects one table row per workload and remembers whether every check passed."""

    def __init__(self):
        self.failures = []
        print(f"{'workload':<48} {'shape':<16} {'numpy ms':>10} {'copper ms':>10} {'speedup':>8}  check")

    def row(self, name, shape, numpy_ms, copper_ms, ok, detail=""):
        speedup = numpy_ms / copper_ms if copper_ms > 0 else float("nan")
        shape_text = "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
        print(f"{name:<48} {shape_text:<16} {numpy_ms:>10.3f} {copper_ms:>10.3f} {speedup:>7.2f}x  "
              f"{'ok' if ok else 'WRONG ' + detail}", flush=True)
        if not ok:
            self.failures.append(f"{name}: {detail}")

    def error(self, name, err):
        print(f"{name:<48} error: {type(err).__name__}: {err}", flush=True)
        self.failures.append(f"{name}: {type(err).__name__}: {err}")


def check_all_equal(x, value):
    """Whether every element of copper array x equals `value` (a min/max pair is enough)."""
    lo, hi = float(cp.min(x)), float(cp.max(x))
    ok = lo == hi == value or (math.isinf(value) and lo == hi)
    return ok, f"min {lo!r} max {hi!r}, expected {value!r}"


def cube_workloads(report, edge, repeats):
    shape = (edge, edge, edge)
    sync = cp.synchronize
    runs = repeats + 1  # the warm-up counts: in-place results depend on how often they ran

    def both(name, make, step, expected_value):
        """Times `step` on copper's array, frees it, then on NumPy's: one cube in memory at a time."""
        x = make(cp)
        sync()
        copper_ms = median_ms(lambda: step(x), repeats, sync)
        ok, detail = check_all_equal(x, expected_value)
        del x
        y = make(np)
        numpy_ms = median_ms(lambda: step(y), repeats)
        del y
        report.row(name, shape, numpy_ms, copper_ms, ok, detail)

    try:
        copper_ms = median_ms(lambda: cp.ones(shape), repeats, sync)
        x = cp.ones(shape)
        ok, detail = check_all_equal(x, 1.0)
        del x
        numpy_ms = median_ms(lambda: np.ones(shape), repeats)
        report.row(f"ones(({edge},{edge},{edge}))", shape, numpy_ms, copper_ms, ok, detail)
    except Exception as err:  # keep going: later workloads may still work
        report.error("ones", err)

    def times5(x):
        x *= 5

    def chain(x):
        x *= 5
        x *= x
        x += x

    expected = 1.0
    for _ in range(runs):
        expected *= 5
    try:
        both("x *= 5", lambda xp: xp.ones(shape), times5, expected)
    except Exception as err:
        report.error("x *= 5", err)

    expected = 1.0
    for _ in range(runs):
        expected *= 5
        expected *= expected
        expected += expected
    try:
        both("x *= 5; x *= x; x += x", lambda xp: xp.ones(shape), chain, expected)
    except Exception as err:
        report.error("x *= 5; x *= x; x += x", err)


def norm_workload(report, edge, repeats):
    shape = (edge, max(1, edge // 10), edge)
    name = "sqrt(sum(x**2, axis=-1))"
    try:
        host = np.random.default_rng(0).random(shape)
        x = cp.asarray(host)
        copper_ms = median_ms(lambda: cp.sqrt(cp.sum(x**2, axis=-1)), repeats, cp.synchronize)
        numpy_ms = median_ms(lambda: np.sqrt(np.sum(host**2, axis=-1)), repeats)
        got, want = cp.sqrt(cp.sum(x**2, axis=-1)).get(), np.sqrt(np.sum(host**2, axis=-1))
        # Sums of `edge` squares in [0, 1): summation order may differ, so allow a few ulps.
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-13, atol=0)
        report.row(name, shape, numpy_ms, copper_ms, ok, f"max abs diff {np.max(np.abs(got - want))}")
    except Exception as err:
        report.error(name, err)


def small_pipeline(report, repeats):
    name = "arange(6).reshape(2,3).astype('f').sum(axis=1)"
    try:
        copper_ms = median_ms(lambda: cp.arange(6).reshape(2, 3).astype("f").sum(axis=1), repeats,
                              cp.synchronize, loops=1000)
        numpy_ms = median_ms(lambda: np.arange(6).reshape(2, 3).astype("f").sum(axis=1), repeats, loops=1000)
        got = cp.arange(6).reshape(2, 3).astype("f").sum(axis=1).get()
        want = np.arange(6).reshape(2, 3).astype("f").sum(axis=1)
        ok = got.dtype == want.dtype and np.array_equal(got, want)
        report.row(name, (2, 3), numpy_ms, copper_ms, ok, f"got {got!r}")
        print(f"  -> {got!r}")
    except Exception as err:
        report.error(name, err)


def sweep(report, sweep_max, repeats):
    print(f"\nsize sweep of x *= 5 (float64), up to {sweep_max:.0e} elements")
    exponent = 3
    while 10**exponent <= sweep_max:
        n = 10**exponent
        name = f"x *= 5 [{n:.0e} elements]"
        try:
            # Check one step against NumPy before timing (values then grow to inf, which is fine).
            x, y = cp.asarray(np.arange(n, dtype=np.float64)), np.arange(n, dtype=np.float64)
            x *= 5
            y *= 5
            ok = np.array_equal(x.get(), y)
            loops = max(1, 10**7 // n)  # enough calls per sample for small sizes to be measurable

            def times5(a):
                a *= 5
            copper_ms = median_ms(lambda: times5(x), repeats, cp.synchronize, loops)
            numpy_ms = median_ms(lambda: times5(y), repeats, loops=loops)
            report.row(name, (n,), numpy_ms, copper_ms, ok, "differs from NumPy")
            del x, y
        except Exception as err:
            report.error(name, err)
        exponent += 1


def main(argv=None):
    # In-place workloads run until values overflow to inf, on purpose: timing is unaffected.
    np.seterr(over="ignore")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=int(os.environ.get("COPPER_DEMO_SIZE", 0)) or None)
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("COPPER_DEMO_REPEATS", 3)))
    parser.add_argument("--sweep-max", type=float, default=float(os.environ.get("COPPER_DEMO_SWEEP_MAX", 1e8)))
    args = parser.parse_args(argv)

    edge = choose_cube_edge(args.size)
    sweep_max = min(args.sweep_max, edge**3)
    print(f"copper {cp.__version__} on {cp.get_default_device()} ({cp.get_num_threads()} threads, "
          f"{cpu_model()}); NumPy {np.__version__}")
    print(f"median of {args.repeats} runs after one warm-up; speedup = NumPy time / copper time\n")

    report = Report()
    cube_workloads(report, edge, args.repeats)
    norm_workload(report, edge, args.repeats)
    small_pipeline(report, args.repeats)
    sweep(report, sweep_max, args.repeats)

    if report.failures:
        print(f"\n{len(report.failures)} workload(s) failed:")
        for failure in report.failures:
            print("  " + failure)
        return 1
    print("\nall results match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
