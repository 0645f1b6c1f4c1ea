"""copper on the GPU beside CuPy, PyTorch and NumPy, in one process (issue 3, "Speed and memory").

    PYTHONPATH=build-gpu/python python3 bench/gpu_bench.py            # full sizes, < 6 min on an H100
    PYTHONPATH=build-gpu/python python3 bench/gpu_bench.py --quick    # small sizes, seconds

Sections (all by default; --sections picks some): bandwidth (device-to-device copy, read and
fill bandwidth: the copy bandwidth gives every workload its floor), seed (the issue's seed
workloads plus other elementwise work on 1e8+ elements), reductions (full, inner- and
outer-axis sums on 1e8+ elements, against the read bandwidth), overhead (host time per op on
10 elements), first_use (a new kernel in a fresh process, empty and warm disk cache),
transfers (asarray / asnumpy of pageable NumPy memory), memory (peak device memory of the seed
workloads; in-place ops allocate nothing), sweep (x *= 5 and x + y from 1e3 elements up,
speedup over NumPy drawn as a PNG).

GPU times are medians over repeated batches timed with each library's own CUDA events after
warm-up; NumPy (and copper without a GPU) with the host clock. Without a GPU, CuPy and PyTorch
are skipped and copper runs on the CPU, so the script's logic can be checked anywhere.

Writes gpu_bench.{json,csv,md} and gpu_bench_sweep.png to --out (default bench/results).
The table printed last: workload, copper / CuPy / PyTorch / NumPy ms, floor ms (bytes moved
over the measured copy bandwidth), copper / floor, and copper's speedup over the faster peer.

C++ per-op overhead: a bench binary (--cpp-bench, $COPPER_CPP_BENCH, or the first of
CPP_BENCH_CANDIDATES under the build folder) is run when found; it prints JSON lines
{"workload": "x + y (10 f64)", "us_per_op": 2.1}, which join the overhead table.
"""
import argparse
import datetime
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WallClock, bench_ms, cpu_model, gpu_libraries  # noqa: E402
from gpu_report import fmt, gigabytes, goals, main_table, plot_sweep, side_tables, write_csv  # noqa: E402

RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
GPU_LIBS = ("copper", "cupy", "torch")
CPP_BENCH_CANDIDATES = ("bench/copper_cpp_bench", "bench/cpp_overhead", "examples/cpp/overhead")

FULL = dict(cube=1000, n_elem=10**9, n_add=5 * 10**8, norm=(1000, 100, 1000), red_f32=(20000, 10000),
            red_f64=(10000, 10000), red_short=(2 * 10**7, 10), bw_bytes=2 * 2**30, transfer_bytes=2**30,
            overhead_iters=20000, sweep_max=10**9, inplace_n=10**8, transpose=(4096, 4096))
QUICK = dict(cube=100, n_elem=10**6, n_add=10**6, norm=(100, 10, 100), red_f32=(2000, 1000),
             red_f64=(1000, 1000), red_short=(10**5, 10), bw_bytes=64 * 2**20, transfer_bytes=64 * 2**20,
             overhead_iters=2000, sweep_max=10**6, inplace_n=10**6, transpose=(512, 512))
NUMPY_LIMIT_MS = 2000.0  # the sweep times NumPy only where one call takes less


def log(*args):
    print(*args, flush=True)


def release_all(libs):
    """Frees every library's cached device memory, so one library's cache can't starve the next."""
    gc.collect()
    for L in libs.values():
        try:
            L.release()
        except Exception as err:
            log(f"  {L.name}: release failed: {type(err).__name__}: {err}")


def reduce_sum(L, x, axis):
    return L.xp.sum(x) if axis is None else L.sum(x, axis)


# ---- workloads -------------------------------------------------------------------------------
# A workload makes its inputs (setup), runs once per timed call (run), and knows the fewest
# bytes it must move (read once + write once), which over the copy bandwidth is its floor.

class Workload:
    def __init__(self, name, shape, dtype, setup, run, read_bytes, write_bytes, group, small_shape,
                 rtol=1e-6, peak=False):
        self.name, self.shape, self.dtype = name, tuple(shape), np.dtype(dtype)
        self.setup, self.run = setup, run  # setup(L, shape) -> state; run(L, state) -> result or None
        self.read_bytes, self.write_bytes = read_bytes, write_bytes
        self.group, self.small_shape, self.rtol = group, tuple(small_shape), rtol
        self.peak = peak  # one of the seed workloads: its peak device memory is compared

    @property
    def bytes_moved(self):
        return self.read_bytes + self.write_bytes


_host_cache = {}


def host_random(shape, dtype):
    """Random host values of `shape`, shared by every library (and by workloads of the same size)."""
    dtype = np.dtype(dtype)
    key = (math.prod(shape), dtype.str)
    if key not in _host_cache:
        _host_cache.clear()  # one big host array at a time
        _host_cache[key] = np.random.default_rng(0).random(key[0], dtype=dtype)
    return _host_cache[key].reshape(shape)


def ones_workload(shape, dtype=np.float64, small=(3, 4, 5)):
    n = math.prod(shape) * np.dtype(dtype).itemsize
    # The state is the shape: every timed call allocates and fills a new array.
    return Workload(f"ones({','.join(map(str, shape))})", shape, dtype, lambda L, s: s,
                    lambda L, s: L.ones(s, dtype), 0, n, "fill", small, peak=True)


def times5_workload(n, dtype, seed=True):
    size = n * np.dtype(dtype).itemsize

    def run(L, x):
        x *= 5
    return Workload(f"x *= 5 ({n:.0e})", (n,), dtype, lambda L, shape: L.ones(shape, dtype), run,
                    size, size, "elementwise", (17,), peak=seed)


def chain_workload(n, dtype):
    size = n * np.dtype(dtype).itemsize

    def run(L, x):
        x *= 5
        x *= x
        x += x
    # The floor is one pass (fused); libraries that run three kernels move three times as much.
    return Workload(f"x *= 5; x *= x; x += x ({n:.0e})", (n,), dtype, lambda L, shape: L.ones(shape, dtype),
                    run, size, size, "elementwise", (17,))


def add_workload(n, dtype):
    size = n * np.dtype(dtype).itemsize

    def setup(L, shape):
        return L.ones(shape, dtype), L.ones(shape, dtype)
    return Workload(f"x + y ({n:.0e})", (n,), dtype, setup, lambda L, xy: xy[0] + xy[1],
                    2 * size, size, "elementwise", (17,))


def norm_workload(shape):
    dtype = np.dtype(np.float64)
    read = math.prod(shape) * dtype.itemsize

    def setup(L, s):
        return L.asarray(host_random(s, dtype))
    return Workload("sqrt(sum(x**2, axis=-1))", shape, dtype, setup,
                    lambda L, x: L.sqrt(L.sum(x**2, axis=-1)), read, read // shape[-1], "composite", (3, 4, 5),
                    rtol=1e-12, peak=True)


def sum_workload(shape, dtype, axis, kind):
    dtype = np.dtype(dtype)
    read = math.prod(shape) * dtype.itemsize
    out = dtype.itemsize * (1 if axis is None else math.prod(shape) // shape[axis])
    label = "sum(x)" if axis is None else f"sum(x, axis={axis})"

    def setup(L, s):
        return L.asarray(host_random(s, dtype))
    small = (6, 7) if shape[1] > 10 and shape[0] > 10 else ((50, shape[1]) if shape[1] <= 10 else (shape[0], 50))
    return Workload(f"{label} {kind}", shape, dtype, setup, lambda L, x: reduce_sum(L, x, axis), read, out,
                    "reduction", small, rtol=1e-5 if dtype == np.float32 else 1e-12)


def transpose_copy_workload(shape, dtype=np.float64):
    size = math.prod(shape) * np.dtype(dtype).itemsize

    def setup(L, s):
        return L.asarray(host_random(s, dtype))

    def run(L, x):
        # A C-order copy of a transposed view (linalg's column-major copies are this).
        return x.T.contiguous() if L.name == "torch" else L.xp.ascontiguousarray(x.T)
    return Workload(f"ascontiguousarray(a.T) {shape[0]}x{shape[1]}", shape, dtype, setup, run, size, size,
                    "copy", (31, 33), rtol=0)


def seed_workloads(sz):
    cube = (sz["cube"],) * 3
    n, m = sz["n_elem"], sz["n_add"]
    return [ones_workload(cube), times5_workload(n, np.float32), times5_workload(n, np.float64),
            norm_workload(sz["norm"]), add_workload(m, np.float32), add_workload(m, np.float64),
            chain_workload(n, np.float32), transpose_copy_workload(sz["transpose"])]


def reduction_workloads(sz):
    f32, f64, short = sz["red_f32"], sz["red_f64"], sz["red_short"]
    tall = (short[1], short[0])
    return [sum_workload(f32, np.float32, None, "full"), sum_workload(f32, np.float32, 1, "inner"),
            sum_workload(f32, np.float32, 0, "outer"), sum_workload(f64, np.float64, None, "full"),
            sum_workload(f64, np.float64, 1, "inner"), sum_workload(f64, np.float64, 0, "outer"),
            sum_workload(short, np.float32, 1, "inner, short rows"),
            sum_workload(tall, np.float32, 0, "outer, few rows")]


# ---- measuring ---------------------------------------------------------------------------------

def check_against_numpy(libs, w):
    """Each library's result at w.small_shape equals NumPy's (True/False per library)."""
    verdict = {}
    ref = libs["numpy"]
    state = w.setup(ref, w.small_shape)
    want = _result(ref, w, state)
    for name, L in libs.items():
        if name == "numpy":
            continue
        try:
            got = L.to_numpy(_result(L, w, w.setup(L, w.small_shape)))
            verdict[name] = bool(got.shape == want.shape and got.dtype == want.dtype
                                 and np.allclose(got, want, rtol=w.rtol, atol=0))
            if not verdict[name]:
                log(f"  {name}: result differs from NumPy's at {w.small_shape}: {got.dtype}{got.shape} "
                    f"vs {want.dtype}{want.shape}")
        except Exception as err:
            log(f"  {name}: {type(err).__name__}: {err}")
            verdict[name] = False
    return verdict


def _result(L, w, state):
    out = w.run(L, state)
    return state if out is None else out


def time_workload(libs, w, repeats):
    """Median ms per library (None where it failed)."""
    times = {}
    for name, L in libs.items():
        state = None
        try:
            state = w.setup(L, w.shape)
            L.sync()
            times[name], _ = bench_ms(lambda: w.run(L, state), L.clock, repeats)
        except Exception as err:
            log(f"  {name}: {type(err).__name__}: {err}")
            times[name] = None
        state = None
        release_all(libs)
    return times


def workload_rows(libs, workloads, repeats, bw):
    rows = []
    for w in workloads:
        log(f"{w.group}: {w.name} {w.dtype} {w.shape}")
        row = dict(workload=w.name, group=w.group, shape=list(w.shape), dtype=str(w.dtype),
                   read_bytes=w.read_bytes, write_bytes=w.write_bytes, correct=check_against_numpy(libs, w))
        row["ms"] = time_workload(libs, w, repeats)
        row["floor_ms"] = w.bytes_moved / bw["copy_bw"] * 1e3 if bw.get("copy_bw") else None
        if w.group == "reduction" and bw.get("read_bw"):
            row["read_pct"] = {k: (w.read_bytes / (v * 1e-3) / bw["read_bw"] * 100 if v else None)
                               for k, v in row["ms"].items()}
        rows.append(row)
    return rows


# ---- sections ----------------------------------------------------------------------------------

def _copy_op(L, src, dst):
    if L.name == "torch":
        return lambda: dst.copy_(src)
    return lambda: L.xp.copyto(dst, src)


def _fill_op(L, dst):
    if L.name == "torch":
        return lambda: dst.fill_(1.0)
    if hasattr(dst, "fill"):
        return lambda: dst.fill(1.0)
    return lambda: L.xp.copyto(dst, 1.0)


def bandwidth_section(libs, nbytes, repeats):
    """Copy (bytes read + written), read (a sum) and fill bandwidth per library, in bytes/s.
    The floors use the best copy and read bandwidth measured (the device's, not a library's)."""
    rows = []
    gpu = [n for n in GPU_LIBS if n in libs and libs[n].on_gpu]
    names = gpu or [n for n in ("numpy", "copper") if n in libs]  # no GPU: the host's memory
    for name in names:
        L = libs[name]
        log(f"bandwidth: {name}, {nbytes / 2**30:.2f} GiB buffers")
        row = dict(library=name)
        try:
            src, dst = L.ones((nbytes // 4,), np.float32), L.ones((nbytes // 4,), np.float32)
            for what, fn, moved in (("copy", _copy_op(L, src, dst), 2 * nbytes),
                                    ("read", lambda: L.xp.sum(src), nbytes),
                                    ("fill", _fill_op(L, dst), nbytes)):
                try:
                    ms, _ = bench_ms(fn, L.clock, repeats)
                    row[f"{what}_bw"] = moved / (ms * 1e-3)
                except Exception as err:
                    log(f"  {name} {what}: {type(err).__name__}: {err}")
            src = dst = None
        except Exception as err:
            log(f"  {name}: {type(err).__name__}: {err}")
        release_all(libs)
        rows.append(row)
    best = {}
    for key in ("copy_bw", "read_bw", "fill_bw"):
        found = [(r[key], r["library"]) for r in rows if r.get(key)]
        if found:
            best[key], best[key + "_by"] = max(found)
    best["where"] = "device" if gpu else "host (no GPU)"
    return rows, best


def overhead_section(libs, iterations, cpp_bench):
    """Host time per op on 10-element arrays with no synchronization per op, in µs."""
    rows = []
    host = np.random.default_rng(2).random(10)
    for op in ("x + y", "x *= 5"):
        row = dict(workload=f"{op} (10 f64)", us={})
        for name, L in libs.items():
            try:
                x, y = L.asarray(host), L.asarray(host[::-1].copy())
                fn = (lambda: x + y) if op == "x + y" else (lambda: x.__imul__(5))
                for _ in range(200):
                    fn()
                L.sync()
                samples = []
                for _ in range(5):
                    start = time.perf_counter()
                    for _ in range(iterations):
                        fn()
                    L.sync()
                    samples.append((time.perf_counter() - start) / iterations * 1e6)
                row["us"][name] = statistics.median(samples)
            except Exception as err:
                log(f"  {name}: {type(err).__name__}: {err}")
                row["us"][name] = None
        log(f"overhead: {op}: " + ", ".join(f"{k} {fmt(v, 2)} us" for k, v in row["us"].items()))
        rows.append(row)
    rows += cpp_overhead(cpp_bench)
    return rows


def find_cpp_bench(explicit, build_dir):
    for path in [explicit, os.environ.get("COPPER_CPP_BENCH")] + \
            [os.path.join(build_dir, c) for c in CPP_BENCH_CANDIDATES if build_dir]:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def cpp_overhead(binary):
    """The C++ bench binary's JSON lines ({"workload", "us_per_op"}) as overhead rows."""
    if not binary:
        log("overhead: no C++ bench binary (hook: --cpp-bench or $COPPER_CPP_BENCH)")
        return []
    try:
        out = subprocess.run([binary], capture_output=True, text=True, timeout=120)
        rows = []
        for line in out.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                item = json.loads(line)
                rows.append(dict(workload=f"C++: {item['workload']}", us={"copper": float(item["us_per_op"])}))
        if out.returncode != 0 or not rows:
            log(f"  C++ bench {binary}: exit {out.returncode}, {len(rows)} results; stderr: {out.stderr[-500:]}")
        return rows
    except Exception as err:
        log(f"  C++ bench {binary}: {type(err).__name__}: {err}")
        return []


FIRST_USE_CHILD = r'''
import json, sys, time
import numpy as np
lib = sys.argv[1]
start = time.perf_counter()
if lib == "copper":
    import copper as xp
    device = "cpu"
    try:
        xp.zeros(1, device="cuda:0")
        xp.set_default_device("cuda:0")
        device = "cuda:0"
    except Exception:
        pass
    sync = xp.synchronize
else:
    import cupy as xp
    device = "cuda:0"
    sync = xp.cuda.Device(0).synchronize
import_ms = (time.perf_counter() - start) * 1e3

def timed(fn):
    sync()
    t = time.perf_counter()
    out = fn()
    sync()
    return out, (time.perf_counter() - t) * 1e3

a, init_ms = timed(lambda: xp.asarray(np.arange(8, dtype=np.float64)))   # context, pool
_, first_kernel_ms = timed(lambda: a * a)                                 # loads the compiler too
hx, hy = np.arange(1000, dtype=np.int16), np.linspace(0, 1, 1000, dtype=np.float32)
x, y = xp.asarray(hx), xp.asarray(hy)
sync()
z, new_ms = timed(lambda: x + y)      # a dtype pair nothing above used: a new kernel
_, again_ms = timed(lambda: x + y)    # the same kernel, now in memory
ok = bool(np.array_equal(xp.asnumpy(z), hx + hy))
print("RESULT " + json.dumps(dict(device=device, import_ms=import_ms, init_ms=init_ms,
      first_kernel_ms=first_kernel_ms, new_kernel_ms=new_ms, again_ms=again_ms, correct=ok)))
'''


def first_use_section(libs):
    """A new kernel (x + y, int16 + float32) in a fresh process: its first call minus its second,
    with an empty disk cache (the compiler runs) and again in a second process with the cache
    the first one wrote. CuPy the same way through CUPY_CACHE_DIR."""
    rows = []
    for name, var in (("copper", "COPPER_CACHE_DIR"), ("cupy", "CUPY_CACHE_DIR")):
        if name not in libs:
            continue
        with tempfile.TemporaryDirectory(prefix=f"{name}-kernel-cache-") as cache:
            for phase in ("empty cache", "warm disk cache"):
                env = dict(os.environ, **{var: cache})
                row = dict(library=name, phase=phase)
                try:
                    out = subprocess.run([sys.executable, "-c", FIRST_USE_CHILD, name], env=env,
                                         capture_output=True, text=True, timeout=180)
                    found = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")]
                    if not found:
                        raise RuntimeError(f"exit {out.returncode}: {out.stderr.strip()[-800:]}")
                    row.update(json.loads(found[-1][len("RESULT "):]))
                    row["first_use_ms"] = row["new_kernel_ms"] - row["again_ms"]
                    row["cache_files"] = sum(len(f) for _, _, f in os.walk(cache))
                except Exception as err:
                    log(f"  first use, {name}, {phase}: {type(err).__name__}: {err}")
                log(f"first use: {name}, {phase}: new kernel {fmt(row.get('first_use_ms'), 2)} ms "
                    f"(first kernel of the process {fmt(row.get('first_kernel_ms'), 1)} ms, "
                    f"{row.get('cache_files', '?')} cache files)")
                rows.append(row)
    return rows


def transfer_section(libs, nbytes, repeats):
    """asarray / asnumpy of pageable NumPy memory, host clock around a synchronize."""
    rows = []
    host = np.ones(nbytes // 4, dtype=np.float32)  # pages touched: the copy is what is timed
    for name in [n for n in GPU_LIBS if n in libs]:
        L = libs[name]
        clock = WallClock(L.sync)
        row = dict(library=name, bytes=nbytes)
        try:
            ms, _ = bench_ms(lambda: L.asarray(host), clock, repeats)
            row["asarray_ms"], row["asarray_gbs"] = ms, nbytes / (ms * 1e-3) / 1e9
            dev = L.asarray(host)
            L.sync()
            ms, _ = bench_ms(lambda: L.to_numpy(dev), clock, repeats)
            row["asnumpy_ms"], row["asnumpy_gbs"] = ms, nbytes / (ms * 1e-3) / 1e9
            row["correct"] = bool(np.array_equal(L.to_numpy(dev)[:: max(1, host.size // 4096)],
                                                 host[:: max(1, host.size // 4096)]))
            dev = None
        except Exception as err:
            log(f"  {name}: {type(err).__name__}: {err}")
        release_all(libs)
        log(f"transfers: {name}: asarray {fmt(row.get('asarray_gbs'), 2)} GB/s, "
            f"asnumpy {fmt(row.get('asnumpy_gbs'), 2)} GB/s")
        rows.append(row)
    return rows


def memory_section(libs, workloads, inplace_n):
    """Peak device memory of each seed workload (inputs made and the workload run once), and the
    bytes in-place ops allocate beyond the array they work on (should be none)."""
    gpu = [n for n in GPU_LIBS if n in libs and libs[n].on_gpu]
    if not gpu:
        log("memory: no GPU library, nothing to measure")
        return {}
    peaks, inplace = [], []
    for w in [w for w in workloads if w.peak]:
        row = dict(workload=w.name, dtype=str(w.dtype), shape=list(w.shape), peak={})
        for name in gpu:
            L = libs[name]
            state = out = None
            try:
                release_all(libs)
                L.memory.reset_peak()
                state = w.setup(L, w.shape)
                out = w.run(L, state)
                L.sync()
                row["peak"][name] = L.memory.peak()
            except Exception as err:
                log(f"  {name}: {type(err).__name__}: {err}")
                row["peak"][name] = None
            state = out = None
        release_all(libs)
        log(f"memory: {w.name}: " + ", ".join(f"{k} {gigabytes(v)}" for k, v in row["peak"].items()))
        peaks.append(row)
    for dtype in (np.float32, np.float64):
        row = dict(workload=f"x *= 5; x += x; x -= 1 ({inplace_n:.0e} {np.dtype(dtype).name})", extra_bytes={})
        for name in gpu:
            L = libs[name]
            x = None
            try:
                x = L.ones((inplace_n,), dtype)
                L.sync()
                L.memory.reset_peak()
                before = L.memory.peak()
                for _ in range(3):
                    x *= 5
                    x += x
                    x -= 1
                L.sync()
                after = L.memory.peak()
                row["extra_bytes"][name] = None if before is None or after is None else after - before
            except Exception as err:
                log(f"  {name}: {type(err).__name__}: {err}")
                row["extra_bytes"][name] = None
            x = None
            release_all(libs)
        log(f"memory: in place {row['workload']}: extra bytes " +
            ", ".join(f"{k} {v}" for k, v in row["extra_bytes"].items()))
        inplace.append(row)
    return dict(peak=peaks, inplace=inplace, how={n: libs[n].memory.note for n in gpu})


def sweep_section(libs, sweep_max, repeats):
    """x *= 5 and x + y (float32) from 1e3 elements up; NumPy only while one call takes < 2 s."""
    rows = []
    for op in ("x *= 5", "x + y"):
        numpy_stopped = False
        n = 1000
        while n <= sweep_max:
            w = times5_workload(n, np.float32) if op == "x *= 5" else add_workload(n, np.float32)
            row = dict(workload=op, size=n, dtype="float32", ms={})
            for name, L in libs.items():
                if name == "numpy" and numpy_stopped:
                    row["ms"][name] = None
                    continue
                state = None
                try:
                    state = w.setup(L, w.shape)
                    L.sync()
                    if name == "numpy":
                        once = L.clock.batch_ms(lambda: w.run(L, state), 1)
                        if once >= NUMPY_LIMIT_MS:
                            numpy_stopped = True
                            row["ms"][name] = None
                            log(f"  numpy: {once:.0f} ms for one call at {n:.0e}: not timed from here on")
                            continue
                    row["ms"][name], _ = bench_ms(lambda: w.run(L, state), L.clock, repeats)
                except Exception as err:
                    log(f"  {name}: {type(err).__name__}: {err}")
                    row["ms"][name] = None
                state = None
                release_all(libs)
            log(f"sweep: {op} {n:.0e}: " + ", ".join(f"{k} {fmt(v, 4)} ms" for k, v in row["ms"].items()))
            rows.append(row)
            n *= 10
    return rows


def machine_info(libs, notes):
    m = dict(date=datetime.datetime.now().isoformat(timespec="seconds"), cpu=cpu_model(), cores=os.cpu_count(),
             python=platform.python_version(), versions={k: getattr(L, "version", "?") for k, L in libs.items()},
             labels={k: L.label for k, L in libs.items()},
             timing={k: L.clock.kind for k, L in libs.items()}, notes=notes)
    try:
        import torch
        if torch.cuda.is_available():
            p = torch.cuda.get_device_properties(0)
            m.update(gpu=p.name, gpu_memory=p.total_memory, sms=p.multi_processor_count)
    except Exception:
        pass
    if "gpu" not in m and "cupy" in libs:
        try:
            import cupy
            p = cupy.cuda.runtime.getDeviceProperties(0)
            name = p["name"]
            m.update(gpu=name.decode() if isinstance(name, bytes) else str(name), gpu_memory=p["totalGlobalMem"], sms=p["multiProcessorCount"])
        except Exception:
            pass
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        if out.returncode == 0:
            m["nvidia_smi"] = out.stdout.strip()
    except Exception:
        pass
    return m


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: checks the script, measures little")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--libs", default="copper,cupy,torch", help="besides NumPy, which always runs")
    parser.add_argument("--sections", default="bandwidth,seed,reductions,overhead,first_use,transfers,memory,sweep")
    parser.add_argument("--sweep-max", type=float, default=None, help="largest sweep size (default 1e9, quick 1e6)")
    parser.add_argument("--out", default=RESULTS_DIR)
    parser.add_argument("--cpp-bench", default=None, help="C++ overhead bench binary (JSON lines)")
    parser.add_argument("--build-dir", default=os.environ.get("COPPER_BUILD_DIR"),
                        help="where to look for the C++ bench (default: the build copper was imported from)")
    args = parser.parse_args(argv)
    np.seterr(over="ignore", invalid="ignore")  # repeated x *= 5 overflows on purpose
    started = time.perf_counter()
    sz = dict(QUICK if args.quick else FULL)
    if args.sweep_max:
        sz["sweep_max"] = int(args.sweep_max)
    sections = set(args.sections.split(","))

    notes = []
    libs = gpu_libraries([n for n in args.libs.split(",") if n and n != "numpy"], notes)
    for n in notes:
        log("note:", n)
    build_dir = args.build_dir
    if not build_dir and "copper" in libs:  # <build>/python/copper/__init__.py
        build_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(libs["copper"].xp.__file__))))
    machine = machine_info(libs, notes)
    log(json.dumps(machine))

    results = dict(machine=machine, sizes=sz, quick=args.quick, seed=[], reductions=[], overhead=[], first_use=[],
                   transfers=[], memory={}, sweep=[], goals=[])
    timings = {}

    errors = []

    def timed(name, fn, *fargs):
        """Runs one section; a section that breaks is reported and the others still run."""
        t = time.perf_counter()
        try:
            value = fn(*fargs)
        except Exception as err:
            import traceback
            traceback.print_exc()
            errors.append(f"{name}: {type(err).__name__}: {err}")
            value = None
        timings[name] = time.perf_counter() - t
        log(f"[{name}: {timings[name]:.1f} s]")
        return value

    # The floors need the copy bandwidth: measured whenever workloads run.
    if sections & {"bandwidth", "seed", "reductions"}:
        rows, best = timed("bandwidth", bandwidth_section, libs, sz["bw_bytes"], max(3, args.repeats)) or ([], {})
        results["bandwidth"] = dict(rows=rows, best=dict({"where": "failed"}, **best))
    else:
        results["bandwidth"] = dict(rows=[], best={"where": "not measured"})
    bw = results["bandwidth"]["best"]
    seeds = seed_workloads(sz)
    if "seed" in sections:
        results["seed"] = timed("seed", workload_rows, libs, seeds, args.repeats, bw) or []
    if "reductions" in sections:
        results["reductions"] = timed("reductions", workload_rows, libs, reduction_workloads(sz), args.repeats, bw) or []
    _host_cache.clear()
    if "overhead" in sections:
        cpp = find_cpp_bench(args.cpp_bench, build_dir)
        results["overhead"] = timed("overhead", overhead_section, libs, sz["overhead_iters"], cpp) or []
    if "first_use" in sections:
        results["first_use"] = timed("first_use", first_use_section, libs) or []
    if "transfers" in sections:
        results["transfers"] = timed("transfers", transfer_section, libs, sz["transfer_bytes"], min(args.repeats, 5)) or []
    if "memory" in sections:
        results["memory"] = timed("memory", memory_section, libs, seeds, sz["inplace_n"]) or {}
    if "sweep" in sections:
        results["sweep"] = timed("sweep", sweep_section, libs, sz["sweep_max"], min(args.repeats, 5)) or []
    _host_cache.clear()
    results["errors"] = errors
    results["goals"] = goals(results)
    results["section_seconds"] = timings
    results["total_seconds"] = time.perf_counter() - started

    os.makedirs(args.out, exist_ok=True)
    paths = dict(json=os.path.join(args.out, "gpu_bench.json"), csv=os.path.join(args.out, "gpu_bench.csv"),
                 md=os.path.join(args.out, "gpu_bench.md"), png=os.path.join(args.out, "gpu_bench_sweep.png"))
    head = (f"{machine['date']}: {machine.get('gpu', 'no GPU')} ({machine.get('nvidia_smi', 'no nvidia-smi')}), "
            f"{machine['cpu']} ({machine['cores']} cores), Python {machine['python']}, "
            + ", ".join(f"{k} {v}" for k, v in machine["versions"].items())
            + f"; timing: " + ", ".join(f"{k} {v}" for k, v in machine["timing"].items())
            + ("" if not args.quick else "; QUICK sizes"))
    table = main_table(results, libs) if results["seed"] or results["reductions"] else []
    md = "\n".join([head, ""] + [f"- note: {n}" for n in notes] + [""] + side_tables(results, libs)
                   + ["### Workloads (ms, medians)", ""] + table) + "\n"
    results["table_markdown"] = md
    with open(paths["json"], "w") as f:
        json.dump(results, f, indent=1, default=str)
    write_csv(paths["csv"], results)
    with open(paths["md"], "w") as f:
        f.write(md)
    written = [paths["json"], paths["csv"], paths["md"]]
    if results["sweep"] and plot_sweep(results, libs, paths["png"]):
        written.append(paths["png"])

    log("\n" + "\n".join(side_tables(results, libs)))
    log("wrote " + ", ".join(written))
    log(f"total {results['total_seconds']:.0f} s (" + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()) + ")")
    wrong = [f"{r['workload']} {r['dtype']} ({', '.join(k for k, ok in r['correct'].items() if not ok)})"
             for r in results["seed"] + results["reductions"] if not all(r["correct"].values())]
    wrong += [f"first use, {r['library']} {r['phase']}" for r in results["first_use"] if r.get("correct") is False]
    wrong += [f"transfer round trip, {r['library']}" for r in results["transfers"] if r.get("correct") is False]
    if wrong:
        log("RESULTS DIFFER FROM NUMPY'S: " + "; ".join(wrong))
    verdicts = [g["verdict"] for g in results["goals"]]
    log(f"gpu_bench: {len(results['seed']) + len(results['reductions'])} workloads on "
        f"{machine.get('gpu', 'no GPU')}{' (quick sizes)' if args.quick else ''}; goals "
        f"{verdicts.count('met')} met, {verdicts.count('MISSED')} missed, {verdicts.count('n/a')} n/a; "
        f"{'RESULTS DIFFER from NumPy' if wrong else 'results match NumPy'}"
        f"{f'; {len(errors)} SECTIONS FAILED' if errors else ''}; {results['total_seconds']:.0f} s")
    for e in errors:
        log(f"SECTION FAILED: {e}")
    if table:
        log("\n" + head + "\n\n" + "\n".join(table))
    return 1 if wrong or errors else 0


if __name__ == "__main__":
    sys.exit(main())
