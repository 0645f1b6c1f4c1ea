"""Creation and layout workloads (issue 21's first item): copper beside CuPy and NumPy.

    PYTHONPATH=build-gpu/python python3 bench/creation_bench.py           # 1e8 float64 elements
    PYTHONPATH=build/python python3 bench/creation_bench.py --quick       # 1e6, seconds, any machine

Each row times one call: F-ordered allocation and fills (zeros/ones/full with order='F'), the
layout-keeping copies NumPy makes for order='K' (np.copy and astype of a transposed array:
one transposing pass), C and F copies of a permuted 3-d view, ravel/flatten in K order,
asarray of an F-ordered NumPy array (host -> device keeping the layout, as raw bytes) and
array(list) of small Python lists (host overhead). The floor column is the bytes each call
must move over the device-to-device copy bandwidth measured here (copies: one read and one
write; fills: one write). GPU times use each library's CUDA events; NumPy and copper without
a GPU use the host clock.

Prints one markdown table; writes creation_bench.{md,json} to --out when given.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import bench_ms, gpu_libraries  # noqa: E402


def workloads(n):
    """(name, bytes moved, setup(xp) -> state, call(xp, state)) for arrays of about n float64."""
    side = round(n ** (1 / 3))
    square = round(n ** 0.5)
    cube = (side, side, side)
    nbytes = side ** 3 * 8

    def cube_of(xp):
        return xp.asarray(np.random.default_rng(0).standard_normal(cube))

    return [
        ("zeros F", nbytes, lambda xp: None, lambda xp, s: xp.zeros(cube, order="F")),
        ("full F", nbytes, lambda xp: None, lambda xp, s: xp.full(cube, 2.5, order="F")),
        ("empty_like(a.T)", 0, cube_of, lambda xp, s: xp.empty_like(s.T)),
        ("copy(a.T) K", 2 * nbytes, cube_of, lambda xp, s: xp.copy(s.transpose(2, 0, 1))),
        ("a.T.copy() C", 2 * nbytes, cube_of, lambda xp, s: s.transpose(2, 0, 1).copy()),
        ("a.copy('F')", 2 * nbytes, cube_of, lambda xp, s: s.copy(order="F")),
        ("astype f4 K of a.T", nbytes * 3 // 2, cube_of, lambda xp, s: s.T.astype(np.float32)),
        ("ravel K of a.T", 0, cube_of, lambda xp, s: s.T.ravel(order="K")),
        ("flatten F", 2 * nbytes, cube_of, lambda xp, s: s.flatten(order="F")),
        ("asarray(F numpy)", nbytes, lambda xp: np.asfortranarray(np.ones((square, square))),
         lambda xp, s: xp.asarray(s)),
        ("array(list 1e3)", 0, lambda xp: list(range(1000)), lambda xp, s: xp.array(s, dtype=np.float32)),
    ]


def bandwidth_gbs(lib, n):
    x = lib.xp.ones(n)
    ms, _ = bench_ms(lambda: x.copy(), lib.clock)
    return 2 * n * 8 / (ms * 1e6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1e6 elements instead of 1e8")
    parser.add_argument("--out", help="folder for creation_bench.{md,json}")
    args = parser.parse_args()
    n = 10**6 if args.quick else 10**8
    notes = []
    libs = gpu_libraries(("copper", "cupy"), notes)
    rows = {}
    bandwidth = {}
    for name, lib in libs.items():
        bandwidth[name] = bandwidth_gbs(lib, n)
        for label, nbytes, setup, call in workloads(n):
            state = setup(lib.xp)
            ms, _ = bench_ms(lambda: call(lib.xp, state), lib.clock)
            rows.setdefault(label, {"bytes": nbytes})[name] = ms
            lib.release()
    order = [k for k in ("copper", "cupy", "numpy") if k in libs]
    lines = [f"n = {n:.0e} float64; copy bandwidth (GB/s): " +
             ", ".join(f"{k} {bandwidth[k]:.0f}" for k in order), "",
             "| workload | " + " | ".join(f"{libs[k].label} ms" for k in order) + " | floor ms (copper) |",
             "|---|" + "---|" * (len(order) + 1)]
    for label, row in rows.items():
        floor = row["bytes"] / (bandwidth["copper"] * 1e6) if row["bytes"] else float("nan")
        lines.append(f"| {label} | " + " | ".join(f"{row[k]:.4g}" for k in order) + f" | {floor:.3g} |")
    text = "\n".join(lines + [""] + [f"- {note}" for note in notes])
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "creation_bench.md"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "creation_bench.json"), "w") as f:
            json.dump({"n": n, "bandwidth_gbs": bandwidth, "rows": rows, "notes": notes}, f, indent=1)


if __name__ == "__main__":
    main()
