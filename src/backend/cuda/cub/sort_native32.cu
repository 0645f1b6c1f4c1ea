// Native radix sorts of 4-byte elements, and the dispatch over every native type.
#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cub/sort_native.cuh"

namespace copper::backend::cuda::aot {

namespace detail {
COPPER_SORT_NATIVE_INSTANTIATE(std::int32_t)
COPPER_SORT_NATIVE_INSTANTIATE(std::uint32_t)
COPPER_SORT_NATIVE_INSTANTIATE(float)
// Instantiated in sort_native64.cu.
COPPER_SORT_NATIVE_EXTERN(std::int64_t)
COPPER_SORT_NATIVE_EXTERN(std::uint64_t)
COPPER_SORT_NATIVE_EXTERN(double)
}  // namespace detail

bool sorts_natively(DType dtype) {
  switch (dtype) {
    case DType::int32: case DType::uint32: case DType::float32:
    case DType::int64: case DType::uint64: case DType::float64: return true;
    default: return false;
  }
}

void sort_native(const Launch& launch, DType dtype, const void* in, void* out, std::int64_t n) {
  if (n <= 0) return;
  if (n == 1) {
    if (in != out)
      detail::check(cudaMemcpyAsync(out, in, itemsize(dtype), cudaMemcpyDeviceToDevice, detail::stream_of(launch)),
                    "sort");
    return;
  }
  switch (dtype) {
    case DType::int32: return detail::sort_native_typed<std::int32_t>(launch, in, out, n);
    case DType::uint32: return detail::sort_native_typed<std::uint32_t>(launch, in, out, n);
    case DType::float32: return detail::sort_native_typed<float>(launch, in, out, n);
    case DType::int64: return detail::sort_native_typed<std::int64_t>(launch, in, out, n);
    case DType::uint64: return detail::sort_native_typed<std::uint64_t>(launch, in, out, n);
    case DType::float64: return detail::sort_native_typed<double>(launch, in, out, n);
    default: detail::check(cudaErrorInvalidValue, "sort (a dtype CUB does not order)");
  }
}

}  // namespace copper::backend::cuda::aot
