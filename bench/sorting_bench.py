"""Issue 12's sorting goals: copper beside CuPy and PyTorch on the GPU, and copper's CPU
backend beside NumPy, in one process (NumPy checks every result at small sizes).

    PYTHONPATH=build-gpu/python python3 bench/sorting_bench.py           # full sizes
    PYTHONPATH=build-gpu/python python3 bench/sorting_bench.py --quick   # small sizes, seconds

Sections (--sections picks some):
  gpu   sort and argsort of 1e8 float32 and of 1e8 int64, unique of 1e8 int32 with 1e3
        distinct values, searchsorted of 1e7 queries into 1e6 sorted float32 values. Goal: at
        least as fast as the faster of CuPy and PyTorch. Without a GPU copper runs on the CPU
        (that checks the script only).
  cpu   copper's CPU backend (all cores, COPPER_NUM_THREADS to change) against NumPy: sort and
        argsort of 1e7 float64, sort of 1e7 int32, unique of 1e7 int32. Goal: sort of 1e7
        float64 at least as fast as NumPy.

GPU times are medians of batches timed with each library's CUDA events; CPU times use the
host clock. Writes sorting_bench.{json,md} to --out (default bench/results).
"""
import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_bench import log, machine_info  # noqa: E402
from harness import WallClock, bench_ms, gpu_libraries  # noqa: E402
from linalg_random_bench import table, timed_row  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
FULL = dict(n=10**8, unique_n=10**8, search=(10**6, 10**7), cpu_n=10**7)
QUICK = dict(n=10**6, unique_n=10**6, search=(10**4, 10**5), cpu_n=10**6)
CHECK_N = 10_000


# ---- each library's spelling -------------------------------------------------------------------

def sort(L, x):
    return L.xp.sort(x).values if L.name == "torch" else L.xp.sort(x)


def argsort(L, x):
    return L.xp.argsort(x, stable=True) if L.name == "torch" else L.xp.argsort(x)


def unique(L, x):
    return L.xp.unique(x, sorted=True) if L.name == "torch" else L.xp.unique(x)


def searchsorted(L, a, v):
    return L.xp.searchsorted(a, v)


def data(kind, n, seed=0):
    """Host data for a workload: random floats, random int64 over the full range, or int32 with 1e3 values."""
    rng = np.random.default_rng(seed)
    if kind == "float32":
        return rng.standard_normal(n, dtype=np.float32)
    if kind == "float64":
        return rng.standard_normal(n)
    if kind == "int64":
        return rng.integers(-2**62, 2**62, size=n, dtype=np.int64)
    if kind == "int32":
        return rng.integers(0, 2**31 - 1, size=n, dtype=np.int32)
    if kind == "int32_1e3":
        return rng.integers(0, 1000, size=n, dtype=np.int32) * 7919
    raise ValueError(kind)


def agrees(L, fn, numpy_fn, *hosts):
    got = L.to_numpy(fn(L, *[L.asarray(h) for h in hosts]))
    return np.array_equal(got, numpy_fn(*hosts))


# ---- sections ----------------------------------------------------------------------------------

def gpu_section(libs, sz, repeats):
    rows = []
    n = sz["n"]
    for kind in ("float32", "int64"):
        small = data(kind, CHECK_N, 1)
        rows.append(timed_row(libs, f"sort {n:.0e} {kind}", lambda L, k=kind: L.asarray(data(k, n)), sort,
                              repeats=repeats, check=lambda L: agrees(L, sort, np.sort, small)))
        rows.append(timed_row(libs, f"argsort {n:.0e} {kind}", lambda L, k=kind: L.asarray(data(k, n)), argsort,
                              repeats=repeats,
                              check=lambda L: agrees(L, argsort, lambda h: np.argsort(h, kind="stable"), small)))
    un = sz["unique_n"]
    small = data("int32_1e3", CHECK_N, 1)
    rows.append(timed_row(libs, f"unique {un:.0e} int32, 1e3 distinct", lambda L: L.asarray(data("int32_1e3", un)),
                          unique, repeats=repeats, check=lambda L: agrees(L, unique, np.unique, small)))
    m, q = sz["search"]
    sorted_host = np.sort(data("float32", m, 2))
    queries_host = data("float32", q, 3)
    rows.append(timed_row(
        libs, f"searchsorted {q:.0e} queries into {m:.0e} float32",
        lambda L: (L.asarray(sorted_host), L.asarray(queries_host)), lambda L, s: searchsorted(L, s[0], s[1]),
        repeats=repeats,
        check=lambda L: agrees(L, searchsorted, np.searchsorted, sorted_host[:CHECK_N], queries_host[:CHECK_N])))
    return rows


def cpu_section(repeats, n):
    """copper's CPU backend against NumPy, host clock."""
    import copper as cp
    clock = WallClock(lambda: None)
    rows = []
    workloads = [
        (f"sort {n:.0e} float64", "float64", np.sort, cp.sort),
        (f"argsort {n:.0e} float64", "float64", lambda x: np.argsort(x, kind="stable"), cp.argsort),
        (f"argsort {n:.0e} float64 (NumPy quicksort)", "float64", np.argsort, None),
        (f"sort {n:.0e} int32", "int32", np.sort, cp.sort),
        (f"unique {n:.0e} int32, 1e3 distinct", "int32_1e3", np.unique, cp.unique),
    ]
    for label, kind, np_fn, cp_fn in workloads:
        host = data(kind, n)
        row = dict(workload=label, ms={})
        row["ms"]["numpy"], _ = bench_ms(lambda: np_fn(host), clock, repeats)
        if cp_fn is not None:
            x = cp.asarray(host, device="cpu")
            ok = np.array_equal(cp_fn(x[:CHECK_N]).get(), np_fn(host[:CHECK_N]))
            row["ms"]["copper"], _ = bench_ms(lambda: cp_fn(x), clock, repeats)
            row["correct"] = {"copper": ok}
        c, npy = row["ms"].get("copper"), row["ms"]["numpy"]
        log(f"{label}: copper {c if c is None else round(c, 2)} ms, numpy {npy:.2f} ms"
            + (f" -> {npy / c:.2f}x NumPy" if c else "") + ("" if row.get("correct", {}).get("copper", True) else " WRONG"))
        rows.append(row)
    return rows


def cpu_table(rows, threads):
    out = [f"CPU backend, {threads} threads", "", "| workload | copper ms | numpy ms | speedup over NumPy |",
           "|---|---|---|---|"]
    for r in rows:
        c, npy = r["ms"].get("copper"), r["ms"]["numpy"]
        cells = [r["workload"] + ("" if r.get("correct", {}).get("copper", True) else " (WRONG)"),
                 f"{c:.2f}" if c else "-", f"{npy:.2f}", f"{npy / c:.2f}x" if c else "-"]
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--libs", default="copper,cupy,torch")
    parser.add_argument("--sections", default="gpu,cpu")
    parser.add_argument("--out", default=RESULTS_DIR)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sz = QUICK if args.quick else FULL
    sections = set(args.sections.split(","))
    report = dict(date=datetime.datetime.now().isoformat(timespec="seconds"), sizes=sz)
    lines = []
    if "gpu" in sections:
        notes = []
        libs = gpu_libraries([n for n in args.libs.split(",") if n and n != "numpy"], notes)
        for note in notes:
            log("note:", note)
        report["machine"] = machine_info(libs, notes)
        rows = gpu_section(libs, sz, args.repeats)
        report["gpu"] = rows
        lines += table(rows, libs) + [""]
    if "cpu" in sections:
        import copper as cp
        rows = cpu_section(args.repeats, sz["cpu_n"])
        report["cpu"] = rows
        lines += cpu_table(rows, cp.get_num_threads())
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "sorting_bench.json"), "w") as f:
        json.dump(report, f, indent=1, default=str)
    with open(os.path.join(args.out, "sorting_bench.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("\n" + "\n".join(lines))
    log(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
