"""Custom CUDA kernels from source strings with copper.RawKernel and copper.RawModule
(the same API as CuPy's), in five lessons:

1. a grid-stride loop (any grid covers any n),
2. a histogram with atomics (shared-memory counts per block),
3. a tiled matrix multiply in shared memory (a template, through a name expression),
4. a 2-D blur on a 2-D grid,
5. a block reduction with warp shuffles.

Each result is checked against copper's own ops or NumPy. The kernels need a GPU;
without one this script only compiles them (NVRTC, for sm_90) and says so.

Run from a build tree:   PYTHONPATH=build/python python3 examples/python/custom_kernels.py
COPPER_DEMO_SIZE scales the problems (default 1000).
"""
import os

import numpy as np

import copper as cp

SCALED_ADD = r"""
extern "C" __global__ void scaled_add(const float* x, const float* y, float* out, float a, long long n) {
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = a * x[i] + y[i];
}
"""

# Launch with shared_mem = nbins * 4 bytes (one unsigned int per bin).
HISTOGRAM = r"""
extern "C" __global__ void histogram(const int* values, long long n, unsigned int* bins, int nbins) {
  extern __shared__ unsigned int local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int v = values[i];
    if (v >= 0 && v < nbins) atomicAdd(&local[v], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
"""

# Block (Tile, Tile), grid (ceil(n / Tile), ceil(m / Tile)); C = A @ B, row-major float32.
TILED_MATMUL = r"""
template <int Tile>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float a_tile[Tile][Tile];
  __shared__ float b_tile[Tile][Tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * Tile + ty, col = blockIdx.x * Tile + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += Tile) {
    a_tile[ty][tx] = (row < m && t + tx < k) ? A[(long long)row * k + t + tx] : 0.0f;
    b_tile[ty][tx] = (t + ty < k && col < n) ? B[(long long)(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < Tile; ++j) acc += a_tile[ty][j] * b_tile[j][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[(long long)row * n + col] = acc;
}
"""

# Thread (x, y) writes pixel (y, x); neighbours past the edge repeat the edge pixel.
BOX_BLUR = r"""
extern "C" __global__ void box_blur(const float* in, float* out, int height, int width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    const int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      const int xx = min(max(x + dx, 0), width - 1);
      sum += in[(long long)yy * width + xx];
    }
  }
  out[(long long)y * width + x] = sum / 9.0f;
}
"""

# The block size must be a multiple of 32 (full-warp shuffle masks); *out starts at 0.
BLOCK_SUM = r"""
extern "C" __global__ void block_sum(const float* x, long long n, float* out) {
  __shared__ float warp_sums[32];
  float s = 0.0f;
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += x[i];
  for (int offset = 16; offset > 0; offset >>= 1) s += __shfl_down_sync(0xffffffffu, s, offset);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) atomicAdd(out, s);
  }
}
"""


def kernels():
    """Every lesson's kernel (compiled on first use)."""
    module = cp.RawModule(code=TILED_MATMUL, options=("-std=c++17",), name_expressions=["matmul_tiled<16>"])
    return {
        "scaled_add": cp.RawKernel(SCALED_ADD, "scaled_add"),
        "histogram": cp.RawKernel(HISTOGRAM, "histogram"),
        "matmul_tiled": module.get_function("matmul_tiled<16>"),
        "box_blur": cp.RawKernel(BOX_BLUR, "box_blur"),
        "block_sum": cp.RawKernel(BLOCK_SUM, "block_sum"),
    }


def blocks(n, block):
    return max(1, -(-n // block))


def report(lesson, error, tolerance):
    ok = error <= tolerance
    print(f"  {lesson}: max error {error:.3g}  {'ok' if ok else 'MISMATCH'}")
    return ok


def box_blur_numpy(img):
    """The kernel's computation in NumPy: edge padding, the nine neighbours added in the
    kernel's order in float32, then divided by 9."""
    h, w = img.shape
    padded = np.pad(img, 1, mode="edge")
    total = np.zeros_like(img)
    for dy in range(3):
        for dx in range(3):
            total += padded[dy:dy + h, dx:dx + w]
    return total / np.float32(9)


def run_lessons(size, k):
    rng = np.random.default_rng(7)
    results = []

    # 1. Grid-stride loop. Scalars keep their NumPy dtype (np.float32 -> float); a Python
    # int is passed as int64 (long long), as CuPy does.
    n = size * size
    x = cp.asarray(rng.uniform(-1, 1, n).astype(np.float32))
    y = cp.asarray(rng.uniform(-1, 1, n).astype(np.float32))
    out = cp.empty(n, dtype=cp.float32)
    k["scaled_add"]((min(blocks(n, 256), 1024),), (256,), (x, y, out, np.float32(2.5), n))
    # One FMA in the kernel against a multiply then an add: at most 1 ulp apart.
    results.append(report("grid-stride a*x + y", float(cp.max(cp.abs(out - (x * 2.5 + y))).get()), 1e-6))

    # 2. Histogram with atomics, checked against numpy.bincount.
    nbins = 64
    host_values = rng.integers(0, nbins, n, dtype=np.int32)
    bins = cp.zeros(nbins, dtype=cp.uint32)
    k["histogram"]((min(blocks(n, 256), 256),), (256,), (cp.asarray(host_values), n, bins, np.int32(nbins)),
                   shared_mem=nbins * 4)
    expected = np.bincount(host_values, minlength=nbins)
    results.append(report("histogram with atomics", float(np.abs(bins.get().astype(np.int64) - expected).max()), 0))

    # 3. Tiled matmul in shared memory, checked against copper.matmul.
    m, kk, nn = size // 4 + 3, size // 3 + 5, size // 5 + 7
    a = cp.asarray(rng.uniform(-1, 1, (m, kk)).astype(np.float32))
    b = cp.asarray(rng.uniform(-1, 1, (kk, nn)).astype(np.float32))
    c = cp.empty((m, nn), dtype=cp.float32)
    k["matmul_tiled"]((blocks(nn, 16), blocks(m, 16)), (16, 16), (a, b, c, np.int32(m), np.int32(nn), np.int32(kk)))
    # float32 sums of kk products in another order than cuBLAS's.
    error = float(cp.max(cp.abs(c - cp.matmul(a, b))).get())
    results.append(report("tiled matmul vs copper.matmul", error, 1e-5 * kk))

    # 4. 2-D blur on a 2-D grid of 16 x 16 blocks, checked against NumPy.
    h, w = size // 2 + 1, size + 3
    img = rng.uniform(-1, 1, (h, w)).astype(np.float32)
    blurred = cp.empty((h, w), dtype=cp.float32)
    k["box_blur"]((blocks(w, 16), blocks(h, 16)), (16, 16), (cp.asarray(img), blurred, np.int32(h), np.int32(w)))
    results.append(report("2-D box blur", float(np.abs(blurred.get() - box_blur_numpy(img)).max()), 1e-6))

    # 5. Block reduction with warp shuffles, checked against copper.sum (in float64).
    n = size * size + 17
    x = cp.asarray(rng.uniform(0, 1, n).astype(np.float32))
    total = cp.zeros(1, dtype=cp.float32)
    k["block_sum"]((min(blocks(n, 256), 512),), (256,), (x, n, total))
    expected = float(cp.sum(x.astype(cp.float64)).get())
    # float32 sums of positive values: at most 512 atomic adds into the total, each off by
    # half a float32 ulp (6e-8 relative), dominate; 2e-5 of the total bounds them.
    results.append(report("block reduction with shuffles", abs(float(total.get()[0]) - expected) / expected, 2e-5))
    return all(results)


def main():
    size = max(8, int(os.environ.get("COPPER_DEMO_SIZE", "1000")))
    device = str(cp.get_default_device())
    k = kernels()
    if not device.startswith("cuda"):
        print(f"custom kernels run on a GPU; the default device is {device}")
        try:
            for kernel in k.values():
                kernel.compile()  # NVRTC for sm_90: source errors show even without a GPU
        except cp.CompileError:
            raise
        except RuntimeError as e:  # no NVRTC, or a build without the CUDA backend
            print(f"custom kernels: skipped ({e})")
            return
        print("all five lessons compiled with NVRTC (sm_90)\ncustom kernels: ok (compiled only)")
        return
    print(f"custom kernels on {device}, size {size}")
    ok = run_lessons(size, k)
    print("custom kernels: ok" if ok else "custom kernels: MISMATCH")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
