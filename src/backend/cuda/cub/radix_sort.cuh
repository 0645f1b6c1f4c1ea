// DeviceRadixSort in double-buffer mode for one (key, value) type pair. Each pair is
// instantiated in exactly one .cu file (radix_sort_*.cu), so nvcc compiles them in
// parallel and ccache keeps them apart; the others see them as extern templates.
#pragma once
#include <cub/device/device_radix_sort.cuh>

#include <type_traits>

#include "backend/cuda/cub/aot_support.cuh"

namespace copper::backend::cuda::aot::detail {

// V = void sorts keys only. Returns the DoubleBuffer selector of the result.
template <class K, class V>
int radix_sort_typed(const Launch& launch, void* const keys[2], void* const values[2], std::int64_t n, int begin_bit,
                     int end_bit) {
  ::cub::DoubleBuffer<K> k(static_cast<K*>(keys[0]), static_cast<K*>(keys[1]));
  if constexpr (std::is_void_v<V>) {
    run_with_scratch(launch, "sort", [&](void* temp, std::size_t& bytes) {
      return ::cub::DeviceRadixSort::SortKeys(temp, bytes, k, n, begin_bit, end_bit, stream_of(launch));
    });
  } else {
    ::cub::DoubleBuffer<V> v(static_cast<V*>(values[0]), static_cast<V*>(values[1]));
    run_with_scratch(launch, "sort", [&](void* temp, std::size_t& bytes) {
      return ::cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, begin_bit, end_bit, stream_of(launch));
    });
  }
  return k.selector;
}

#define COPPER_RADIX_SORT_PAIRS(X, V) X(std::uint16_t, V) X(std::uint32_t, V) X(std::uint64_t, V)
#define COPPER_RADIX_SORT_EXTERN(K, V) \
  extern template int radix_sort_typed<K, V>(const Launch&, void* const[2], void* const[2], std::int64_t, int, int);
#define COPPER_RADIX_SORT_INSTANTIATE(K, V) \
  template int radix_sort_typed<K, V>(const Launch&, void* const[2], void* const[2], std::int64_t, int, int);

}  // namespace copper::backend::cuda::aot::detail
