"""Issue 15's speed goals: copper.fft beside CuPy, PyTorch and NumPy in one process.

    PYTHONPATH=build-gpu/python python3 bench/fft_bench.py            # GPU sizes, ~1 min on an H200
    PYTHONPATH=build-gpu/python python3 bench/fft_bench.py --quick    # small sizes, seconds
    PYTHONPATH=build/python python3 bench/fft_bench.py --cpu          # copper on the CPU vs NumPy, ~1e7 elements

Workloads: fft of 2^24 complex64 and complex128, a batch of 4096 transforms of length 4096
along the last axis (complex64), rfft of 2^26 float32, fft2 of 4096x4096 complex64. The plan
is cached: every library is warmed up before timing (the second call onwards is timed). The
floor is the bytes one pass must move (read the input once, write the output once) over the
device's measured copy bandwidth; FFTs of these sizes take two or three passes in cuFFT.
--cpu runs the same shapes scaled to about 1e7 elements with copper's CPU backend (FFTW)
against NumPy's pocketfft, host clock, copper at 1 thread and at all of its threads.

Writes fft_bench.{json,md} (fft_bench_cpu.* with --cpu) to --out (default bench/results).
"""
import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_bench import bandwidth_section, log, machine_info  # noqa: E402
from gpu_report import fmt  # noqa: E402
from harness import WallClock, bench_ms, gpu_libraries  # noqa: E402
from linalg_random_bench import table, timed_row  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
GPU = dict(n1=2**24, batch=(4096, 4096), nr=2**26, n2=(4096, 4096), bw_bytes=2 * 2**30)
QUICK = dict(n1=2**16, batch=(64, 1024), nr=2**18, n2=(256, 256), bw_bytes=64 * 2**20)
CPU = dict(n1=2**23, batch=(2048, 4096), nr=2**23, n2=(2048, 4096))


def workloads(sz):
    """(label, function name, input shape, input dtype, output bytes per input element)."""
    return [
        (f"fft, {sz['n1']} complex64", "fft", (sz["n1"],), np.complex64),
        (f"fft, {sz['n1']} complex128", "fft", (sz["n1"],), np.complex128),
        (f"fft along the last axis, {sz['batch'][0]}x{sz['batch'][1]} complex64", "fft", sz["batch"], np.complex64),
        (f"rfft, {sz['nr']} float32", "rfft", (sz["nr"],), np.float32),
        (f"fft2, {sz['n2'][0]}x{sz['n2'][1]} complex64", "fft2", sz["n2"], np.complex64),
    ]


def host_input(shape, dtype):
    rng = np.random.default_rng(15)
    x = rng.standard_normal(shape, dtype=np.float32)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape, dtype=np.float32)
    return x.astype(dtype)


def moved_bytes(fn, shape, dtype):
    n = int(np.prod(shape))
    out_items = n // 2 + 1 if fn == "rfft" else n
    out_size = 2 * np.dtype(dtype).itemsize if fn == "rfft" else np.dtype(dtype).itemsize
    return n * np.dtype(dtype).itemsize + out_items * out_size


def transform(L, fn, x):
    return getattr(L.xp.fft, fn)(x)


def check(L, fn, dtype):
    small = host_input((256,) if fn != "fft2" else (16, 32), dtype)
    got = L.to_numpy(transform(L, fn, L.asarray(small)))
    want = getattr(np.fft, fn)(small.astype(np.complex128 if fn != "rfft" else np.float64))
    tol = 1e-5 if np.dtype(dtype) in (np.complex64, np.float32) else 1e-12
    return got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


def gpu_main(args, sz):
    libs = gpu_libraries([n for n in args.libs.split(",") if n and n != "numpy"], notes := [])
    for n in notes:
        log("note:", n)
    machine = machine_info(libs, notes)
    log(json.dumps(machine))
    _, bw = bandwidth_section(libs, sz["bw_bytes"], 3)
    log(f"bandwidth: copy {fmt(bw.get('copy_bw', 0) / 1e12, 3)} TB/s")
    rows = []
    for label, fn, shape, dtype in workloads(sz):
        floor = moved_bytes(fn, shape, dtype) / bw["copy_bw"] * 1e3 if bw.get("copy_bw") else None
        host = host_input(shape, dtype)
        rows.append(timed_row(libs, label, lambda L, host=host: L.asarray(host),
                              lambda L, x, fn=fn: transform(L, fn, x), floor, args.repeats,
                              check=lambda L, fn=fn, dtype=dtype: check(L, fn, dtype)))
        host = None
    lines = table(rows, libs)
    return dict(machine=machine, bandwidth=bw, rows=rows), lines


def cpu_main(args, sz):
    import copper as cp
    all_threads = cp.get_num_threads()
    rows = []
    clock = WallClock(lambda: None)
    for label, fn, shape, dtype in workloads(sz):
        host = host_input(shape, dtype)
        row = dict(workload=label, ms={})
        row["ms"]["numpy"], _ = bench_ms(lambda: getattr(np.fft, fn)(host), clock, args.repeats)
        x = cp.asarray(host, device="cpu")
        for threads in sorted({1, all_threads}):
            cp.set_num_threads(threads)
            row["ms"][f"copper {threads}t"], _ = bench_ms(lambda: getattr(cp.fft, fn)(x), clock, args.repeats)
        cp.set_num_threads(all_threads)
        row["correct"] = bool(np.allclose(cp.asnumpy(getattr(cp.fft, fn)(x[:1024] if len(shape) == 1 else x[:4])),
                                          getattr(np.fft, fn)(host[:1024] if len(shape) == 1 else host[:4]),
                                          rtol=1e-4, atol=1e-3))
        log(f"{label}: " + ", ".join(f"{k} {fmt(v, 4)} ms" for k, v in row["ms"].items()))
        rows.append(row)
        x = host = None
    names = list(rows[0]["ms"])
    lines = ["| workload | " + " | ".join(f"{n} ms" for n in names) + " | NumPy / copper (best) |",
             "|" + "---|" * (len(names) + 2)]
    for r in rows:
        best = min(v for k, v in r["ms"].items() if k.startswith("copper"))
        lines.append(f"| {r['workload']}{'' if r['correct'] else ' (WRONG)'} | "
                     + " | ".join(fmt(r["ms"][n], 4) for n in names) + f" | {r['ms']['numpy'] / best:.2f}x |")
    machine = dict(date=datetime.datetime.now().isoformat(timespec="seconds"), cores=os.cpu_count(),
                   copper_threads=all_threads, numpy=np.__version__)
    return dict(machine=machine, rows=rows), lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="copper's CPU backend against NumPy, ~1e7 elements")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--libs", default="copper,cupy,torch")
    parser.add_argument("--out", default=RESULTS_DIR)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.cpu:
        result, lines = cpu_main(args, QUICK if args.quick else CPU)
        stem = "fft_bench_cpu"
    else:
        result, lines = gpu_main(args, QUICK if args.quick else GPU)
        stem = "fft_bench"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, stem + ".json"), "w") as f:
        json.dump(result, f, indent=1, default=str)
    with open(os.path.join(args.out, stem + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("\n".join(lines))
    log(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
