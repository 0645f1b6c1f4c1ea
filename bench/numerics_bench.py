"""Issue 14's new functions (pad, convolve, interp, gradient, packbits, polyval, eig, ...):
copper beside NumPy (and CuPy where installed), in one process.

    PYTHONPATH=build-gpu/python python3 bench/numerics_bench.py            # full sizes (GPU)
    PYTHONPATH=build/python python3 bench/numerics_bench.py --cpu          # CPU sizes, copper vs NumPy
    PYTHONPATH=build/python python3 bench/numerics_bench.py --quick        # small sizes, seconds

Each row is the median of --repeat timed calls after one warm-up, device work waited for
(copper.synchronize / CuPy's stream) inside the timing. Prints a table; --json writes it too.
"""
import argparse
import json
import statistics
import time

import numpy as np

FULL = dict(pad=(8192, 8192), conv=(10**7, 101), interp=(10**8, 10**5), grad=(8192, 8192), bits=10**9,
            poly=(10**8, 9), eig=1024, trap=(8192, 8192))
CPU = dict(pad=(2048, 2048), conv=(10**6, 51), interp=(10**7, 10**4), grad=(2048, 2048), bits=10**8,
           poly=(10**7, 9), eig=256, trap=(2048, 2048))
QUICK = dict(pad=(256, 256), conv=(10**4, 11), interp=(10**5, 100), grad=(256, 256), bits=10**6,
             poly=(10**5, 9), eig=32, trap=(256, 256))


def workloads(xp, sizes, rng):
    """(name, thunk) pairs; inputs made once on the library's device."""
    a2 = xp.asarray(rng.standard_normal(sizes["pad"]).astype(np.float32))
    n, m = sizes["conv"]
    sig, ker = xp.asarray(rng.standard_normal(n)), xp.asarray(rng.standard_normal(m))
    nx, nxp = sizes["interp"]
    x = xp.asarray(rng.uniform(-1, 11, nx))
    xp_ = xp.asarray(np.sort(rng.uniform(0, 10, nxp)))
    fp = xp.asarray(rng.standard_normal(nxp))
    g = xp.asarray(rng.standard_normal(sizes["grad"]))
    bits = xp.asarray(rng.random(sizes["bits"]) < 0.5)
    packed = xp.packbits(bits)
    pn, deg = sizes["poly"]
    px = xp.asarray(rng.standard_normal(pn))
    coeffs = xp.asarray(rng.standard_normal(deg))
    e = xp.asarray(rng.standard_normal((sizes["eig"], sizes["eig"])))
    t = xp.asarray(rng.standard_normal(sizes["trap"]))
    return [
        ("pad reflect 16 (float32 2-d)", lambda: xp.pad(a2, 16, mode="reflect")),
        ("pad constant 16 (float32 2-d)", lambda: xp.pad(a2, 16)),
        ("pad edge 16 (float32 2-d)", lambda: xp.pad(a2, 16, mode="edge")),
        (f"convolve {n} x {m} (float64)", lambda: xp.convolve(sig, ker)),
        (f"interp {nx} points, {nxp} samples", lambda: xp.interp(x, xp_, fp)),
        ("gradient 2-d (float64)", lambda: xp.gradient(g)),
        (f"packbits {sizes['bits']} bools", lambda: xp.packbits(bits)),
        (f"unpackbits {packed.size} bytes", lambda: xp.unpackbits(packed)),
        (f"polyval degree {deg - 1}, {pn} points", lambda: xp.polyval(coeffs, px)),
        ("trapezoid axis -1 (float64 2-d)", lambda: xp.trapezoid(t)),
        (f"linalg.eig {sizes['eig']}x{sizes['eig']} float64", lambda: xp.linalg.eig(e)),
    ]


def timed(fn, sync, repeat):
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cpu", action="store_true")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json")
    args = p.parse_args()
    sizes = QUICK if args.quick else CPU if args.cpu else FULL
    import copper as cp
    libs = [("copper", cp, cp.synchronize)]
    if args.cpu:
        cp.set_default_device("cpu")
    else:
        try:
            import cupy
            libs.append(("cupy", cupy, lambda: cupy.cuda.Stream.null.synchronize()))
        except Exception:
            pass
    libs.append(("numpy", np, lambda: None))
    rows = {}
    for name, xp, sync in libs:
        for label, fn in workloads(xp, sizes, np.random.default_rng(0)):
            rows.setdefault(label, {})[name] = timed(fn, sync, args.repeat)
    names = [n for n, _, _ in libs]
    print("| workload | " + " | ".join(f"{n} (ms)" for n in names) + " | numpy / copper |")
    print("|---|" + "---|" * (len(names) + 1))
    for label, r in rows.items():
        cells = " | ".join(f"{r[n] * 1e3:.2f}" for n in names)
        print(f"| {label} | {cells} | {r['numpy'] / r['copper']:.2f}x |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
