"""Indexing speed (issue 12): copper beside CuPy, PyTorch and NumPy in one process.

    PYTHONPATH=build-gpu/python python3 bench/indexing_bench.py            # GPU sizes (1e8)
    PYTHONPATH=build/python python3 bench/indexing_bench.py --cpu          # copper on the CPU, 1e7, vs NumPy
    PYTHONPATH=build/python python3 bench/indexing_bench.py --quick        # 1e6, seconds

Workloads: x[mask] on float32 with half the mask true (its floor: read x and the mask,
write the selected half), x[idx] gathering random int64 indices (floor: read the
indices, write the result, one element read per index), nonzero of a half-true bool
mask, and x[idx] = v / x[mask] = 0 scatters. The floor is the bytes moved over the
device-to-device copy bandwidth measured in the same run (GPU only). Times are medians;
GPU libraries are timed with their own CUDA events. Writes indexing_bench.json to --out.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WallClock, bench_ms, gpu_libraries  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def nonzero(lib, m):
    if lib.name == "torch":
        return lib.xp.nonzero(m, as_tuple=True)
    return lib.xp.nonzero(m)


def workloads(n):
    """(name, bytes moved at the floor, setup(lib) -> fn)."""
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    mask = rng.random(n) < 0.5
    idx = rng.integers(0, n, size=n)
    vals = rng.random(n, dtype=np.float32)
    k = int(mask.sum())

    def mask_get(lib):
        a, m = lib.asarray(x), lib.asarray(mask)
        return lambda: a[m]

    def gather(lib):
        a, i = lib.asarray(x), lib.asarray(idx)
        return lambda: a[i]

    def nz(lib):
        m = lib.asarray(mask)
        return lambda: nonzero(lib, m)

    def scatter(lib):
        a, i, v = lib.asarray(x.copy()), lib.asarray(idx), lib.asarray(vals)

        def run():
            a[i] = v
        return run

    def mask_fill(lib):
        a, m = lib.asarray(x.copy()), lib.asarray(mask)

        def run():
            a[m] = 0
        return run

    return [
        (f"x[mask] f32 n={n:.0e} (half true)", n * 5 + k * 4, mask_get),
        (f"x[idx] f32 gather n={n:.0e}", n * (8 + 4 + 4), gather),
        (f"nonzero(mask) n={n:.0e} (half true)", n + k * 8, nz),
        (f"x[idx] = v f32 scatter n={n:.0e}", n * (8 + 4 + 4), scatter),
        (f"x[mask] = 0 f32 n={n:.0e}", n * (1 + 4 + 4), mask_fill),
    ]


def copy_bandwidth(lib, n):
    a = lib.asarray(np.ones(n, np.float32))
    ms, _ = bench_ms(lambda: a.clone() if lib.name == "torch" else a.copy(), lib.clock)
    return 2 * 4 * n / (ms * 1e-3)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu", action="store_true", help="copper on the CPU at 1e7 against NumPy")
    ap.add_argument("--quick", action="store_true", help="1e6 elements")
    ap.add_argument("--libs", default="copper,cupy,torch")
    ap.add_argument("--out", default=RESULTS_DIR)
    args = ap.parse_args()
    notes = []
    if args.cpu:
        import copper as cp
        cp.set_default_device("cpu")
        from harness import Lib, MemoryProbe
        libs = {"numpy": Lib("numpy", np), "copper": Lib("copper", cp, sync=cp.synchronize, label="copper (cpu)")}
        for L in libs.values():
            L.clock, L.memory, L.on_gpu = WallClock(L.sync), MemoryProbe(), False
        n = 10**7
    else:
        libs = gpu_libraries([s for s in args.libs.split(",") if s], notes)
        n = 10**8 if any(L.on_gpu for L in libs.values()) else 10**7
    if args.quick:
        n = 10**6
    for line in notes:
        print(line)
    gpu = [L for L in libs.values() if L.on_gpu]
    bandwidth = copy_bandwidth(gpu[0], n) if gpu else None
    rows = []
    for name, nbytes, setup in workloads(n):
        row = {"workload": name}
        for lname, L in libs.items():
            if lname == "numpy" and gpu and n > 10**7:
                continue  # NumPy at 1e8 only slows the GPU run down
            try:
                fn = setup(L)
                row[lname], _ = bench_ms(fn, L.clock)
            except Exception as err:  # a library without the operation
                row[lname] = None
                print(f"{lname}: {name}: {type(err).__name__}: {err}")
            L.release()
        if bandwidth:
            row["floor"] = nbytes / bandwidth * 1e3
        rows.append(row)
        print("  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "indexing_bench.json"), "w") as f:
        json.dump({"n": n, "copy_bandwidth_bytes_per_s": bandwidth, "rows": rows, "notes": notes}, f, indent=1)


if __name__ == "__main__":
    main()
