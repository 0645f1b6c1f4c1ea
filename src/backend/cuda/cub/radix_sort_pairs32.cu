// Radix sorts carrying 32-bit indices (arrays under 2^32 elements).
#include "backend/cuda/cub/radix_sort.cuh"

namespace copper::backend::cuda::aot::detail {
COPPER_RADIX_SORT_PAIRS(COPPER_RADIX_SORT_INSTANTIATE, std::uint32_t)
}  // namespace copper::backend::cuda::aot::detail
