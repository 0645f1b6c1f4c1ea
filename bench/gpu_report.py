"""Reporting for bench/gpu_bench.py: the issue's goals checked against the results, the
markdown tables, the CSV and the size-sweep plot. Results are the dict gpu_bench builds."""
import csv
import math

PEERS = ("cupy", "torch")


# ---- goals (the "Speed and memory") ---------------------------------------------------

def goals(results):
    out = []

    def add(goal, value, ok):
        out.append(dict(goal=goal, measured=value, verdict="n/a" if ok is None else ("met" if ok else "MISSED")))

    for r in results["seed"]:
        if r["group"] in ("fill", "elementwise") and math.prod(r["shape"]) >= 10**8 and "x *= x" not in r["workload"]:
            c = r["ms"].get("copper")
            peers = [r["ms"].get(p) for p in PEERS if r["ms"].get(p)]
            ratio = c / r["floor_ms"] if c and r.get("floor_ms") else None
            add(f"{r['workload']} {r['dtype']}: <= 1.10x floor, faster than CuPy and PyTorch",
                f"{times(ratio)} floor; peers {', '.join(fmt(p) for p in peers) or 'n/a'} ms",
                None if ratio is None else (ratio <= 1.10 and all(c < p for p in peers)))
    for r in results["reductions"]:
        if math.prod(r["shape"]) >= 10**8:
            share = (r.get("read_pct") or {}).get("copper")
            add(f"{r['workload']} {r['dtype']}: >= 85% of read bandwidth", pct(share),
                None if share is None else share >= 85)
    for r in results["overhead"]:
        us = r["us"].get("copper")
        limit = 3.0 if r["workload"].startswith("C++") else 5.0
        if r["workload"].startswith(("x + y", "C++")):
            add(f"per-op host overhead {r['workload']}: <= {limit:g} us", f"{fmt(us, 2)} us",
                None if us is None else us <= limit)
    if results["overhead"] and not any(r["workload"].startswith("C++") for r in results["overhead"]):
        add("per-op host overhead, C++: <= 3 us", "no C++ bench binary", None)
    for r in results["first_use"]:
        if r["library"] == "copper":
            limit = 60.0 if r["phase"] == "empty cache" else 2.0
            v = r.get("first_use_ms")
            add(f"first use of a new kernel, {r['phase']}: <= {limit:g} ms", f"{fmt(v, 2)} ms",
                None if v is None else v <= limit)
    t = {r["library"]: r for r in results["transfers"]}
    for key, what in (("asarray_gbs", "asarray"), ("asnumpy_gbs", "asnumpy")):
        c, p = t.get("copper", {}).get(key), t.get("cupy", {}).get(key)
        add(f"{what} of pageable memory: >= 2x CuPy's throughput", f"{fmt(c, 2)} vs {fmt(p, 2)} GB/s",
            None if not c or not p else c >= 2 * p)
    mem = results.get("memory") or {}
    for r in mem.get("inplace", []):
        v = r["extra_bytes"].get("copper")
        add(f"in-place ops allocate nothing: {r['workload']}", f"{v} bytes", None if v is None else v == 0)
    for r in mem.get("peak", []):
        c, p = r["peak"].get("copper"), r["peak"].get("cupy")
        add(f"peak memory {r['workload']} {r['dtype']}: <= CuPy's", f"{gigabytes(c)} vs {gigabytes(p)}",
            None if c is None or p is None else c <= p)
    return out


# ---- output ------------------------------------------------------------------------------------

def fmt(v, digits=3):
    return "n/a" if v is None else f"{v:.{digits}f}"


def times(v):
    return "n/a" if v is None else f"{v:.2f}x"


def pct(v):
    return "n/a" if v is None else f"{v:.0f}%"


def gigabytes(v):
    return "n/a" if v is None else f"{v / 1e9:.3f} GB"


def _table(head, rows):
    return ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"] + \
           ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def main_table(results, libs):
    rows = []
    for r in results["seed"] + results["reductions"]:
        ms = r["ms"]
        c = ms.get("copper")
        peers = [(ms[p], p) for p in PEERS if ms.get(p)]
        best = min(peers) if peers else None
        wrong = [k for k, ok in r["correct"].items() if not ok]
        note = ""
        if r.get("read_pct"):
            note = "read bw: " + ", ".join(f"{k} {pct(v)}" for k, v in r["read_pct"].items() if k != "numpy")
        if wrong:
            note += (" " if note else "") + "WRONG RESULT: " + ", ".join(wrong)
        rows.append([f"{r['workload']} {r['dtype']}", fmt(c), fmt(ms.get("cupy")), fmt(ms.get("torch")),
                     fmt(ms.get("numpy")), fmt(r.get("floor_ms")),
                     times(c / r["floor_ms"] if c and r.get("floor_ms") else None),
                     f"{times(best[0] / c)} ({best[1]})" if best and c else "n/a", note])
    label = libs["copper"].label if "copper" in libs else "copper"
    return _table(["workload", f"{label} ms", "cupy ms", "torch ms", "numpy ms", "floor ms", "copper/floor",
                   "speedup vs best peer", "note"], rows)


def side_tables(results, libs):
    out = []
    bw = results["bandwidth"]
    out += ["### Bandwidth (" + bw["best"]["where"] + ")", ""]
    out += _table(["library", "copy GB/s (read+write)", "read GB/s (sum)", "fill GB/s"],
                  [[r["library"], fmt((r.get("copy_bw") or 0) / 1e9 or None, 0), fmt((r.get("read_bw") or 0) / 1e9 or None, 0),
                    fmt((r.get("fill_bw") or 0) / 1e9 or None, 0)] for r in bw["rows"]])
    best = bw["best"]
    out += ["", f"Floors use copy {fmt((best.get('copy_bw') or 0) / 1e9 or None, 0)} GB/s ({best.get('copy_bw_by', 'n/a')}); "
            f"reductions compare with read {fmt((best.get('read_bw') or 0) / 1e9 or None, 0)} GB/s "
            f"({best.get('read_bw_by', 'n/a')}).", ""]
    if results["overhead"]:
        names = [n for n in libs]
        out += ["### Host time per op, 10 elements, no sync per op (µs)", ""]
        out += _table(["operation"] + names, [[r["workload"]] + [fmt(r["us"].get(n), 2) for n in names]
                                              for r in results["overhead"]])
        out.append("")
    if results["first_use"]:
        out += ["### First use of a new kernel in a fresh process (x + y, int16 + float32)", ""]
        out += _table(["library", "disk cache", "first call - second call ms", "first kernel of the process ms",
                       "import ms", "correct"],
                      [[r["library"], r["phase"], fmt(r.get("first_use_ms"), 2), fmt(r.get("first_kernel_ms"), 1),
                        fmt(r.get("import_ms"), 0), r.get("correct", "n/a")] for r in results["first_use"]])
        out.append("")
    if results["transfers"]:
        size = results["transfers"][0]["bytes"] / 2**30
        out += [f"### Transfers of {size:g} GiB pageable NumPy memory", ""]
        out += _table(["library", "asarray ms", "asarray GB/s", "asnumpy ms", "asnumpy GB/s"],
                      [[r["library"], fmt(r.get("asarray_ms"), 1), fmt(r.get("asarray_gbs"), 2),
                        fmt(r.get("asnumpy_ms"), 1), fmt(r.get("asnumpy_gbs"), 2)] for r in results["transfers"]])
        out.append("")
    mem = results.get("memory") or {}
    if mem.get("peak"):
        names = list(mem["how"])
        out += ["### Peak device memory per seed workload (inputs included)", ""]
        out += _table(["workload"] + names, [[f"{r['workload']} {r['dtype']}"] + [gigabytes(r["peak"].get(n)) for n in names]
                                             for r in mem["peak"]])
        out += [""] + _table(["in-place ops: bytes allocated beyond x"] + names,
                             [[r["workload"]] + [str(r["extra_bytes"].get(n)) for n in names] for r in mem["inplace"]])
        out += [""] + [f"- {n}: {how}" for n, how in mem["how"].items()] + [""]
    if results["sweep"]:
        names = list(libs)
        out += ["### Size sweep (float32, ms; speedup over NumPy in the PNG)", ""]
        out += _table(["op", "elements"] + names, [[r["workload"], f"{r['size']:.0e}"] + [fmt(r["ms"].get(n), 4) for n in names]
                                                   for r in results["sweep"]])
        out.append("")
    if results["goals"]:
        out += ["### Goals (issue 3)", ""]
        out += _table(["goal", "measured", "verdict"], [[g["goal"], g["measured"], g["verdict"]] for g in results["goals"]])
        out.append("")
    return out


def write_csv(path, results):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["section", "workload", "shape", "dtype", "library", "value", "unit"])
        for sec in ("seed", "reductions"):
            for r in results[sec]:
                for lib, v in r["ms"].items():
                    w.writerow([sec, r["workload"], "x".join(map(str, r["shape"])), r["dtype"], lib, v, "ms"])
                w.writerow([sec, r["workload"], "x".join(map(str, r["shape"])), r["dtype"], "floor", r.get("floor_ms"), "ms"])
        for r in results["sweep"]:
            for lib, v in r["ms"].items():
                w.writerow(["sweep", r["workload"], r["size"], r["dtype"], lib, v, "ms"])
        for r in results["overhead"]:
            for lib, v in r["us"].items():
                w.writerow(["overhead", r["workload"], 10, "float64", lib, v, "us"])
        for r in results["first_use"]:
            w.writerow(["first_use", f"x + y int16+float32, {r['phase']}", 1000, "", r["library"], r.get("first_use_ms"), "ms"])
        for r in results["transfers"]:
            for k in ("asarray_gbs", "asnumpy_gbs"):
                w.writerow(["transfers", k.split("_")[0], r["bytes"], "float32", r["library"], r.get(k), "GB/s"])
        mem = results.get("memory") or {}
        for r in mem.get("peak", []):
            for lib, v in r["peak"].items():
                w.writerow(["peak_memory", r["workload"], "x".join(map(str, r["shape"])), r["dtype"], lib, v, "bytes"])
        for r in mem.get("inplace", []):
            for lib, v in r["extra_bytes"].items():
                w.writerow(["inplace_alloc", r["workload"], "", "", lib, v, "bytes"])
        for r in results["bandwidth"]["rows"]:
            for k in ("copy_bw", "read_bw", "fill_bw"):
                w.writerow(["bandwidth", k, "", "float32", r["library"], r.get(k), "bytes/s"])


def plot_sweep(results, libs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        print(f"no plot: {err}", flush=True)
        return None
    ops = list(dict.fromkeys(r["workload"] for r in results["sweep"]))
    fig, axes = plt.subplots(2, len(ops), figsize=(6 * len(ops), 8), squeeze=False)
    for col, op in enumerate(ops):
        rows = [r for r in results["sweep"] if r["workload"] == op]
        top, bottom = axes[0][col], axes[1][col]
        for name in [n for n in libs if n != "numpy"]:
            pts = [(r["size"], r["ms"]["numpy"] / r["ms"][name]) for r in rows
                   if r["ms"].get("numpy") and r["ms"].get(name)]
            if pts:
                top.plot(*zip(*pts), marker="o", label=libs[name].label)
        for name in libs:
            pts = [(r["size"], r["ms"][name] * 1e3) for r in rows if r["ms"].get(name)]
            if pts:
                bottom.plot(*zip(*pts), marker="o", label=libs[name].label)
        top.axhline(1.0, color="gray", linestyle="--", linewidth=1)
        top.set_title(f"{op}, float32: speedup over NumPy (NumPy timed while < 2 s)", fontsize=9)
        top.set_ylabel("NumPy time / time")
        bottom.set_title(f"{op}, float32: time per call", fontsize=9)
        bottom.set_ylabel("µs")
        for ax in (top, bottom):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("elements")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle(results["machine"].get("gpu") or results["machine"]["cpu"], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
