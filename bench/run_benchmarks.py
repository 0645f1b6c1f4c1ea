"""copper against NumPy (and CuPy / PyTorch where importable) on the seed workloads.

    PYTHONPATH=build/python python3 bench/run_benchmarks.py            # full sizes (8 GB cube)
    PYTHONPATH=build/python python3 bench/run_benchmarks.py --quick    # small sizes, a minute

Sections: the seed workloads; the x *= 5 size sweep (plotted as speedup vs size); CPU
thread scaling of elementwise work on 2e7 elements; Python per-call overhead on
10-element arrays; single-thread elementwise speed against NumPy's.

Times are medians of repeated runs after a warm-up, synchronizing device work inside the
timed region. Writes bench/results/{benchmarks.json, benchmarks.csv, summary.md,
sweep_speedup.png, thread_scaling.png}.
"""
import argparse
import csv
import datetime
import json
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import available_libraries, available_memory_bytes, cpu_model, median_ms  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


# ---- the workloads, written once against harness.Lib --------------------------------------
# Each returns (setup, run, check_shape): setup(L) makes the inputs, run(L, state) is timed.

def ones_workload(shape):
    return (lambda L: None), (lambda L, _: L.ones(shape))


def times5_workload(shape, dtype=np.float64):
    def run(L, x):
        x *= 5
    return (lambda L: L.ones(shape, dtype)), run


def chain_workload(shape):
    def run(L, x):
        x *= 5
        x *= x
        x += x
    return (lambda L: L.ones(shape)), run


def norm_workload(shape):
    def setup(L):
        return L.asarray(np.random.default_rng(0).random(shape))
    return setup, (lambda L, x: L.sqrt(L.sum(x**2, axis=-1)))


def add_workload(n, dtype):
    def setup(L):
        rng = np.random.default_rng(1)
        return L.asarray(rng.random(n).astype(dtype)), L.asarray(rng.random(n).astype(dtype))
    return setup, (lambda L, xy: xy[0] + xy[1])


def pipeline_workload():
    return (lambda L: None), (lambda L, _: L.small_pipeline())


def check_against_numpy(libs, make, small_shape_args):
    """Runs the workload once at a small size on each library; True where the result equals NumPy's."""
    setup, run = make(*small_shape_args)
    reference = libs["numpy"]
    state = setup(reference)
    want = run(reference, state)
    want = state if want is None else want  # in-place workloads: the array itself
    verdict = {}
    for name, L in libs.items():
        try:
            state = setup(L)
            got = run(L, state)
            got = L.to_numpy(state if got is None else got)
            verdict[name] = bool(got.shape == np.shape(want) and np.allclose(got, want, rtol=1e-6))
        except Exception as err:
            print(f"  {L.label}: {type(err).__name__}: {err}")
            verdict[name] = False
    return verdict


def time_workload(libs, make, args, repeats):
    """Median ms per library (None where a library failed)."""
    setup, run = make(*args)
    times = {}
    for name, L in libs.items():
        try:
            state = setup(L)
            L.sync()
            times[name] = median_ms(lambda: run(L, state), L.sync, repeats)
        except Exception as err:
            print(f"  {L.label}: {type(err).__name__}: {err}")
            times[name] = None
        state = None
        L.release()
    return times


# ---- sections ----------------------------------------------------------------------------

def seed_section(libs, edge, repeats):
    big = (edge, edge, edge)
    norm = (edge, max(1, edge // 10), edge)
    cases = [
        (f"ones({shape_text(big)})", ones_workload, (big,), big, "float64"),
        ("x *= 5", times5_workload, (big,), big, "float64"),
        ("x *= 5; x *= x; x += x", chain_workload, (big,), big, "float64"),
        ("sqrt(sum(x**2, axis=-1))", norm_workload, (norm,), norm, "float64"),
        ("arange(6).reshape(2,3).astype('f').sum(axis=1)", pipeline_workload, (), (2, 3), "int64->float32"),
    ]
    small = {ones_workload: ((4, 5, 6),), times5_workload: ((4, 5, 6),), chain_workload: ((4, 5, 6),),
             norm_workload: ((4, 5, 6),), pipeline_workload: ()}
    rows = []
    for name, make, args, shape, dtype in cases:
        print(f"seed: {name} {shape}", flush=True)
        ok = check_against_numpy(libs, make, small[make])
        reps = repeats if np.prod(shape) < 10**8 else min(repeats, 3)
        rows.append(dict(workload=name, shape=list(shape), dtype=dtype, correct=ok,
                         ms=time_workload(libs, make, args, reps)))
    return rows


def sweep_section(libs, sweep_max, repeats):
    rows = []
    n = 1000
    while n <= sweep_max:
        print(f"sweep: x *= 5 on {n:.0e} elements", flush=True)
        rows.append(dict(workload="x *= 5", shape=[n], dtype="float64",
                         ms=time_workload(libs, times5_workload, ((n,),), repeats)))
        n *= 10
    return rows


def thread_section(libs, n, repeats):
    """copper's time for elementwise work on n elements as threads grow, against NumPy's one thread."""
    if "copper" not in libs:
        return []
    import copper as cp
    cores = os.cpu_count() or 1
    counts = sorted({1, cores} | {2**k for k in range(1, 8) if 2**k < cores})
    saved = cp.get_num_threads()
    rows = []
    numpy_lib = {"numpy": libs["numpy"]}
    for name, make, args in [("x *= 5", times5_workload, ((n,),)),
                             ("x + y", add_workload, (n, np.float64))]:
        numpy_ms = time_workload(numpy_lib, make, args, repeats)["numpy"]
        for threads in counts:
            cp.set_num_threads(threads)
            print(f"threads: {name} on {n:.0e} elements, {threads} thread(s)", flush=True)
            ms = time_workload({"copper": libs["copper"]}, make, args, repeats)["copper"]
            rows.append(dict(workload=name, size=n, threads=threads, copper_ms=ms, numpy_ms=numpy_ms))
    cp.set_num_threads(saved)
    for row in rows:
        one = next(r["copper_ms"] for r in rows if r["workload"] == row["workload"] and r["threads"] == 1)
        row["scaling"] = one / row["copper_ms"] if one and row["copper_ms"] else None
    return rows


def overhead_section(libs, repeats):
    """Per-call cost on 10-element arrays, where Python-to-C++ overhead is all there is."""
    rows = []
    cases = [("x + y", add_workload, (10, np.float64)),
             ("x *= 5", times5_workload, ((10,),)),
             ("sqrt(sum(x**2, axis=-1))", norm_workload, ((10,),))]
    for name, make, args in cases:
        print(f"overhead: {name} on 10 elements", flush=True)
        times = time_workload(libs, make, args, repeats)
        rows.append(dict(workload=name, size=10, us={k: (v * 1e3 if v is not None else None) for k, v in times.items()}))
    return rows


def single_thread_section(libs, n, repeats):
    if "copper" not in libs:
        return []
    import copper as cp
    saved = cp.get_num_threads()
    cp.set_num_threads(1)
    pair = {k: libs[k] for k in ("numpy", "copper")}
    rows = []
    for dtype in (np.float64, np.float32):
        for name, make, args in [("x *= 5", times5_workload, ((n,), dtype)), ("x + y", add_workload, (n, dtype))]:
            print(f"single thread: {name} {np.dtype(dtype).name} on {n:.0e} elements", flush=True)
            times = time_workload(pair, make, args, repeats)
            rows.append(dict(workload=name, size=n, dtype=np.dtype(dtype).name, numpy_ms=times["numpy"],
                             copper_ms=times["copper"]))
    cp.set_num_threads(saved)
    return rows


# ---- output ------------------------------------------------------------------------------

def fmt(v, digits=3):
    return "n/a" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return None if not a or not b else a / b


def times(v):
    return "n/a" if v is None else f"{v:.2f}x"


def shape_text(shape):
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def markdown_tables(results, libs):
    extra = [k for k in libs if k not in ("numpy", "copper")]
    out = []
    head = "| workload | shape | dtype | NumPy ms | copper ms | speedup |" + "".join(f" {libs[k].label} ms |" for k in extra)
    sep = "|---|---|---|---:|---:|---:|" + "---:|" * len(extra)
    out += ["### Seed workloads", "", head, sep]
    for r in results["seed"] + results["sweep"]:
        ms = r["ms"]
        cells = [r["workload"], shape_text(r["shape"]), r["dtype"], fmt(ms.get("numpy")), fmt(ms.get("copper")),
                 times(ratio(ms.get("numpy"), ms.get("copper")))] + [fmt(ms.get(k)) for k in extra]
        out.append("| " + " | ".join(cells) + " |")
    if results["threads"]:
        out += ["", "### CPU thread scaling (copper)", "",
                "| workload | elements | threads | copper ms | vs 1 thread | NumPy ms (1 thread) |",
                "|---|---:|---:|---:|---:|---:|"]
        for r in results["threads"]:
            out.append(f"| {r['workload']} | {r['size']:.0e} | {r['threads']} | {fmt(r['copper_ms'])} | "
                       f"{times(r['scaling'])} | {fmt(r['numpy_ms'])} |")
    if results["overhead"]:
        out += ["", "### Per-call overhead, 10 elements", "",
                "| operation | NumPy µs | copper µs | copper / NumPy |", "|---|---:|---:|---:|"]
        for r in results["overhead"]:
            us = r["us"]
            out.append(f"| {r['workload']} | {fmt(us.get('numpy'), 2)} | {fmt(us.get('copper'), 2)} | "
                       f"{times(ratio(us.get('copper'), us.get('numpy')))} |")
    if results["single_thread"]:
        out += ["", "### One thread against NumPy", "",
                "| operation | dtype | elements | NumPy ms | copper ms (1 thread) | speedup |",
                "|---|---|---:|---:|---:|---:|"]
        for r in results["single_thread"]:
            out.append(f"| {r['workload']} | {r['dtype']} | {r['size']:.0e} | {fmt(r['numpy_ms'])} | "
                       f"{fmt(r['copper_ms'])} | {times(ratio(r['numpy_ms'], r['copper_ms']))} |")
    return "\n".join(out) + "\n"


def write_csv(path, results):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["section", "workload", "shape", "dtype", "threads", "library", "ms"])
        for section in ("seed", "sweep"):
            for r in results[section]:
                for lib, ms in r["ms"].items():
                    w.writerow([section, r["workload"], "x".join(map(str, r["shape"])), r["dtype"], "", lib, ms])
        for r in results["threads"]:
            w.writerow(["threads", r["workload"], r["size"], "float64", r["threads"], "copper", r["copper_ms"]])
        for r in results["overhead"]:
            for lib, us in r["us"].items():
                w.writerow(["overhead", r["workload"], r["size"], "float64", "", lib, None if us is None else us / 1e3])
        for r in results["single_thread"]:
            for lib in ("numpy", "copper"):
                w.writerow(["single_thread", r["workload"], r["size"], r["dtype"], 1, lib, r[f"{lib}_ms"]])


def plot(results, libs, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("matplotlib not installed: no plots")
        return []
    written = []
    if results["sweep"]:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        sizes = [r["shape"][0] for r in results["sweep"]]
        for name in libs:
            if name == "numpy":
                continue
            speedups = [ratio(r["ms"].get("numpy"), r["ms"].get(name)) for r in results["sweep"]]
            points = [(s, v) for s, v in zip(sizes, speedups) if v]
            if points:
                ax.plot(*zip(*points), marker="o", label=libs[name].label)
        ax.axhline(1.0, color="gray", linestyle="--", linewidth=1, label="NumPy")
        ax.set_xscale("log")
        ax.set_yscale("log")
        speedup_labels = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x")
        ax.yaxis.set_major_formatter(speedup_labels)
        ax.yaxis.set_minor_formatter(speedup_labels)
        ax.set_xlabel("elements (float64)")
        ax.set_ylabel("speedup over NumPy (NumPy time / time)")
        ax.set_title(f"x *= 5: speedup vs size\n{results['machine']['cpu']}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, "sweep_speedup.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    if results["threads"]:
        fig, ax = plt.subplots(figsize=(6, 4))
        for name in dict.fromkeys(r["workload"] for r in results["threads"]):
            rows = [r for r in results["threads"] if r["workload"] == name and r["scaling"]]
            ax.plot([r["threads"] for r in rows], [r["scaling"] for r in rows], marker="o", label=f"copper {name}")
        top = max(r["threads"] for r in results["threads"])
        ax.plot([1, top], [1, top], color="gray", linestyle="--", linewidth=1, label="linear")
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup over 1 thread")
        ax.set_title(f"thread scaling, {results['threads'][0]['size']:.0e} float64 elements", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, "thread_scaling.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: cube edge 200, sweep to 1e7")
    parser.add_argument("--size", type=int, default=None, help="cube edge (default 1000, less if memory is short)")
    parser.add_argument("--sweep-max", type=float, default=None, help="largest sweep size (default 1e8)")
    parser.add_argument("--thread-elements", type=float, default=2e7, help="elements for thread scaling")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--libs", default="numpy,copper,cupy,torch")
    parser.add_argument("--out", default=RESULTS_DIR)
    parser.add_argument("--sections", default="seed,sweep,threads,overhead,single_thread")
    args = parser.parse_args(argv)
    # Repeated in-place workloads overflow to inf on purpose; timing is unaffected.
    np.seterr(over="ignore")

    edge = args.size or (200 if args.quick else 1000)
    budget = 0.75 * available_memory_bytes()  # one library's cube at a time
    if not args.size and edge**3 * 8 > budget:
        edge = max(10, int((budget / 8) ** (1 / 3)) // 10 * 10)
        print(f"note: {budget / 2**30:.1f} GiB available; cube edge reduced to {edge}")
    sweep_max = args.sweep_max or (1e7 if args.quick else 1e8)
    thread_n = int(min(args.thread_elements, 1e7) if args.quick else args.thread_elements)
    sections = set(args.sections.split(","))

    libs = available_libraries(["numpy"] + [n for n in args.libs.split(",") if n != "numpy"])
    machine = dict(cpu=cpu_model(), cores=os.cpu_count(), python=platform.python_version(),
                   numpy=np.__version__, date=datetime.date.today().isoformat(),
                   libraries={k: L.label for k, L in libs.items()})
    if "copper" in libs:
        import copper as cp
        machine.update(copper=cp.__version__, copper_device=str(cp.get_default_device()),
                       copper_threads=cp.get_num_threads())
    print(json.dumps(machine))

    results = dict(machine=machine, seed=[], sweep=[], threads=[], overhead=[], single_thread=[])
    if "seed" in sections:
        results["seed"] = seed_section(libs, edge, args.repeats)
    if "sweep" in sections:
        results["sweep"] = sweep_section(libs, sweep_max, args.repeats)
    if "threads" in sections:
        results["threads"] = thread_section(libs, thread_n, args.repeats)
    if "overhead" in sections:
        results["overhead"] = overhead_section(libs, args.repeats)
    if "single_thread" in sections:
        results["single_thread"] = single_thread_section(libs, thread_n, args.repeats)

    os.makedirs(args.out, exist_ok=True)
    summary = (f"{machine['date']}, {machine['cpu']} ({machine['cores']} cores), NumPy {machine['numpy']}, "
               f"Python {machine['python']}\n\n" + markdown_tables(results, libs))
    print("\n" + summary)
    with open(os.path.join(args.out, "benchmarks.json"), "w") as f:
        json.dump(results, f, indent=1)
    write_csv(os.path.join(args.out, "benchmarks.csv"), results)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    for path in plot(results, libs, args.out):
        print("wrote", path)
    print("wrote", os.path.join(args.out, "benchmarks.{json,csv}"), "and summary.md")
    wrong = [r["workload"] for r in results["seed"] if not all(r["correct"].values())]
    if wrong:
        print("results differ from NumPy's for:", ", ".join(wrong))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
