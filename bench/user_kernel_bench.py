"""User kernels from source, copper beside CuPy in one process (issue 5, "Speed").

    PYTHONPATH=build-gpu/python python3 bench/user_kernel_bench.py           # seconds on an H200
    PYTHONPATH=build-gpu/python python3 bench/user_kernel_bench.py --quick

(a) The same ElementwiseKernel source (CuPy's squared_diff example, z = (x - y)^2) on 1e8
    float32 and float64 elements, timed with each library's CUDA events, against the memory
    floor: bytes moved (two reads and a write) over the device-to-device copy bandwidth
    measured here. Goal: within 1.10x of the floor and no slower than CuPy.
(b) RawKernel launch overhead: host microseconds per launch of the same one-thread kernel
    from Python, many launches and one synchronization. Goal: no more than CuPy's.
(c) The same ReductionKernel source (CuPy's l2norm example) over rows of 1e4 elements; its
    floor is the bytes read over the same bandwidth.

Prints one markdown table; writes user_kernel_bench.{md,json} to --out when given.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

SQUARED_DIFF = ("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
L2NORM = ("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
TINY = r'''extern "C" __global__ void tiny(float* out, float v) { if (threadIdx.x == 0) out[0] = v; }'''


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def libraries():
    libs = {}
    import copper
    if not copper.cuda.is_available():
        sys.exit("user_kernel_bench: copper finds no GPU")
    copper.set_default_device("cuda:0")
    libs["copper"] = copper
    try:
        import cupy
        cupy.zeros(1)
        libs["cupy"] = cupy
    except Exception as e:
        log(f"CuPy skipped: {e}")
    return libs


def event_ms(lib, fn, loops):
    start, end = lib.cuda.Event(), lib.cuda.Event()
    start.record()
    for _ in range(loops):
        fn()
    end.record()
    end.synchronize()
    return lib.cuda.get_elapsed_time(start, end) / loops


def median_ms(lib, fn, repeats=7, loops=20):
    fn()
    fn()
    return statistics.median(event_ms(lib, fn, loops) for _ in range(repeats))


def copy_bandwidth(libs, nbytes):
    best = 0.0
    for lib in libs.values():
        src, dst = lib.ones(nbytes // 4, dtype=np.float32), lib.zeros(nbytes // 4, dtype=np.float32)
        ms = median_ms(lib, lambda: lib.copyto(dst, src), repeats=5, loops=10)
        best = max(best, 2 * nbytes / (ms * 1e-3))
    return best


def host_us_per_launch(lib, launch, sync, count, repeats=5):
    for _ in range(200):
        launch()
    sync()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(count):
            launch()
        sync()
        samples.append((time.perf_counter() - t0) / count * 1e6)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    n = 10**6 if args.quick else 10**8
    libs = libraries()
    bw = copy_bandwidth(libs, (64 if args.quick else 2048) * 2**20)
    rows = []
    host = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        xh, yh = host.random(n).astype(dtype), host.random(n).astype(dtype)
        floor = 3 * xh.nbytes / bw * 1e3
        row = dict(workload=f"ElementwiseKernel squared_diff, {n:.0e} {np.dtype(dtype).name}", floor_ms=floor, ms={},
                   correct={})
        for name, lib in libs.items():
            kernel = lib.ElementwiseKernel(*SQUARED_DIFF)
            x, y = lib.asarray(xh), lib.asarray(yh)
            z = lib.empty(n, dtype=dtype)
            row["ms"][name] = median_ms(lib, lambda: kernel(x, y, z))
            got = lib.asnumpy(z[:1000]) if name == "cupy" else z[:1000].get()
            row["correct"][name] = bool(np.allclose(got, (xh[:1000] - yh[:1000]) ** 2, rtol=1e-6))
            x = y = z = None
        rows.append(row)
    rows_red = 10**4
    xh = host.random((n // rows_red, rows_red)).astype(np.float32)
    row = dict(workload=f"ReductionKernel l2norm, {xh.shape} float32, axis=1", floor_ms=xh.nbytes / bw * 1e3, ms={},
               correct={})
    for name, lib in libs.items():
        kernel = lib.ReductionKernel(*L2NORM)
        x = lib.asarray(xh)
        row["ms"][name] = median_ms(lib, lambda: kernel(x, axis=1))
        got = kernel(x[:5], axis=1)
        got = lib.asnumpy(got) if name == "cupy" else got.get()
        row["correct"][name] = bool(np.allclose(got, np.sqrt((xh[:5].astype(np.float64) ** 2).sum(axis=1)), rtol=1e-5))
        x = None
    rows.append(row)
    launch_row = dict(workload="RawKernel launch, host us per launch (1 thread)", us={})
    for name, lib in libs.items():
        kernel = lib.RawKernel(TINY, "tiny")
        out = lib.zeros(1, dtype=np.float32)
        v = np.float32(2.5)
        launch_row["us"][name] = host_us_per_launch(lib, lambda: kernel((1,), (32,), (out, v)),
                                                    lib.cuda.Device(0).synchronize, 2000 if args.quick else 20000)
    lines = [f"copy bandwidth {bw / 1e12:.3f} TB/s", "", "| workload | copper | CuPy | floor | copper / floor | copper / CuPy |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        c, k = r["ms"].get("copper"), r["ms"].get("cupy")
        wrong = [name for name, ok in r["correct"].items() if not ok]
        lines.append(f"| {r['workload']}{' (WRONG: ' + ','.join(wrong) + ')' if wrong else ''} | {c:.4f} ms | "
                     f"{'n/a' if k is None else f'{k:.4f} ms'} | {r['floor_ms']:.4f} ms | {c / r['floor_ms']:.2f}x | "
                     f"{'n/a' if k is None else f'{c / k:.3f}'} |")
    c, k = launch_row["us"].get("copper"), launch_row["us"].get("cupy")
    lines.append(f"| {launch_row['workload']} | {c:.2f} us | {'n/a' if k is None else f'{k:.2f} us'} | - | - | "
                 f"{'n/a' if k is None else f'{c / k:.3f}'} |")
    md = "\n".join(lines) + "\n"
    print(md)
    wrong = any(not ok for r in rows for ok in r["correct"].values())
    print(f"user_kernel_bench: {len(rows) + 1} workloads; {'RESULTS WRONG' if wrong else 'results right'}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "user_kernel_bench.md"), "w") as f:
            f.write(md)
        with open(os.path.join(args.out, "user_kernel_bench.json"), "w") as f:
            json.dump(dict(bandwidth=bw, rows=rows, launch=launch_row), f, indent=1)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
