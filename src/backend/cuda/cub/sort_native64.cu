// Native radix sorts of 8-byte elements (sort_native.cuh).
#include "backend/cuda/cub/sort_native.cuh"

namespace copper::backend::cuda::aot::detail {
COPPER_SORT_NATIVE_INSTANTIATE(std::int64_t)
COPPER_SORT_NATIVE_INSTANTIATE(std::uint64_t)
COPPER_SORT_NATIVE_INSTANTIATE(double)
}  // namespace copper::backend::cuda::aot::detail
