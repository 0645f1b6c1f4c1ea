// The ahead-of-time (nvcc) CUDA code as plain C++: what the rest of the CUDA backend
// calls to run CUB (CCCL) algorithms. Typed pointers, sizes, a stream and a scratch
// allocator only; no CUDA header here, so ordinary .cpp files include it freely.
// The definitions live in the .cu files of this folder (compiled by nvcc for
// COPPER_CUDA_ARCHITECTURES, linked with the static CUDA runtime); AotCall
// (src/backend/cuda/aot_call.h) sets up a Launch from copper's current stream and pool.
#pragma once
#include <cstddef>
#include <cstdint>

namespace copper::backend::cuda::aot {

// Device memory for an algorithm's temporary storage: allocate(self, nbytes) returns
// memory usable in stream order on the call's stream (never null for nbytes > 0; it
// throws on failure) and keeps it alive until the caller's Launch owner is gone.
struct ScratchAllocator {
  void* (*allocate)(void* self, std::size_t nbytes) = nullptr;
  void* self = nullptr;
};

// Where an algorithm runs: a device whose primary context is current on this thread,
// and a stream of it (a CUstream; null is the legacy default stream).
struct Launch {
  int device = 0;
  void* stream = nullptr;
  ScratchAllocator scratch;
};

// Raises the copper exception for a CUDA runtime error `code` (OutOfMemoryError for an
// allocation failure, RuntimeError otherwise), naming `what` (defined in aot_call.cpp).
[[noreturn]] void raise_runtime_error(int code, const char* name, const char* text, const char* what);

// The virtual architectures nvcc compiled this code for, e.g. "900" (nvcc's
// __CUDA_ARCH_LIST__); checked by a ctest without a GPU.
const char* compiled_architectures();
// The CUDA runtime version linked in (cudaRuntimeGetVersion), e.g. 13000. Touches no driver.
int runtime_version();

// out[i] = sum of in[0 .. i) for n elements (DeviceScan::ExclusiveSum); out may be in.
void exclusive_sum(const Launch& launch, const std::int64_t* in, std::int64_t* out, std::int64_t n);

// Sorts n (key, position) pairs by the key's low end_bit bits, stably (equal keys keep
// their positions' order): ufunc.at's order-preserving path (cub/indexing_sort.cu).
void sort_positions_by_target(const Launch& launch, const std::uint64_t* keys_in, std::uint64_t* keys_out,
                              const std::int64_t* positions_in, std::int64_t* positions_out, std::int64_t n,
                              int end_bit);

}  // namespace copper::backend::cuda::aot
