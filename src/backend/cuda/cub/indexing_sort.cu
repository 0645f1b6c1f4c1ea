// Stable radix sort of (target, position) pairs (CUB DeviceRadixSort): ufunc.at's path
// for ops whose repeated application depends on the order (cuda_indexing_apply.cpp).
#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/cub/aot_support.cuh"

namespace copper::backend::cuda::aot {

void sort_positions_by_target(const Launch& launch, const std::uint64_t* keys_in, std::uint64_t* keys_out,
                              const std::int64_t* positions_in, std::int64_t* positions_out, std::int64_t n,
                              int end_bit) {
  if (n <= 0) return;
  detail::run_with_scratch(launch, "ufunc.at (sort by target)", [&](void* temp, std::size_t& bytes) {
    return ::cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, positions_in, positions_out, n, 0, end_bit,
                                             detail::stream_of(launch));
  });
}

}  // namespace copper::backend::cuda::aot
