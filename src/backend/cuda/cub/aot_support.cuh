// Shared by the .cu files of this folder (nvcc only): error checks and CUB's two-phase
// temporary-storage protocol on copper's stream and scratch allocator.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backend/cuda/cub/aot.h"

namespace copper::backend::cuda::aot::detail {

inline cudaStream_t stream_of(const Launch& launch) { return static_cast<cudaStream_t>(launch.stream); }

inline void check(cudaError_t result, const char* what) {
  if (result == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  raise_runtime_error(static_cast<int>(result), cudaGetErrorName(result), cudaGetErrorString(result), what);
}

// Runs `algorithm(temp, bytes)` (a CUB device-wide call bound to its arguments) once to
// size its temporary storage and once to run it with scratch from copper's pool.
template <class Algorithm>
void run_with_scratch(const Launch& launch, const char* what, Algorithm&& algorithm) {
  std::size_t bytes = 0;
  check(algorithm(static_cast<void*>(nullptr), bytes), what);
  // CUB treats a null temp pointer as a size query, so never pass null to the real run.
  if (bytes == 0) bytes = 1;
  void* temp = launch.scratch.allocate(launch.scratch.self, bytes);
  check(algorithm(temp, bytes), what);
}

// Launches `kernel` (a grid-stride loop over n items) on the call's stream.
template <class Kernel, class... Args>
void launch_loop(const Launch& launch, const char* what, std::int64_t n, Kernel kernel, Args... args) {
  constexpr unsigned kBlock = 256;
  constexpr std::int64_t kMaxBlocks = 1 << 16;  // enough to fill any GPU; the loop covers the rest
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((n + kBlock - 1) / kBlock, kMaxBlocks));
  if (blocks == 0) return;
  kernel<<<blocks, kBlock, 0, stream_of(launch)>>>(args...);
  check(cudaGetLastError(), what);
}

#define COPPER_GRID_STRIDE_LOOP(i, n) \
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += std::int64_t(gridDim.x) * blockDim.x)

// Calls fn(T{}) for the unsigned integer type of `bytes` bytes (1, 2, 4, 8).
template <class Fn> void with_unsigned(int bytes, Fn&& fn) {
  switch (bytes) {
    case 1: fn(std::uint8_t{}); break;
    case 2: fn(std::uint16_t{}); break;
    case 4: fn(std::uint32_t{}); break;
    default: fn(std::uint64_t{}); break;
  }
}

}  // namespace copper::backend::cuda::aot::detail
