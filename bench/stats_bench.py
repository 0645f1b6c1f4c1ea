"""Issue 12's counting and order-statistics speed goals: copper beside CuPy, PyTorch and NumPy in
one process.

    PYTHONPATH=build-gpu/python python3 bench/stats_bench.py            # full sizes (GPU)
    PYTHONPATH=build-gpu/python python3 bench/stats_bench.py --quick    # small sizes, seconds
    PYTHONPATH=build/python python3 bench/stats_bench.py --cpu          # CPU sizes, copper vs NumPy

Goals (on an H200, each at least as fast as the faster of CuPy and PyTorch):
  histogram of 1e8 float32 into 100 bins      (np.histogram(x, bins=100): range from the data)
  median along axis 1 of (1e4, 1e4) float32   (torch.median(x, dim=1): torch's median is the
                                               lower middle value, a selection of the same cost)
Also timed: bincount of 1e8 int32 below 1000, histogram with a given range, weighted histogram,
percentile(x, [25, 75], axis=1), nanmedian(axis=1) with 10% NaN, histogram2d of 1e7 points.

The floor is one read of the input over the measured read bandwidth (histogram without range
reads twice: min/max, then the counts). GPU times are medians of batches timed with each
library's CUDA events; NumPy (and copper on the CPU) with the host clock. NumPy is timed
beside the GPU libraries only with --numpy (seconds per call at full sizes).

Writes stats_bench.{json,md} to --out (default bench/results); the table is printed last.
"""
import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_bench import GPU_LIBS, bandwidth_section, log, machine_info, release_all  # noqa: E402
from gpu_report import fmt  # noqa: E402
from harness import gpu_libraries  # noqa: E402
import linalg_random_bench  # noqa: E402  (timed_row)

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
FULL = dict(hist_n=10**8, median=(10**4, 10**4), bincount_n=10**8, hist2d_n=10**7, bw_bytes=2 * 2**30)
QUICK = dict(hist_n=10**6, median=(300, 1000), bincount_n=10**6, hist2d_n=10**5, bw_bytes=64 * 2**20)
CPU = dict(hist_n=10**7, median=(1000, 2000), bincount_n=10**7, hist2d_n=10**6, bw_bytes=256 * 2**20)


# ---- each library's spelling -------------------------------------------------------------------

def to_device(L, host):
    return L.asarray(host)


def histogram(L, x, bins, range_=None, weights=None):
    if L.name == "torch":
        lo, hi = range_ if range_ else (0, 0)  # histc takes min and max from the data when both are 0
        if weights is not None:  # torch.histogram is CPU-only; bincount of the bin indices instead
            edges = L.xp.linspace(lo, hi, bins + 1, device=x.device, dtype=x.dtype)
            idx = L.xp.clamp(L.xp.bucketize(x, edges, right=True) - 1, 0, bins - 1)
            return L.xp.bincount(idx, weights=weights, minlength=bins)
        return L.xp.histc(x, bins=bins, min=lo, max=hi)
    return L.xp.histogram(x, bins=bins, range=range_, weights=weights)


def median(L, x):
    if L.name == "torch":
        return L.xp.median(x, dim=1)
    return L.xp.median(x, axis=1)


def percentile(L, x, q):
    if L.name == "torch":
        return L.xp.quantile(x, L.xp.tensor([v / 100 for v in q], device=x.device, dtype=x.dtype), dim=1)
    return L.xp.percentile(x, q, axis=1)


def nanmedian(L, x):
    if L.name == "torch":
        return L.xp.nanmedian(x, dim=1)
    return L.xp.nanmedian(x, axis=1)


def bincount(L, x, minlength):
    return L.xp.bincount(x, minlength=minlength)


def histogram2d(L, x, y, bins):
    if L.name == "torch":
        return L.xp.histogramdd(L.xp.stack([x, y], 1).cpu(), bins=bins)  # CPU-only in torch
    return L.xp.histogram2d(x, y, bins=bins)


# ---- rows ----------------------------------------------------------------------------------------

def timed_row(libs, names, label, setup, run, floor_ms=None, repeats=5):
    return linalg_random_bench.timed_row(libs, label, setup, run, floor_ms, repeats, names=names, exact=True)


def check(libs, names, fn, want, rtol=0.0):
    """Whether copper's result equals NumPy's (counts exactly; floats to rtol)."""
    if "copper" not in names:
        return
    try:
        got = libs["copper"].to_numpy(fn(libs["copper"]))
    except Exception as err:
        log(f"  check against NumPy: {type(err).__name__}: {err}")
        return
    ok = got.shape == want.shape and (np.array_equal(got, want) if rtol == 0 else np.allclose(got, want, rtol=rtol))
    log(f"  check against NumPy: {'ok' if ok else 'WRONG'}")


def sections(libs, names, sz, bw, repeats):
    rows = []
    rng = np.random.default_rng(12)
    read = bw.get("read_bw")

    def floor(nbytes):
        return nbytes / read * 1e3 if read else None

    n = sz["hist_n"]
    xh = rng.standard_normal(n, dtype=np.float32)
    wh = rng.random(n, dtype=np.float32)
    small = xh[: 10**6]
    check(libs, names, lambda L: histogram(L, to_device(L, small), 100)[0], np.histogram(small, bins=100)[0])
    rows.append(timed_row(libs, names, f"histogram {n:.0e} f32, 100 bins", lambda L: to_device(L, xh),
                          lambda L, x: histogram(L, x, 100), floor(2 * xh.nbytes), repeats))
    rows.append(timed_row(libs, names, f"histogram {n:.0e} f32, 100 bins, range=(-4, 4)", lambda L: to_device(L, xh),
                          lambda L, x: histogram(L, x, 100, (-4.0, 4.0)), floor(xh.nbytes), repeats))
    rows.append(timed_row(libs, names, f"histogram {n:.0e} f32, 100 bins, weights", lambda L: (to_device(L, xh), to_device(L, wh)),
                          lambda L, s: histogram(L, s[0], 100, (-4.0, 4.0), s[1]), floor(2 * xh.nbytes), repeats))
    del xh, wh

    m = sz["bincount_n"]
    xb = rng.integers(0, 1000, m, dtype=np.int32)
    rows.append(timed_row(libs, names, f"bincount {m:.0e} int32 < 1000",
                          lambda L: to_device(L, xb) if L.name != "torch" else to_device(L, xb.astype(np.int64)),
                          lambda L, x: bincount(L, x, 1000), floor(xb.nbytes), repeats))
    del xb

    k = sz["hist2d_n"]
    px, py = rng.standard_normal(k), rng.standard_normal(k)
    rows.append(timed_row(libs, names, f"histogram2d {k:.0e} f64 points, 50x50 bins",
                          lambda L: (to_device(L, px), to_device(L, py)),
                          lambda L, s: histogram2d(L, s[0], s[1], 50), floor(px.nbytes + py.nbytes), repeats))
    del px, py

    shape = sz["median"]
    xm = rng.standard_normal(shape, dtype=np.float32)
    sm = xm[:50]
    check(libs, names, lambda L: L.xp.median(to_device(L, sm), axis=1), np.median(sm, axis=1))
    rows.append(timed_row(libs, names, f"median axis=1 of {shape} f32", lambda L: to_device(L, xm),
                          lambda L, x: median(L, x), floor(xm.nbytes), repeats))
    rows.append(timed_row(libs, names, f"percentile [25, 75] axis=1 of {shape} f32", lambda L: to_device(L, xm),
                          lambda L, x: percentile(L, x, [25, 75]), floor(xm.nbytes), repeats))
    xm[rng.random(shape) < 0.1] = np.nan
    rows.append(timed_row(libs, names, f"nanmedian axis=1 of {shape} f32, 10% NaN", lambda L: to_device(L, xm),
                          lambda L, x: nanmedian(L, x), floor(xm.nbytes), repeats))
    return rows


def table(rows, names):
    peers = [n for n in names if n not in ("copper", "numpy")]
    head = ["workload"] + [f"{n} ms" for n in names] + ["floor ms", "copper / floor"]
    head += ["copper / best peer"] if peers else ["numpy / copper"] if "numpy" in names else []
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ms = r["ms"]
        c = ms.get("copper")
        floor = r.get("floor_ms")
        cells = [r["workload"]] + [fmt(ms.get(n), 4) for n in names] + [
            fmt(floor, 4), f"{c / floor:.2f}x" if c and floor else "-"]
        if peers:
            best = [ms[n] for n in peers if ms.get(n)]
            cells.append(f"{c / min(best):.3f}" if c and best else "-")
        elif "numpy" in names:
            cells.append(f"{ms['numpy'] / c:.1f}x" if c and ms.get("numpy") else "-")
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="CPU sizes (copper on the CPU where no GPU is found)")
    parser.add_argument("--numpy", action="store_true", help="time NumPy beside the GPU libraries too")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--libs", default="copper,cupy,torch")
    parser.add_argument("--out", default=RESULTS_DIR)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sz = QUICK if args.quick else CPU if args.cpu else FULL
    notes = []
    libs = gpu_libraries([n for n in args.libs.split(",") if n and n != "numpy"], notes)
    for n in notes:
        log("note:", n)
    gpu_names = [n for n in GPU_LIBS if n in libs and libs[n].on_gpu]
    if args.cpu or not gpu_names:  # copper on the CPU against NumPy
        names = [n for n in ("copper",) if n in libs] + ["numpy"]
    else:
        names = gpu_names + (["numpy"] if args.numpy else [])
    machine = machine_info(libs, notes)
    log(json.dumps(machine))
    _, bw = bandwidth_section(libs, sz["bw_bytes"], 3)
    log(f"bandwidth: read {fmt(bw.get('read_bw', 0) / 1e12, 3)} TB/s")
    rows = sections(libs, names, sz, bw, args.repeats)
    head = (f"{machine['date']}: {machine.get('gpu', 'no GPU')}; read {fmt(bw.get('read_bw', 0) / 1e12, 3)} TB/s; "
            + ", ".join(f"{k} {v}" for k, v in machine["versions"].items())
            + ("; QUICK sizes" if args.quick else "; CPU sizes" if args.cpu else ""))
    md = "\n".join([head, ""] + table(rows, names)) + "\n"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "stats_bench.json"), "w") as f:
        json.dump(dict(machine=machine, bandwidth=bw, rows=rows, date=datetime.date.today().isoformat(),
                       seconds=time.perf_counter() - started), f, indent=1, default=str)
    with open(os.path.join(args.out, "stats_bench.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
