// Shared by the .cu files of this folder (nvcc only): error checks and CUB's two-phase
// temporary-storage protocol on copper's stream and scratch allocator.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

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

}  // namespace copper::backend::cuda::aot::detail
