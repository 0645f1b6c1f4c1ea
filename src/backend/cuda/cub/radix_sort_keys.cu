// Keys-only radix sorts, and the dispatch over every instantiated (key, value) pair.
#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cub/radix_sort.cuh"

namespace copper::backend::cuda::aot {

namespace detail {
COPPER_RADIX_SORT_PAIRS(COPPER_RADIX_SORT_INSTANTIATE, void)
// Instantiated in radix_sort_pairs32.cu and radix_sort_pairs64.cu.
COPPER_RADIX_SORT_PAIRS(COPPER_RADIX_SORT_EXTERN, std::uint32_t)
COPPER_RADIX_SORT_PAIRS(COPPER_RADIX_SORT_EXTERN, std::uint64_t)
}  // namespace detail

int radix_sort(const Launch& launch, int key_bytes, int value_bytes, void* const keys[2], void* const values[2],
               std::int64_t n, int begin_bit, int end_bit) {
  if (n <= 1) return 0;
  int result = 0;
  auto with_values = [&](auto k) {
    using K = decltype(k);
    if (value_bytes == 0) result = detail::radix_sort_typed<K, void>(launch, keys, values, n, begin_bit, end_bit);
    else if (value_bytes == 4) result = detail::radix_sort_typed<K, std::uint32_t>(launch, keys, values, n, begin_bit, end_bit);
    else result = detail::radix_sort_typed<K, std::uint64_t>(launch, keys, values, n, begin_bit, end_bit);
  };
  if (key_bytes == 2) with_values(std::uint16_t{});
  else if (key_bytes == 4) with_values(std::uint32_t{});
  else with_values(std::uint64_t{});
  return result;
}

}  // namespace copper::backend::cuda::aot
