"""Issue 4's speed goals: matrix products, random numbers and numpy.linalg, copper beside CuPy
and PyTorch in one process (NumPy checks results at small sizes).

    PYTHONPATH=build-gpu/python python3 bench/linalg_random_bench.py           # full sizes, ~2 min on an H200
    PYTHONPATH=build-gpu/python python3 bench/linalg_random_bench.py --quick   # small sizes, seconds

Sections (--sections picks some): matmul (a @ b at n = 100, 1000, 10000 in float32 and
float64, alone and with the inputs drawn by random.rand as in the seed's test), random
(uniform and normal floats on 1e9 elements against the write floor), norm (a 1e8 vector and a
stack of matrices against the read floor), solve_svd (solve and svd of 4096x4096 float64).

The floors use the device's copy and read bandwidth, measured here as in gpu_bench.py. GPU
times are medians of batches timed with each library's CUDA events. float32 matmul runs in
full float32 everywhere (copper's default 'highest' precision, torch's allow_tf32 = False,
CuPy's default), so the comparison is like for like.

Writes linalg_random_bench.{json,md} to --out (default bench/results); the table is printed last.
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
from harness import bench_ms, gpu_libraries  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
FULL = dict(matmul=(100, 1000, 10000), random_n=10**9, norm_n=10**8, norm_stack=(1000, 100, 100), solve_n=4096,
            bw_bytes=2 * 2**30)
QUICK = dict(matmul=(100, 300), random_n=10**6, norm_n=10**6, norm_stack=(10, 20, 20), solve_n=256,
             bw_bytes=64 * 2**20)


# ---- each library's spelling -------------------------------------------------------------------

def torch_dtype(L, dtype):
    return L._dtypes[np.dtype(dtype)]


def rand(L, shape, dtype):
    """Uniform [0, 1) floats drawn on the device, each library's usual way."""
    if L.name == "torch":
        return L.xp.rand(*shape, dtype=torch_dtype(L, dtype), device=L.device)
    if L.name == "cupy":
        return L.xp.random.rand(*shape, dtype=dtype)
    if L.name == "copper":
        return L.xp.random.default_rng(1).random(shape, dtype=dtype)
    return np.random.default_rng(1).random(shape, dtype=dtype)


def generator(L):
    return L.xp.random.default_rng(7) if L.name in ("copper", "cupy") else None


# What each distribution is called: torch's function, CuPy's legacy function, the Generator method.
SPELLING = {"uniform": ("rand", "rand", "random"), "normal": ("randn", "standard_normal", "standard_normal")}


def draw(L, what, n, dtype, gen):
    """n draws of `what`: torch.rand/randn, CuPy's legacy functions where gen is None, else gen's method."""
    torch_fn, legacy_fn, method = SPELLING[what]
    if L.name == "torch":
        return getattr(L.xp, torch_fn)(n, dtype=torch_dtype(L, dtype), device=L.device)
    if L.name == "cupy" and gen is None:
        return getattr(L.xp.random, legacy_fn)(n, dtype=dtype)
    return getattr(gen, method)(n, dtype=dtype)


def legacy(L, what, n):
    """float64 draws through the legacy module functions (copper: rand/randn, as NumPy's)."""
    if L.name == "copper":
        return L.xp.random.rand(n) if what == "uniform" else L.xp.random.randn(n)
    return draw(L, what, n, np.float64, None)


def to_device(L, host):
    return L.asarray(np.ascontiguousarray(host))


def linalg(L):
    return L.xp.linalg


# ---- one timed row -----------------------------------------------------------------------------

def timed_row(libs, label, setup, run, floor_ms=None, repeats=5, check=None, names=GPU_LIBS):
    """Median ms per library of run(L, setup(L)); check(L) -> True/False where given."""
    row = dict(workload=label, ms={}, floor_ms=floor_ms, correct={})
    for name in measured(libs, names):
        L = libs[name]
        state = None
        try:
            if check:
                row["correct"][name] = bool(check(L))
            state = setup(L)
            L.sync()
            row["ms"][name], _ = bench_ms(lambda: run(L, state), L.clock, repeats)
        except Exception as err:
            log(f"  {name}: {type(err).__name__}: {err}")
            row["ms"][name] = None
        state = None
        release_all(libs)
    log(f"{label}: " + ", ".join(f"{k} {fmt(v, 4)} ms" for k, v in row["ms"].items())
        + (f" (floor {fmt(floor_ms, 4)} ms)" if floor_ms else "")
        + ("" if all(row["correct"].values()) else f"  WRONG: {row['correct']}"))
    return row


def measured(libs, names=GPU_LIBS):
    """The GPU libraries among names; without a GPU, copper on the CPU (checks the script only)."""
    gpu = [n for n in names if n in libs and libs[n].on_gpu]
    return gpu or [n for n in ("copper",) if n in libs and n in names]


def close_to_numpy(L, got, want, rtol):
    got = L.to_numpy(got)
    return got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=rtol * np.abs(want).max())


# ---- sections ----------------------------------------------------------------------------------

def matmul_section(libs, sizes, repeats):
    rows = []
    host = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        a_small, b_small = host.random((64, 48)).astype(dtype), host.random((48, 80)).astype(dtype)
        want = a_small.astype(np.float64) @ b_small.astype(np.float64)
        rtol = 1e-5 if dtype == np.float32 else 1e-12  # float32 accumulation over 48 terms

        def check(L):
            return close_to_numpy(L, to_device(L, a_small) @ to_device(L, b_small), want, rtol)
        for n in sizes:
            name = np.dtype(dtype).name
            rows.append(timed_row(libs, f"a @ b, n={n} {name}",
                                  lambda L: (rand(L, (n, n), dtype), rand(L, (n, n), dtype)),
                                  lambda L, ab: ab[0] @ ab[1], repeats=repeats, check=check))
            rows.append(timed_row(libs, f"rand(n, n) @ rand(n, n), n={n} {name}", lambda L: None,
                                  lambda L, _: rand(L, (n, n), dtype) @ rand(L, (n, n), dtype), repeats=repeats))
    return rows


def random_section(libs, n, bw, repeats):
    rows = []
    for dtype in (np.float32, np.float64):
        floor = n * np.dtype(dtype).itemsize / bw["copy_bw"] * 1e3 if bw.get("copy_bw") else None
        name = np.dtype(dtype).name
        for what in SPELLING:
            # Generator API for copper and CuPy; torch.rand/randn; CuPy's legacy rand/standard_normal too.
            rows.append(timed_row(libs, f"{what} {n:.0e} {name} (Generator)", generator,
                                  lambda L, g, what=what: draw(L, what, n, dtype, g), floor, repeats))
            if dtype == np.float64:  # NumPy's legacy rand/randn have no dtype: float64 only
                rows.append(timed_row(libs, f"{what} {n:.0e} {name} (legacy rand/randn)", lambda L: None,
                                      lambda L, _, what=what: legacy(L, what, n), floor, repeats,
                                      names=("copper", "cupy")))
    # The samplers issue 14 added (one counter stream per element), float64 / int64, n / 10 draws.
    m = max(n // 10, 1)
    floor = m * 8 / bw["copy_bw"] * 1e3 if bw.get("copy_bw") else None
    for label, call in SAMPLERS:
        rows.append(timed_row(libs, f"{label} {m:.0e} (Generator)", generator,
                              lambda L, g, call=call: call(g, m), floor, repeats, names=("copper", "cupy")))
    return rows


# Generator draws of the distributions beyond uniform/normal (same spelling in copper and CuPy).
SAMPLERS = [
    ("gumbel(0, 1)", lambda g, m: g.gumbel(0.0, 1.0, m)),
    ("standard_gamma(2.5)", lambda g, m: g.standard_gamma(2.5, m)),
    ("chisquare(3)", lambda g, m: g.chisquare(3.0, m)),
    ("standard_t(5)", lambda g, m: g.standard_t(5.0, m)),
    ("geometric(0.1)", lambda g, m: g.geometric(0.1, m)),
    ("hypergeometric(100, 200, 50)", lambda g, m: g.hypergeometric(100, 200, 50, m)),
    ("negative_binomial(5, 0.3)", lambda g, m: g.negative_binomial(5, 0.3, m)),
]


def norm_section(libs, n, stack, bw, repeats):
    rows = []
    host = np.random.default_rng(4)
    for dtype in (np.float32, np.float64):
        name = np.dtype(dtype).name
        vec = host.standard_normal(n).astype(dtype)
        small = vec[:1000]
        floor = vec.nbytes / bw["read_bw"] * 1e3 if bw.get("read_bw") else None
        rows.append(timed_row(
            libs, f"linalg.norm(x), x: {n:.0e} {name}", lambda L: to_device(L, vec),
            lambda L, x: linalg(L).norm(x), floor, repeats,
            check=lambda L: close_to_numpy(L, linalg(L).norm(to_device(L, small)), np.linalg.norm(small), 1e-5)))
        vec = None
        mats = host.standard_normal(stack).astype(dtype)
        small = mats[:3]
        floor = mats.nbytes / bw["read_bw"] * 1e3 if bw.get("read_bw") else None

        def matrix_norm(L, x):
            if L.name == "torch":
                return L.xp.linalg.matrix_norm(x)
            return linalg(L).norm(x, axis=(1, 2))
        rows.append(timed_row(
            libs, f"linalg.norm(A, axis=(1,2)), A: {stack} {name}", lambda L: to_device(L, mats), matrix_norm,
            floor, repeats,
            check=lambda L: close_to_numpy(L, matrix_norm(L, to_device(L, small)),
                                           np.linalg.norm(small, axis=(1, 2)), 1e-5)))
    return rows


def solve_svd_section(libs, n, repeats):
    rows = []
    host = np.random.default_rng(5)
    a = host.standard_normal((n, n))
    b = host.standard_normal((n,))
    a_small, b_small = a[:50, :50], b[:50]
    rows.append(timed_row(
        libs, f"linalg.solve(A, b), A: {n}x{n} float64", lambda L: (to_device(L, a), to_device(L, b)),
        lambda L, ab: linalg(L).solve(ab[0], ab[1]), repeats=repeats,
        check=lambda L: close_to_numpy(L, linalg(L).solve(to_device(L, a_small), to_device(L, b_small)),
                                       np.linalg.solve(a_small, b_small), 1e-9)))

    def svd(L, x):
        return L.xp.linalg.svd(x) if L.name != "torch" else L.xp.linalg.svd(x, full_matrices=True)

    def svd_check(L):
        got = svd(L, to_device(L, a_small))
        return close_to_numpy(L, got[1], np.linalg.svd(a_small, compute_uv=False), 1e-10)
    rows.append(timed_row(libs, f"linalg.svd(A), A: {n}x{n} float64", lambda L: to_device(L, a), svd,
                          repeats=min(repeats, 3), check=svd_check))
    return rows


# ---- report ------------------------------------------------------------------------------------

def table(rows, libs):
    gpu = measured(libs)
    head = ["workload"] + [f"{n} ms" for n in gpu] + ["floor ms", "copper / floor", "copper / best peer"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ms = r["ms"]
        peers = [ms.get(n) for n in gpu if n != "copper" and ms.get(n)]
        c = ms.get("copper")
        floor = r.get("floor_ms")
        cells = [r["workload"]] + [fmt(ms.get(n), 4) for n in gpu] + [
            fmt(floor, 4), f"{c / floor:.2f}x" if c and floor else "-",
            f"{c / min(peers):.3f}" if c and peers else "-"]
        if r["correct"] and not all(r["correct"].values()):
            cells[0] += " (WRONG: " + ",".join(k for k, v in r["correct"].items() if not v) + ")"
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--libs", default="copper,cupy,torch")
    parser.add_argument("--sections", default="matmul,random,norm,solve_svd")
    parser.add_argument("--out", default=RESULTS_DIR)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sz = QUICK if args.quick else FULL
    sections = set(args.sections.split(","))
    notes = []
    libs = gpu_libraries([n for n in args.libs.split(",") if n and n != "numpy"], notes)
    for n in notes:
        log("note:", n)
    if "torch" in libs:
        libs["torch"].xp.backends.cuda.matmul.allow_tf32 = False  # full float32, as copper and CuPy
    machine = machine_info(libs, notes)
    log(json.dumps(machine))
    _, bw = bandwidth_section(libs, sz["bw_bytes"], 3)
    log(f"bandwidth: copy {fmt(bw.get('copy_bw', 0) / 1e12, 3)} TB/s, read {fmt(bw.get('read_bw', 0) / 1e12, 3)} TB/s")
    rows, errors = [], []
    for name, fn, fargs in (("matmul", matmul_section, (libs, sz["matmul"], args.repeats)),
                            ("random", random_section, (libs, sz["random_n"], bw, args.repeats)),
                            ("norm", norm_section, (libs, sz["norm_n"], sz["norm_stack"], bw, args.repeats)),
                            ("solve_svd", solve_svd_section, (libs, sz["solve_n"], args.repeats))):
        if name not in sections:
            continue
        t = time.perf_counter()
        try:
            rows += fn(*fargs)
        except Exception as err:
            import traceback
            traceback.print_exc()
            errors.append(f"{name}: {type(err).__name__}: {err}")
        log(f"[{name}: {time.perf_counter() - t:.1f} s]")
    head = (f"{machine['date']}: {machine.get('gpu', 'no GPU')} ({machine.get('nvidia_smi', '')}); copy "
            f"{fmt(bw.get('copy_bw', 0) / 1e12, 3)} TB/s, read {fmt(bw.get('read_bw', 0) / 1e12, 3)} TB/s; "
            + ", ".join(f"{k} {v}" for k, v in machine["versions"].items()) + ("; QUICK sizes" if args.quick else ""))
    md = "\n".join([head, ""] + table(rows, libs)) + "\n"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "linalg_random_bench.json"), "w") as f:
        json.dump(dict(machine=machine, bandwidth=bw, rows=rows, errors=errors, date=datetime.date.today().isoformat(),
                       seconds=time.perf_counter() - started), f, indent=1, default=str)
    with open(os.path.join(args.out, "linalg_random_bench.md"), "w") as f:
        f.write(md)
    wrong = [r["workload"] for r in rows if r["correct"] and not all(r["correct"].values())]
    log(f"linalg_random_bench: {len(rows)} workloads; {'RESULTS DIFFER: ' + '; '.join(wrong) if wrong else 'results match NumPy'}"
        f"{f'; {len(errors)} SECTIONS FAILED' if errors else ''}; {time.perf_counter() - started:.0f} s")
    for e in errors:
        log(f"SECTION FAILED: {e}")
    log("\n" + md)
    return 1 if wrong or errors else 0


if __name__ == "__main__":
    sys.exit(main())
