"""Interoperability speed (issue 13, "Speed"): zero-copy exchange and Dask over copper chunks.

    PYTHONPATH=build-gpu/python python3 bench/interop_bench.py            # GPU machine: torch, CuPy, Dask
    PYTHONPATH=build/python COPPER_DEVICE=cpu python3 bench/interop_bench.py --quick   # CPU figures

(a) DLPack exchange of a 1 GiB array: copper.from_dlpack(torch GPU tensor) and
    torch.from_dlpack(copper array), beside cupy.from_dlpack(torch) and torch.from_dlpack(cupy)
    (median microseconds per call; no copy, so the time does not depend on the size), plus
    NumPy <-> copper on the CPU and copper.asarray through __cuda_array_interface__.
(b) A sum over 1e9 elements (float32: 4 GB, float64: 8 GB; --dtypes) of copper chunks with
    Dask's threaded scheduler, and with the graph built once and run on the sync scheduler,
    against copper's own sum of the same single array, for a few chunk sizes; the per-task
    overhead is (Dask time - copper time) / tasks. The issue's goal: Dask reaches 80% of
    copper's own sum (at a sensible chunk size).

Prints markdown tables. Libraries that are missing (or have no GPU) read "n/a".
"""
import argparse
import statistics
import sys
import time

import numpy as np

import copper as cp


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def median_us(fn, repeats, inner=20):
    """Median microseconds per call over `repeats` batches of `inner` calls."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner * 1e6)
    return statistics.median(times)


def optional(name):
    try:
        return __import__(name)
    except Exception as e:
        log(f"{name} skipped: {e}")
        return None


def gpu():
    return cp.get_default_device().type == "cuda"


def exchange_rows(nbytes, repeats):
    rows = []
    n = nbytes // 4
    host = np.ones(n, dtype=np.float32)
    x_cpu = cp.from_dlpack(host)
    rows.append(("NumPy -> copper (CPU)", "copper.from_dlpack(numpy)", median_us(lambda: cp.from_dlpack(host), repeats)))
    rows.append(("copper -> NumPy (CPU)", "numpy.from_dlpack(copper)", median_us(lambda: np.from_dlpack(x_cpu), repeats)))
    torch = optional("torch")
    cupy = optional("cupy") if gpu() else None
    if gpu():
        x = cp.ones(n, dtype=cp.float32)
        rows.append(("copper -> copper (GPU)", "copper.from_dlpack(copper)", median_us(lambda: cp.from_dlpack(x), repeats)))
        if torch is not None and torch.cuda.is_available():
            t = torch.ones(n, dtype=torch.float32, device="cuda")
            rows.append(("torch -> copper", "copper.from_dlpack(torch)", median_us(lambda: cp.from_dlpack(t), repeats)))
            rows.append(("copper -> torch", "torch.from_dlpack(copper)", median_us(lambda: torch.from_dlpack(x), repeats)))
            rows.append(("torch -> copper", "copper.asarray(torch) (CUDA array interface)",
                         median_us(lambda: cp.asarray(t), repeats)))
            if cupy is not None:
                c = cupy.ones(n, dtype=cupy.float32)
                rows.append(("torch -> CuPy", "cupy.from_dlpack(torch)", median_us(lambda: cupy.from_dlpack(t), repeats)))
                rows.append(("CuPy -> torch", "torch.from_dlpack(cupy)", median_us(lambda: torch.from_dlpack(c), repeats)))
                rows.append(("torch -> CuPy", "cupy.asarray(torch) (CUDA array interface)",
                             median_us(lambda: cupy.asarray(t), repeats)))
        if cupy is not None:
            c = cupy.ones(n, dtype=cupy.float32)
            rows.append(("CuPy -> copper", "copper.from_dlpack(cupy)", median_us(lambda: cp.from_dlpack(c), repeats)))
            rows.append(("copper -> CuPy", "cupy.from_dlpack(copper)", median_us(lambda: cupy.from_dlpack(x), repeats)))
    return rows


def timed(fn, repeats):
    """Median seconds of fn() including a host read of its (small) result."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        float(fn())
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def dask_rows(elements, chunk_list, repeats, dtype="float32", fixed_cost=True):
    da = optional("dask.array")
    if da is None:
        return []
    import dask.array as da
    x = cp.ones(elements, dtype=dtype)
    float(cp.sum(x))  # warm up: kernels compiled, memory pool primed
    own = timed(lambda: cp.sum(x), repeats)
    rows = [("copper.sum (one array)", 1, own, 1.0, None)]
    for chunk in chunk_list:
        d = da.from_array(x, chunks=chunk, asarray=False)  # chunks are views of x: no copy
        float(d.sum().compute(scheduler="threads"))
        t = timed(lambda: d.sum().compute(scheduler="threads"), repeats)
        tasks = len(d.sum().__dask_graph__())
        rows.append((f"dask sum, chunks of {chunk:.0e}", tasks, t, own / t, (t - own) / tasks * 1e6))
        # The cheapest way to run it again: the graph built once, one thread (a GPU's work is
        # asynchronous anyway, so Dask's bookkeeping overlaps it) and no re-optimization.
        s = d.sum()
        float(s.compute(scheduler="sync", optimize_graph=False))
        t = timed(lambda: s.compute(scheduler="sync", optimize_graph=False), repeats)
        rows.append((f"  same, graph built once, sync scheduler, optimize_graph=False", tasks, t, own / t,
                     (t - own) / tasks * 1e6))
    if not fixed_cost:
        return rows
    # Dask's own fixed cost (graph, scheduler, aggregation) with no GPU work to speak of: the
    # least any Dask sum takes, whatever copper does.
    tiny = da.from_array(cp.ones(1000, dtype=cp.float32), chunks=1000, asarray=False)
    for scheduler in ("threads", "sync"):
        float(tiny.sum().compute(scheduler=scheduler))
        t = timed(lambda: tiny.sum().compute(scheduler=scheduler), repeats)
        rows.append((f"dask sum of 1e3 elements, one chunk ({scheduler} scheduler)", len(tiny.sum().__dask_graph__()),
                     t, own / t, None))
    built = tiny.sum()
    t = timed(lambda: built.compute(scheduler="sync", optimize_graph=False), repeats)
    rows.append(("  same, graph built once, sync, optimize_graph=False", len(built.__dask_graph__()), t, own / t, None))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CPU figures, seconds)")
    parser.add_argument("--elements", type=float, help="elements of the Dask sum (default 1e9, 1e8 with --quick)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dtypes", default="float32,float64",
                        help="dtypes of the Dask sum (the issue names 1e9 elements, not a dtype)")
    args = parser.parse_args()
    nbytes = (64 << 20) if args.quick else (1 << 30)
    elements = int(args.elements or (1e8 if args.quick else 1e9))
    device = cp.get_default_device()
    print(f"device: {device}\n")

    print(f"### (a) Zero-copy exchange of a {nbytes >> 20} MiB float32 array (median us per call)\n")
    print("| direction | call | us |\n|---|---|---|")
    for direction, call, us in exchange_rows(nbytes, args.repeats):
        print(f"| {direction} | `{call}` | {us:.1f} |")

    chunk_list = [c for c in (elements // 100, elements // 10, elements // 4, elements) if c > 0]
    for k, dtype in enumerate(args.dtypes.split(",")):
        print(f"\n### (b) Sum of {elements:.0e} {dtype} elements: Dask over copper chunks vs copper\n")
        print("| what | tasks | seconds | fraction of copper's speed | per-task overhead (us) |\n|---|---|---|---|---|")
        for what, tasks, secs, frac, overhead in dask_rows(elements, chunk_list, args.repeats, dtype, k == 0):
            ov = "" if overhead is None else f"{overhead:.0f}"
            print(f"| {what} | {tasks} | {secs:.4f} | {frac:.2f} | {ov} |")


if __name__ == "__main__":
    main()
