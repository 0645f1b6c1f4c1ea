// Radix sorts carrying 64-bit indices (arrays of 2^32 elements or more).
#include "backend/cuda/cub/radix_sort.cuh"

namespace copper::backend::cuda::aot::detail {
COPPER_RADIX_SORT_PAIRS(COPPER_RADIX_SORT_INSTANTIATE, std::uint64_t)
}  // namespace copper::backend::cuda::aot::detail
