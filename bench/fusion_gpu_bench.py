"""Automatic fusion (issue 17) on the GPU: the same eager code with copper's fusion off and
on, beside CuPy and PyTorch running it eagerly, and beside the same formula written as one
ElementwiseKernel, in one run on one device.

    PYTHONPATH=build-gpu/python python3 bench/fusion_gpu_bench.py [--size N] [--options M] [--out DIR]

Workloads: the seeds' in-place chain `x *= 5; x *= x; x += x` on N float32 and float64
(default 1e9: one read and one write of x fused, three of each eager); `sqrt(x*x + y*y) *
0.5 + 1` on N/10 float64 (two arrays read, one written, four temporaries eager); and
Black-Scholes written as NumPy code (the textbook formula with the Abramowitz-Stegun
normal CDF, two `where`s) on M options (default 1e7) float64, against the same formula as
one ElementwiseKernel; `sqrt(sum(x**2, axis=-1))` on (1000, 100, 1000) float64 (the sum
fed by the square: one read of x fused); the k-means distance
`sqrt(((X[:, None, :] - C[None, :, :])**2).sum(axis=2))` for 1e7x2 points and 8 centres
(the views read inside the fed sum; the sqrt is a second pass); and, eager only, the same norm as
`linalg.norm(x, axis=-1)` and the outer-axis `sum(x, axis=0)` of (1e4, 1e4) float32 and
float64, whose floors are one read of x. copper's fused calls end with run_deferred() (what any read of a
result runs first). errstate is 'ignore' for every library, so no variant pays for error
checks. The floor is the bytes a one-pass kernel moves over the copy bandwidth measured
here. Prints one markdown table; writes fusion_gpu_bench.{md,json} to --out when given.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

# Chain kernels compile before their first run (the default; COPPER_FUSION_COMPILE=background
# would run the first chains op by op while they compile), so every timed call is fused.
os.environ.setdefault("COPPER_FUSION_COMPILE", "sync")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import bench_ms, gpu_libraries  # noqa: E402
from creation_bench import bandwidth_gbs  # noqa: E402


def seed_chain(x):
    x *= 5
    x *= x
    x += x


def hypot_affine(xp, x, y):
    return xp.sqrt(x * x + y * y) * 0.5 + 1


def black_scholes(xp, s, k, t, r, v):
    """Call and put prices of European options (spot s, strike k, years t; rate r and
    volatility v are scalars), the normal CDF by Abramowitz and Stegun's 26.2.17."""
    root_t = xp.sqrt(t)
    d1 = (xp.log(s / k) + (r + v * v / 2) * t) / (v * root_t)
    d2 = d1 - v * root_t

    def cdf(d):
        q = 1 / (1 + 0.2316419 * xp.abs(d))
        poly = q * (0.319381530 + q * (-0.356563782 + q * (1.781477937 + q * (-1.821255978 + q * 1.330274429))))
        tail = 0.3989422804014327 * xp.exp(-0.5 * d * d) * poly
        return xp.where(d > 0, 1 - tail, tail)

    c1, c2 = cdf(d1), cdf(d2)
    discount = xp.exp(-r * t)
    call = s * c1 - k * discount * c2
    put = k * discount * (1 - c2) - s * (1 - c1)
    return call, put


BLACK_SCHOLES_KERNEL = """
    const double root_t = sqrt(t);
    const double d1 = (log(s / k) + (r + v * v / 2) * t) / (v * root_t);
    const double d2 = d1 - v * root_t;
    double c[2];
    const double d[2] = {d1, d2};
    for (int j = 0; j < 2; ++j) {
      const double q = 1 / (1 + 0.2316419 * fabs(d[j]));
      const double poly = q * (0.319381530 + q * (-0.356563782 + q * (1.781477937 + q * (-1.821255978 + q * 1.330274429))));
      const double tail = 0.3989422804014327 * exp(-0.5 * d[j] * d[j]) * poly;
      c[j] = d[j] > 0 ? 1 - tail : tail;
    }
    const double discount = exp(-r * t);
    call = s * c[0] - k * discount * c[1];
    put = k * discount * (1 - c[1]) - s * (1 - c[0]);
"""


FIRST_CALL = """
import sys, time, numpy as np, copper as cp
x = cp.asarray(np.linspace(0, 1, 1_000_000), device="cuda:0")
cp.synchronize()
start = time.perf_counter()
y = cp.sqrt(x * x + 1.5) * 0.5 - x
y.get()
print(1000 * (time.perf_counter() - start))
"""


KMEANS_POINTS, KMEANS_CENTRES = 10**7, 8  # issue 17's k-means workload
REDUCE_SHAPE = (1000, 100, 1000)  # issue 17's norm workload: 0.8 GB of float64
OUTER_SHAPE = (10_000, 10_000)    # an outer-axis reduction of 1e8 elements


def norm_last_axis(lib, x):
    if lib.name == "torch":
        return lib.xp.linalg.vector_norm(x, dim=-1)
    return lib.xp.linalg.norm(x, axis=-1)


def first_call_ms(fusion, compile_mode):
    """A fresh process with an empty kernel cache: ms of its first four-op formula and read."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, COPPER_FUSION=fusion, COPPER_FUSION_COMPILE=compile_mode, COPPER_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True, capture_output=True, text=True)
        return float(out.stdout.strip().splitlines()[-1])


def added_peak_mb(lib, call, clear=lambda: None):
    """MB of device memory one call adds at its peak above what was in use before it (its
    inputs), results included; None where the library keeps no statistics. Results of an
    earlier call are dropped first (`clear`), so they do not count."""
    clear()
    before = lib.memory.used()
    lib.memory.reset_peak()
    call()
    peak = lib.memory.peak()
    return None if before is None or peak is None else max(0, peak - before) / 1e6


def variants(lib):
    """{variant: (before, after)}: how one library runs each workload."""
    if lib.name == "copper":
        cp = lib.xp
        on = (lambda: cp.set_fusion(True), lambda: cp.set_fusion(False))
        return {"eager": (lambda: cp.set_fusion(False), lambda: None), "fused": on}
    return {"eager": (lambda: None, lambda: None)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=1e9)
    parser.add_argument("--options", type=float, default=1e7)
    parser.add_argument("--out")
    args = parser.parse_args()
    n, m = int(args.size), int(args.options)
    np.seterr(all="ignore")
    notes = []
    libs = gpu_libraries(("copper", "cupy", "torch"), notes)
    libs.pop("numpy", None)
    bandwidth = {"copper": bandwidth_gbs(libs["copper"], min(n, 10**8))}
    rows = {}

    peaks = {}  # {label: {column: MB one call adds at its peak}}

    def record(label, nbytes, column, ms, call=None, clear=lambda: None):
        rows.setdefault(label, {"bytes": nbytes})[column] = ms
        if call is not None:
            peaks.setdefault(label, {})[column] = added_peak_mb(libs[column.split()[0]], call, clear)

    for name, lib in libs.items():
        xp = lib.xp
        errstate = xp.errstate(all="ignore") if hasattr(xp, "errstate") else None
        if errstate:
            errstate.__enter__()
        run_deferred = getattr(xp, "run_deferred", lambda: None)
        for variant, (before, after) in variants(lib).items():
            before()
            try:
                for dtype, itemsize in (("float32", 4), ("float64", 8)):
                    x = lib.ones((n,), dtype)

                    def chain_call():
                        seed_chain(x)
                        run_deferred()

                    record(f"x *= 5; x *= x; x += x, {n:.0e} {dtype}", 2 * itemsize * n, f"{name} {variant}",
                           bench_ms(chain_call, lib.clock)[0], chain_call)
                    del x
                    lib.release()
                k = n // 10
                x, y = lib.ones((k,), "float64"), lib.ones((k,), "float64")

                kept = [None]  # results are held, as a program holds what it computes

                def drop_kept():
                    kept[0] = None

                def hypot_call():
                    kept[0] = hypot_affine(xp, x, y)
                    run_deferred()

                record(f"sqrt(x*x + y*y) * 0.5 + 1, {k:.0e} float64", 3 * 8 * k, f"{name} {variant}",
                       bench_ms(hypot_call, lib.clock)[0], hypot_call, drop_kept)
                del x, y
                kept[0] = None
                rng = np.random.default_rng(0)
                host = {"s": rng.uniform(5, 30, m), "k": rng.uniform(1, 100, m), "t": rng.uniform(0.25, 10, m)}
                s, kk, t = (lib.asarray(host[key]) for key in "skt")

                def bs_call():
                    kept[0] = black_scholes(xp, s, kk, t, 0.02, 0.3)
                    run_deferred()

                label = f"Black-Scholes, {m:.0e} options float64"
                record(label, 5 * 8 * m, f"{name} {variant}", bench_ms(bs_call, lib.clock)[0], bs_call, drop_kept)
                kept[0] = None
                if name in ("copper", "cupy") and variant == "eager":
                    kernel = xp.ElementwiseKernel("float64 s, float64 k, float64 t, float64 r, float64 v",
                                                  "float64 call, float64 put", BLACK_SCHOLES_KERNEL, "black_scholes")
                    record(label, 5 * 8 * m, f"{name} kernel", bench_ms(lambda: kernel(s, kk, t, 0.02, 0.3), lib.clock)[0])
                    if name == "copper":  # the fused values are the eager ones
                        cp = xp
                        eager_call, eager_put = black_scholes(cp, s, kk, t, 0.02, 0.3)
                        cp.set_fusion(True)
                        fused_call, fused_put = black_scholes(cp, s, kk, t, 0.02, 0.3)
                        cp.set_fusion(False)
                        same = bool((eager_call == fused_call).all()) and bool((eager_put == fused_put).all())
                        notes.append(f"copper Black-Scholes fused == eager bit for bit: {same}")
                del s, kk, t, kept
                lib.release()
                # Reductions: one fed by its formula (the square computed as the sum reads
                # x), an outer-axis sum and the stacked norm (memory-bound single ops).
                x = lib.ones(REDUCE_SHAPE, "float64")
                out = [None]

                def drop_out():
                    out[0] = None

                def norm_call():
                    out[0] = xp.sqrt(xp.sum(x**2, axis=-1))
                    run_deferred()

                rbytes = 8 * int(np.prod(REDUCE_SHAPE))
                record(f"sqrt(sum(x**2, axis=-1)), {REDUCE_SHAPE} float64", rbytes + rbytes // REDUCE_SHAPE[-1],
                       f"{name} {variant}", bench_ms(norm_call, lib.clock)[0], norm_call, drop_out)
                if variant == "eager":
                    def stacked_norm():
                        out[0] = norm_last_axis(lib, x)

                    record(f"linalg.norm(x, axis=-1), {REDUCE_SHAPE} float64", rbytes + rbytes // REDUCE_SHAPE[-1],
                           f"{name} {variant}", bench_ms(stacked_norm, lib.clock)[0])
                del x
                out[0] = None
                lib.release()
                # The k-means distance: two broadcast views subtracted, squared and summed
                # over the last axis; the floor reads X and C once and writes the result.
                rng = np.random.default_rng(1)
                px = lib.asarray(rng.standard_normal((KMEANS_POINTS, 2)))
                pc = lib.asarray(rng.standard_normal((KMEANS_CENTRES, 2)))

                def kmeans_call():
                    out[0] = xp.sqrt(((px[:, None, :] - pc[None, :, :]) ** 2).sum(axis=2))
                    run_deferred()

                record(f"k-means distance, {KMEANS_POINTS:.0e}x2 points, {KMEANS_CENTRES} centres float64",
                       8 * (2 * KMEANS_POINTS + KMEANS_POINTS * KMEANS_CENTRES), f"{name} {variant}",
                       bench_ms(kmeans_call, lib.clock)[0], kmeans_call, drop_out)
                del px, pc
                out[0] = None
                lib.release()
                if variant == "eager":
                    for dtype, itemsize in (("float32", 4), ("float64", 8)):
                        x = lib.ones(OUTER_SHAPE, dtype)
                        nbytes = itemsize * (OUTER_SHAPE[0] + 1) * OUTER_SHAPE[1]
                        record(f"sum(x, axis=0), {OUTER_SHAPE} {dtype}", nbytes, f"{name} {variant}",
                               bench_ms(lambda: xp.sum(x, axis=0), lib.clock)[0])
                        del x
                        lib.release()
            finally:
                after()
        if errstate:
            errstate.__exit__(None, None, None)

    columns = [c for c in ("copper eager", "copper fused", "cupy eager", "torch eager", "copper kernel", "cupy kernel")
               if any(c in r for r in rows.values())]
    lines = ["copy bandwidth (GB/s): " + ", ".join(f"{k} {v:.0f}" for k, v in bandwidth.items()), "",
             "| workload | " + " | ".join(f"{c} ms" for c in columns) + " | floor ms | fused / floor | fused / best peer |",
             "|---|" + "---|" * (len(columns) + 3)]
    for label, row in rows.items():
        floor = row["bytes"] / (bandwidth["copper"] * 1e6) if "copper" in bandwidth else float("nan")
        peers = [row[c] for c in ("cupy eager", "torch eager") if c in row]
        fused = row.get("copper fused", float("nan"))
        lines.append(f"| {label} | " + " | ".join(f"{row.get(c, float('nan')):.4g}" for c in columns) +
                     f" | {floor:.3g} | {fused / floor:.2f}x | {fused / min(peers) if peers else float('nan'):.2f}x |")
    peak_columns = [c for c in ("copper eager", "copper fused", "cupy eager", "torch eager")
                    if any(c in r for r in peaks.values())]
    lines += ["", "Device memory one call adds at its peak, above its inputs, results included (MB; "
              "fused at most eager is issue 17's goal):", "",
              "| workload | " + " | ".join(f"{c} MB" for c in peak_columns) + " | fused <= eager |",
              "|---|" + "---|" * (len(peak_columns) + 1)]
    for label, row in peaks.items():
        cells = ["n/a" if row.get(c) is None else f"{row[c]:.0f}" for c in peak_columns]
        eager, fused = row.get("copper eager"), row.get("copper fused")
        verdict = "n/a" if eager is None or fused is None else ("yes" if fused <= eager + 0.5 else "NO")
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {verdict} |")
    latency = {label: first_call_ms(fusion, mode) for label, fusion, mode in
               (("eager", "0", "sync"), ("fused, compiled in the background", "1", "background"),
                ("fused, compiled first", "1", "sync"))}
    lines += ["", "First call of `sqrt(x * x + 1.5) * 0.5 - x` in a fresh process, empty kernel cache (ms): " +
              ", ".join(f"{k} {v:.0f}" for k, v in latency.items())]
    text = "\n".join(lines + [""] + [f"- {note}" for note in notes])
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "fusion_gpu_bench.md"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "fusion_gpu_bench.json"), "w") as f:
            json.dump({"n": n, "options": m, "bandwidth_gbs": bandwidth, "rows": rows, "peak_mb": peaks,
                       "first_call_ms": latency,
                       "notes": notes}, f, indent=1)


if __name__ == "__main__":
    main()
