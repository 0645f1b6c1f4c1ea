"""CUDA graph replay and the profiler, copper beside CuPy in one process (issue 5, "Speed").

    PYTHONPATH=build-gpu/python python3 bench/graph_bench.py           # about a minute on an H100
    PYTHONPATH=build-gpu/python python3 bench/graph_bench.py --quick   # seconds

(a) 100 small ops (x += 1 on 1000 float32 elements) issued one by one, against the same
    100 ops captured once into a CUDA graph (Stream.begin_capture / end_capture) and
    replayed: time per round of 100 ops, measured over many rounds with one
    synchronization at the end (so host launch overhead, not latency, is what counts).
    The issue's goal: replay at least 3x faster than issuing the ops one by one.
(b) copper.profiler.benchmark against cupyx.profiler.benchmark on one op (x * 2 + 1 on
    1e6 float32): their CPU and GPU means, which should agree, and each harness's own cost.

Prints markdown tables. Without a GPU (or without CuPy) the missing columns read "n/a".
"""
import argparse
import statistics
import sys
import time

import numpy as np


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def load_libraries():
    libs = {}
    try:
        import copper
        libs["copper"] = copper
    except ImportError as e:  # pragma: no cover - the script is for copper
        sys.exit(f"copper is not importable: {e}")
    try:
        import cupy
        import cupyx.profiler  # noqa: F401
        cupy.zeros(1)
        libs["cupy"] = cupy
    except Exception as e:  # no CuPy or no GPU for it
        log(f"CuPy skipped: {e}")
    return libs


def has_gpu(name, lib):
    if name == "copper":
        return lib.cuda.is_available()
    return True


def rounds_per_second(run_round, rounds, sync, repeats):
    """Median microseconds per round over `repeats` batches of `rounds` rounds each."""
    times = []
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter()
        for _ in range(rounds):
            run_round()
        sync()
        times.append((time.perf_counter() - t0) / rounds * 1e6)
    return statistics.median(times)


def graph_case(name, lib, n_ops, n_elem, rounds, repeats):
    """(eager us per round, graph us per round, correct?) for one library."""
    if name == "copper":
        x = lib.zeros(n_elem, dtype=lib.float32, device="cuda:0")
        stream = lib.cuda.Stream(non_blocking=True)
        def sync(): stream.synchronize()
    else:
        x = lib.zeros(n_elem, dtype=lib.float32)
        stream = lib.cuda.Stream(non_blocking=True)
        def sync(): stream.synchronize()

    def ops():
        for _ in range(n_ops):
            x.__iadd__(1)

    with stream:
        ops()  # warm: kernels compiled and loaded
        eager = rounds_per_second(ops, rounds, sync, repeats)
        stream.begin_capture()
        ops()
        graph = stream.end_capture()
        graph.launch(stream)
        sync()
        replay = rounds_per_second(lambda: graph.launch(stream), rounds, sync, repeats)
    # x was incremented n_ops times per round: warm-up, eager rounds, the check launch, replays.
    expected = n_ops * (1 + rounds * repeats + 1 + rounds * repeats)
    got = float(x[0].get())
    return eager, replay, got == expected


def profiler_case(name, lib, n_elem, n_repeat):
    """(CPU mean us, GPU mean us, harness us per repeat) for one op under the library's profiler."""
    if name == "copper":
        x = lib.ones(n_elem, dtype=lib.float32, device="cuda:0")
        bench = lib.profiler.benchmark
    else:
        import cupyx.profiler
        x = lib.ones(n_elem, dtype=lib.float32)
        bench = cupyx.profiler.benchmark

    def op(a):
        return a * 2 + 1

    t0 = time.perf_counter()
    r = bench(op, (x,), n_repeat=n_repeat, n_warmup=10)
    wall = (time.perf_counter() - t0) / (n_repeat + 10) * 1e6
    cpu = float(np.mean(r.cpu_times)) * 1e6
    gpu = float(np.mean(r.gpu_times[0])) * 1e6 if np.size(r.gpu_times) else float("nan")
    return cpu, gpu, wall, str(r)


def fmt(v, digits=1):
    return "n/a" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer rounds: seconds instead of a minute")
    args = parser.parse_args()
    rounds, repeats, n_repeat = (20, 3, 200) if args.quick else (200, 7, 5000)
    n_ops, n_elem = 100, 1000
    libs = load_libraries()
    gpu_libs = {n: lib for n, lib in libs.items() if has_gpu(n, lib)}
    if "copper" not in gpu_libs:
        log("copper finds no GPU: graph capture needs one; only the profiler on the CPU runs")

    print(f"## (a) {n_ops} small ops (x += 1 on {n_elem} float32): one by one vs one graph replay\n")
    print("| library | one by one, us per round | graph replay, us per round | speedup | results right |")
    print("|---|---|---|---|---|")
    for name in ("copper", "cupy"):
        if name not in gpu_libs:
            print(f"| {name} | n/a | n/a | n/a | n/a |")
            continue
        try:
            eager, replay, ok = graph_case(name, gpu_libs[name], n_ops, n_elem, rounds, repeats)
            print(f"| {name} | {fmt(eager)} | {fmt(replay)} | {eager / replay:.1f}x | {'yes' if ok else 'NO'} |")
        except Exception as e:  # report and go on: the other library's row still counts
            print(f"| {name} | error: {type(e).__name__}: {e} | | | |")
    if "copper" in libs:
        c = libs["copper"]
        if c.cuda.is_available():
            print(f"\ncopper launch calls per replay: checked by tests/python/test_cuda_graphs.py "
                  f"(launch_count now {c.cuda.launch_count()})")

    print("\n## (b) profiler: x * 2 + 1 on 1e6 float32\n")
    print("| harness | CPU mean, us | GPU mean, us | harness wall time per repeat, us |")
    print("|---|---|---|---|")
    for name in ("copper", "cupy"):
        lib = libs.get(name)
        if lib is None or (name == "cupy" and name not in gpu_libs):
            print(f"| {name} | n/a | n/a | n/a |")
            continue
        try:
            if name == "copper" and not lib.cuda.is_available():
                x = lib.ones(10**6, dtype=lib.float32)
                r = lib.profiler.benchmark(lambda a: a * 2 + 1, (x,), n_repeat=n_repeat // 10)
                print(f"| copper (CPU backend) | {fmt(float(np.mean(r.cpu_times)) * 1e6)} | n/a | n/a |")
                continue
            cpu, gpu, wall, text = profiler_case(name, lib, 10**6, n_repeat)
            label = "copper.profiler.benchmark" if name == "copper" else "cupyx.profiler.benchmark"
            print(f"| {label} | {fmt(cpu)} | {fmt(gpu)} | {fmt(wall)} |")
            log(text)
        except Exception as e:
            print(f"| {name} | error: {type(e).__name__}: {e} | | |")


if __name__ == "__main__":
    main()
