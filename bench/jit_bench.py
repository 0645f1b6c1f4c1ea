"""Kernels written in Python (copper.jit, copper.vectorize) against the same kernels from
CUDA C++ source (issue 16, "Speed"). GPU:

    PYTHONPATH=build-gpu/python python3 bench/jit_bench.py            # 1e8 elements, seconds on an H100
    PYTHONPATH=build-gpu/python python3 bench/jit_bench.py --quick

(a) grid-stride copy of 1e8 float32: the jit kernel against the same loop as a RawKernel
    and the copy floor (copper.copyto); goal: the same time as the RawKernel.
(b) tiled matmul (16 x 16 tiles, float32 2048^2): the course's jit kernel against the
    RawKernel lesson of examples/python/custom_kernels.py.
(c) copper.vectorize of f(x) = 2x + 1 with an if on 1e8 float32 elements against the copy
    floor (one read, one write); goal: within 1.10x.
(d) first call (translate + compile + launch + synchronize) in a fresh process with an
    empty kernel cache, and again with the disk cache filled: jit against RawKernel;
    goals: within 1.5x of RawKernel's cold call, and within 2 ms warm.

--device cpu times (c) on the CPU against a NumPy expression and numpy.vectorize (on a
smaller --cpu-size), the part that runs without a GPU. Prints a markdown table; writes
jit_bench.{md,json} to --out when given.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

COPY_SOURCE = r"""
extern "C" __global__ void copy(const float* x, float* y, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    y[i] = x[i];
}
"""

FIRST_CALL = r"""
import os, sys, time
t0 = time.perf_counter()
import numpy as np, copper as cp
from copper import jit
t1 = time.perf_counter()
cp.set_default_device("cuda:0")
x = cp.ones(1 << 20, dtype=cp.float32)
y = cp.empty_like(x)
cp.cuda.synchronize()
if sys.argv[1] == "jit":
    @jit.rawkernel()
    def copy(x, y):
        for i in range(jit.grid(1), x.size, jit.gridsize(1)):
            y[i] = x[i]
    t2 = time.perf_counter()
    copy[256, 256](x, y)
else:
    k = cp.RawKernel(sys.argv[2], "copy")
    t2 = time.perf_counter()
    k((256,), (256,), (x, y, x.size))
cp.cuda.synchronize()
print((time.perf_counter() - t2) * 1e3)
"""


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def event_ms(cp, fn, repeats=7, loops=10):
    fn()
    fn()
    samples = []
    for _ in range(repeats):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(loops):
            fn()
        end.record()
        end.synchronize()
        samples.append(cp.cuda.get_elapsed_time(start, end) / loops)
    return statistics.median(samples)


def host_ms(fn, repeats=5):
    fn()
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e3)
    return statistics.median(samples)


def soft_step(x):
    if x > 0:
        return 2 * x + 1
    return x


def gpu_rows(cp, n, matmul_n):
    from copper import jit
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "python"))
    import custom_kernels
    import jit_kernels
    rows = []
    x = cp.arange(n, dtype=cp.float32)
    y = cp.empty_like(x)
    floor = event_ms(cp, lambda: cp.copyto(y, x))
    rows.append(("copy floor (copyto), 1e8 float32" if n == 10**8 else f"copy floor, {n} float32", floor, 1.0))

    @jit.rawkernel()
    def copy(x, y):
        for i in range(jit.grid(1), x.size, jit.gridsize(1)):
            y[i] = x[i]
    grid = 132 * 16
    raw = cp.RawKernel(COPY_SOURCE, "copy")
    raw_ms = event_ms(cp, lambda: raw((grid,), (256,), (x, y, n)))
    jit_ms = event_ms(cp, lambda: copy[grid, 256](x, y))
    rows += [("grid-stride copy, RawKernel", raw_ms, raw_ms / floor), ("grid-stride copy, copper.jit", jit_ms,
                                                                        jit_ms / floor)]

    m = matmul_n
    a = cp.asarray(np.random.default_rng(0).uniform(-1, 1, (m, m)).astype(np.float32))
    b = cp.asarray(np.random.default_rng(1).uniform(-1, 1, (m, m)).astype(np.float32))
    c = cp.empty((m, m), dtype=cp.float32)
    module = cp.RawModule(code=custom_kernels.TILED_MATMUL, options=("-std=c++17",),
                          name_expressions=["matmul_tiled<16>"])
    raw_mm = module.get_function("matmul_tiled<16>")
    blocks = ((m + 15) // 16, (m + 15) // 16)
    raw_mm_ms = event_ms(cp, lambda: raw_mm(blocks, (16, 16), (a, b, c, np.int32(m), np.int32(m), np.int32(m))),
                         loops=3)
    jit_mm_ms = event_ms(cp, lambda: jit_kernels.matmul_tiled[blocks, (16, 16)](a, b, c), loops=3)
    rows += [(f"tiled matmul {m}^2, RawKernel", raw_mm_ms, raw_mm_ms / raw_mm_ms),
             (f"tiled matmul {m}^2, copper.jit (x RawKernel)", jit_mm_ms, jit_mm_ms / raw_mm_ms)]

    v = cp.vectorize(soft_step)
    vec_ms = event_ms(cp, lambda: v(x))
    rows.append(("vectorize 2x+1 with an if, 1e8 float32 (x copy floor)", vec_ms, vec_ms / floor))
    return rows


def first_call_rows():
    rows = []
    env = dict(os.environ)
    for label, args in [("RawKernel", ["raw", COPY_SOURCE]), ("copper.jit", ["jit"])]:
        with tempfile.TemporaryDirectory() as cache:
            env["COPPER_CACHE_DIR"] = os.path.join(cache, "kernels")
            script = os.path.join(cache, "first_call.py")  # a file: jit reads the kernel's source
            with open(script, "w") as f:
                f.write(FIRST_CALL)

            def run():
                out = subprocess.run([sys.executable, script, *args], env=env, check=True, capture_output=True,
                                     text=True).stdout
                return float(out.split()[-1])
            cold = run()
            warm = statistics.median(run() for _ in range(3))
        rows += [(f"first call, empty cache, {label}", cold, None), (f"first call, disk cache, {label}", warm, None)]
    return rows


def cpu_rows(cp, n):
    rows = []
    x_np = np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32)
    x = cp.asarray(x_np, device="cpu")
    v = cp.vectorize(soft_step)
    v(x)
    vec_ms = host_ms(lambda: v(x))
    np_ms = host_ms(lambda: np.where(x_np > 0, 2 * x_np + 1, x_np))
    small = x_np[:100_000]
    npvec_ms = host_ms(lambda: np.vectorize(soft_step)(small), repeats=3) * (n / small.size)
    rows += [(f"CPU vectorize, {n} float32", vec_ms, 1.0), (f"CPU NumPy where(x > 0, 2x + 1, x)", np_ms, np_ms / vec_ms),
             (f"CPU numpy.vectorize (from 1e5, scaled)", npvec_ms, npvec_ms / vec_ms)]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1e7 elements, 1024^2 matmul")
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--cpu-size", type=float, default=1e7)
    ap.add_argument("--out")
    args = ap.parse_args()
    import copper as cp
    if args.device == "cpu":
        rows = cpu_rows(cp, int(args.cpu_size))
        header = "| CPU workload | ms | x copper.vectorize |"
    else:
        if not cp.cuda.is_available():
            sys.exit("jit_bench: copper finds no GPU (try --device cpu)")
        cp.set_default_device("cuda:0")
        n = 10**7 if args.quick else 10**8
        rows = gpu_rows(cp, n, 1024 if args.quick else 2048) + first_call_rows()
        header = "| GPU workload | ms | ratio |"
    lines = [header, "|---|---:|---:|"]
    for name, ms, ratio in rows:
        lines.append(f"| {name} | {ms:.3f} | {'' if ratio is None else f'{ratio:.2f}'} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "jit_bench.md"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "jit_bench.json"), "w") as f:
            json.dump([{"workload": n, "ms": ms, "ratio": r} for n, ms, r in rows], f, indent=1)


if __name__ == "__main__":
    main()
