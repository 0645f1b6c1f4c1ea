"""GPU kernels written in Python with copper.jit (CuPy's cupyx.jit spelling, and Numba's
through copper.jit.cuda), the lessons of NVIDIA's CUDA Python course:

1. a grid-stride loop (Numba's spelling: @cuda.jit, cuda.grid, cuda.gridsize),
2. a histogram with atomics in shared memory (CuPy's: jit.shared_memory, jit.atomic_add),
3. a tiled matrix multiply in shared memory (cuda.shared.array with a 2-D shape),
4. a 2-D blur on a 2-D grid,
5. a block reduction with warp shuffles,
6. copper.vectorize: a scalar function as an elementwise kernel (runs on the CPU too).

Each result is checked against copper's own ops or NumPy. The kernels need a GPU;
without one this script translates and compiles them (NVRTC, sm_90), runs lesson 6 on
the CPU and says so.

Run from a build tree:   PYTHONPATH=build/python python3 examples/python/jit_kernels.py
COPPER_DEMO_SIZE scales the problems (default 1000).
"""
import math
import os

import numpy as np

import copper as cp
from copper import jit
from copper.jit import cuda
from custom_kernels import blocks, box_blur_numpy, report  # the RawKernel lessons' helpers

TILE = 16


@cuda.jit
def scaled_add(x, y, out, a):
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@jit.rawkernel()
def histogram(values, bins):
    local = jit.shared_memory(np.uint32, None)  # dynamic: nbins * 4 bytes at launch
    nbins = bins.size
    for b in range(jit.threadIdx.x, nbins, jit.blockDim.x):
        local[b] = 0
    jit.syncthreads()
    for i in range(jit.grid(1), values.size, jit.gridsize(1)):
        v = values[i]
        if v >= 0 and v < nbins:  # out-of-range values are skipped
            jit.atomic_add(local, v, 1)
    jit.syncthreads()
    for b in range(jit.threadIdx.x, nbins, jit.blockDim.x):
        jit.atomic_add(bins, b, local[b])


@cuda.jit
def matmul_tiled(a, b, c):
    sa = cuda.shared.array((TILE, TILE), np.float32)
    sb = cuda.shared.array((TILE, TILE), np.float32)
    x, y = cuda.grid(2)  # x: column of c, y: row of c
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    m, n, kk = a.shape[0], b.shape[1], a.shape[1]
    acc = np.float32(0)
    for t in range((kk + TILE - 1) // TILE):
        col = t * TILE + tx
        row = t * TILE + ty
        sa[ty, tx] = a[y, col] if y < m and col < kk else 0
        sb[ty, tx] = b[row, x] if row < kk and x < n else 0
        cuda.syncthreads()
        for j in range(TILE):
            acc += sa[ty, j] * sb[j, tx]
        cuda.syncthreads()
    if y < m and x < n:
        c[y, x] = acc


@cuda.jit
def box_blur(img, out):
    x, y = cuda.grid(2)
    h, w = img.shape
    if y < h and x < w:
        total = np.float32(0)
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                yy = min(max(y + dy, 0), h - 1)  # edge padding
                xx = min(max(x + dx, 0), w - 1)
                total += img[yy, xx]
        out[y, x] = total / np.float32(9)


@jit.rawkernel()
def block_sum(x, total):
    warp_sums = jit.shared_memory(np.float32, 32)
    s = np.float32(0)
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        s += x[i]
    offset = 16
    while offset > 0:  # reduce within each warp
        s += jit.shfl_down_sync(0xFFFFFFFF, s, offset)
        offset //= 2
    lane = jit.threadIdx.x % 32
    warp = jit.threadIdx.x // 32
    if lane == 0:
        warp_sums[warp] = s
    jit.syncthreads()
    if warp == 0:
        nwarps = (jit.blockDim.x + 31) // 32
        s = warp_sums[lane] if lane < nwarps else np.float32(0)
        offset = 16
        while offset > 0:
            s += jit.shfl_down_sync(0xFFFFFFFF, s, offset)
            offset //= 2
        if lane == 0:
            jit.atomic_add(total, 0, s)


@cp.vectorize
def soft_threshold(x, t):
    """Shrinks x towards 0 by t (lesson 6: if/else, locals, math)."""
    magnitude = abs(x) - t
    if magnitude <= 0:
        return x * 0
    return math.copysign(magnitude, x) if x != 0 else x * 0


def kernels():
    return {"scaled_add": scaled_add, "histogram": histogram, "matmul_tiled": matmul_tiled,
            "box_blur": box_blur, "block_sum": block_sum}


def sample_arguments():
    """Host arrays standing for each kernel's arguments (only their dtypes, ndims and
    layouts matter to translation)."""
    f32, i32, u32 = np.zeros(4, np.float32), np.zeros(4, np.int32), np.zeros(4, np.uint32)
    f2 = np.zeros((4, 4), np.float32)
    return {"scaled_add": (f32, f32, f32, np.float32(2)), "histogram": (i32, u32), "matmul_tiled": (f2, f2, f2),
            "box_blur": (f2, f2), "block_sum": (f32, f32)}


def vectorize_lesson(size):
    rng = np.random.default_rng(11)
    x = rng.uniform(-2, 2, size * 10).astype(np.float32)
    got = soft_threshold(cp.asarray(x), np.float32(0.5))
    expected = np.vectorize(soft_threshold.pyfunc)(x, np.float32(0.5))
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    return report("vectorize soft threshold", float(np.abs(got.get() - expected).max()), 0)


def run_lessons(size):
    rng = np.random.default_rng(7)
    results = []
    n = size * size
    x = cp.asarray(rng.uniform(-1, 1, n).astype(np.float32))
    y = cp.asarray(rng.uniform(-1, 1, n).astype(np.float32))
    out = cp.empty(n, dtype=cp.float32)
    scaled_add[min(blocks(n, 256), 1024), 256](x, y, out, np.float32(2.5))
    results.append(report("grid-stride a*x + y", float(cp.max(cp.abs(out - (x * 2.5 + y))).get()), 1e-6))

    nbins = 64
    host_values = rng.integers(-3, nbins + 3, n, dtype=np.int32)
    bins = cp.zeros(nbins, dtype=cp.uint32)
    histogram[min(blocks(n, 256), 256), 256, nbins * 4](cp.asarray(host_values), bins)
    inside = host_values[(host_values >= 0) & (host_values < nbins)]
    expected = np.bincount(inside, minlength=nbins)
    results.append(report("histogram with atomics", float(np.abs(bins.get().astype(np.int64) - expected).max()), 0))

    m, kk, nn = size // 4 + 3, size // 3 + 5, size // 5 + 7
    a = cp.asarray(rng.uniform(-1, 1, (m, kk)).astype(np.float32))
    b = cp.asarray(rng.uniform(-1, 1, (kk, nn)).astype(np.float32))
    c = cp.empty((m, nn), dtype=cp.float32)
    matmul_tiled[(blocks(nn, TILE), blocks(m, TILE)), (TILE, TILE)](a, b, c)
    results.append(report("tiled matmul vs copper.matmul", float(cp.max(cp.abs(c - cp.matmul(a, b))).get()),
                          1e-5 * kk))

    h, w = size // 2 + 1, size + 3
    img = rng.uniform(-1, 1, (h, w)).astype(np.float32)
    blurred = cp.empty((h, w), dtype=cp.float32)
    box_blur[(blocks(w, 16), blocks(h, 16)), (16, 16)](cp.asarray(img), blurred)
    results.append(report("2-D box blur", float(np.abs(blurred.get() - box_blur_numpy(img)).max()), 1e-6))

    n = size * size + 17
    x = cp.asarray(rng.uniform(0, 1, n).astype(np.float32))
    total = cp.zeros(1, dtype=cp.float32)
    block_sum[min(blocks(n, 256), 512), 256](x, total)
    expected = float(cp.sum(x.astype(cp.float64)).get())
    results.append(report("block reduction with shuffles", abs(float(total.get()[0]) - expected) / expected, 2e-5))
    results.append(vectorize_lesson(size))
    return all(results)


def main():
    size = max(8, int(os.environ.get("COPPER_DEMO_SIZE", "1000")))
    device = str(cp.get_default_device())
    if not device.startswith("cuda"):
        print(f"jit kernels run on a GPU; the default device is {device}")
        ok = vectorize_lesson(size)
        args = sample_arguments()
        translated = [kernel.specialize(*args[name]).kernel for name, kernel in kernels().items()]
        try:
            for kernel in translated:
                kernel.compile()  # NVRTC for sm_90, without a GPU
        except cp.CompileError:
            raise
        except RuntimeError as e:  # no NVRTC, or a build without the CUDA backend
            print(f"jit kernels: skipped ({e})")
            return
        print("all five kernels translated and compiled with NVRTC (sm_90)")
        print("jit kernels: ok (compiled only)" if ok else "jit kernels: MISMATCH")
        if not ok:
            raise SystemExit(1)
        return
    print(f"jit kernels on {device}, size {size}")
    ok = run_lessons(size)
    print("jit kernels: ok" if ok else "jit kernels: MISMATCH")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
