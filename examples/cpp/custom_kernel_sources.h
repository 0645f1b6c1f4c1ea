// The CUDA C++ sources of the custom-kernel lessons (custom_kernels.cpp), in one place
// so the compile check (tests/cpp/cuda_raw_kernel_compile_check.cpp) compiles exactly
// what the example runs. examples/python/custom_kernels.py holds the same kernels.
#pragma once

namespace lessons {

// 1. Grid-stride loop: any grid covers any n; each thread strides by the whole grid.
inline constexpr const char* kScaledAdd = R"(
extern "C" __global__ void scaled_add(const float* x, const float* y, float* out, float a, long long n) {
  const long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = a * x[i] + y[i];
}
)";

// 2. Histogram with atomics: each block counts into shared memory (fast atomics),
//    then adds its counts to the global bins (one atomic per bin and block).
//    Launch with shared_mem = nbins * sizeof(unsigned int).
inline constexpr const char* kHistogram = R"(
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
)";

// 3. Tiled matrix multiply, C = A @ B (row-major float32): each block computes a
//    Tile x Tile piece of C, staging Tile x Tile pieces of A and B through shared
//    memory. A template, so the tile size is a name expression: "matmul_tiled<16>".
//    Launch with block (Tile, Tile) and grid (ceil(n / Tile), ceil(m / Tile)).
inline constexpr const char* kTiledMatmul = R"(
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
)";

// 4. 3x3 box blur of a height x width float32 image on a 2-D grid: thread (x, y)
//    writes pixel (y, x); neighbours past the edge repeat the edge pixel.
inline constexpr const char* kBoxBlur = R"(
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
)";

// 5. Block reduction with warp shuffles: grid-stride partial sums per thread, a
//    shuffle tree inside each warp, one shared slot per warp, a second shuffle tree in
//    the first warp, one atomicAdd per block. The block size must be a multiple of 32
//    (full-warp shuffle masks); *out must start at 0.
inline constexpr const char* kBlockSum = R"(
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
)";

}  // namespace lessons
