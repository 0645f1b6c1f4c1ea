"""copper.fuse against the same code unfused (issue 17's two workloads), beside CuPy's
cupy.fuse and NumPy (which has no fusion: its row is the plain code).

    PYTHONPATH=build-gpu/python python3 bench/fuse_bench.py           # 1e8 float32; (1000,100,1000) float64
    PYTHONPATH=build/python python3 bench/fuse_bench.py --quick       # 1e6 elements, any machine
    COPPER_FUSE_CPU=compile ... bench/fuse_bench.py --quick           # CPU: the compiled kernel, not blocks

Workloads: `x *= 5; x *= x; x += x` in place on n float32 (one read and one write of x
when fused, three of each unfused), and `sqrt(sum(x**2, axis=-1))` on float64 (x read
once when fused; unfused also writes and reads x**2). The floor column is the bytes a
fused call must move over the copy bandwidth measured here. Prints one markdown table;
writes fuse_bench.{md,json} to --out when given.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import bench_ms, gpu_libraries  # noqa: E402
from creation_bench import bandwidth_gbs  # noqa: E402


def chain(x):
    x *= 5
    x *= x
    x += x


def make_norm(xp):
    def norm(x):
        return xp.sqrt(xp.sum(x ** 2, axis=-1))
    return norm


def workloads(n, norm_shape):
    """(name, bytes a fused call moves, setup(xp) -> array, {variant: call(xp) -> fn})."""
    norm_elems = int(np.prod(norm_shape))
    return [
        ("x *= 5; x *= x; x += x (float32)", 2 * 4 * n,
         lambda xp: xp.asarray(np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32)),
         {"eager": lambda xp: chain, "fused": lambda xp: xp.fuse(chain)}),
        (f"sqrt(sum(x**2, axis=-1)) {norm_shape} float64", 8 * norm_elems + 8 * norm_elems // norm_shape[-1],
         lambda xp: xp.asarray(np.random.default_rng(1).standard_normal(norm_shape)),
         {"eager": make_norm, "fused": lambda xp: xp.fuse(make_norm(xp))}),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1e6 elements instead of 1e8")
    parser.add_argument("--out", help="folder for fuse_bench.{md,json}")
    args = parser.parse_args()
    np.seterr(all="ignore")  # the chain overflows to inf after a few calls: NumPy's warnings say nothing here
    n = 10**6 if args.quick else 10**8
    norm_shape = (100, 10, 1000) if args.quick else (1000, 100, 1000)
    notes = []
    libs = gpu_libraries(("copper", "cupy"), notes)
    rows = {}
    bandwidth = {name: bandwidth_gbs(lib, n) for name, lib in libs.items()}
    for name, lib in libs.items():
        for label, nbytes, setup, variants in workloads(n, norm_shape):
            x = setup(lib.xp)
            for variant, make in variants.items():
                if variant == "fused" and not hasattr(lib.xp, "fuse"):
                    continue
                fn = make(lib.xp)
                ms, _ = bench_ms(lambda: fn(x), lib.clock)
                rows.setdefault(label, {"bytes": nbytes})[f"{name} {variant}"] = ms
            del x
            lib.release()
    columns = [f"{k} {v}" for k in ("copper", "cupy", "numpy") if k in libs for v in ("eager", "fused")
               if any(f"{k} {v}" in r for r in rows.values())]
    lines = [f"copy bandwidth (GB/s): " + ", ".join(f"{k} {v:.0f}" for k, v in bandwidth.items()), "",
             "| workload | " + " | ".join(f"{c} ms" for c in columns) + " | floor ms (copper) |",
             "|---|" + "---|" * (len(columns) + 1)]
    for label, row in rows.items():
        floor = row["bytes"] / (bandwidth["copper"] * 1e6) if "copper" in bandwidth else float("nan")
        lines.append(f"| {label} | " + " | ".join(f"{row.get(c, float('nan')):.4g}" for c in columns) +
                     f" | {floor:.3g} |")
    text = "\n".join(lines + [""] + [f"- {note}" for note in notes])
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "fuse_bench.md"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "fuse_bench.json"), "w") as f:
            json.dump({"n": n, "norm_shape": norm_shape, "bandwidth_gbs": bandwidth, "rows": rows, "notes": notes},
                      f, indent=1)


if __name__ == "__main__":
    main()
