// DeviceRadixSort on the elements themselves (integers of 4 and 8 bytes, float32,
// float64): CUB orders these types by their own bits, so no key is encoded before the
// sort or decoded after it, and the first pass reads the input where it is. The one
// difference from NumPy's order: CUB puts NaNs whose sign bit is set before -inf. They
// end up as a prefix of the result; a one-thread binary search counts them, and only
// when there are some do two grid-wide kernels rotate them to the end (NumPy sorts
// every NaN last). Both kernels read the count on the device, so nothing waits for
// the host. Each type is instantiated in one .cu file (sort_native32/64.cu).
#pragma once
#include <cub/device/device_radix_sort.cuh>

#include <type_traits>

#include "backend/cuda/cub/aot_support.cuh"

namespace copper::backend::cuda::aot::detail {

// Blocks of the fix-up kernels: one wave, so a launch with nothing to move is short.
constexpr unsigned kFixupBlocks = 1024, kFixupThreads = 256;

template <class T> __device__ __forceinline__ bool is_signed_nan(T v) { return v != v && signbit(v); }

// *count = the length of the prefix of sorted[0, n) that is NaN with the sign bit set.
template <class T> __global__ void count_signed_nans(const T* sorted, std::int64_t n, std::int64_t* count) {
  std::int64_t lo = 0, hi = n;  // the prefix ends in [lo, hi]
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (is_signed_nan(sorted[mid])) lo = mid + 1;
    else hi = mid;
  }
  *count = lo;
}

template <class T> __global__ void copy_if_signed_nans(const T* from, T* to, std::int64_t n, const std::int64_t* count) {
  if (*count == 0) return;
  COPPER_GRID_STRIDE_LOOP(i, n) { to[i] = from[i]; }
}

// out = copy rotated left by *count: the values first, the leading NaNs last.
template <class T> __global__ void rotate_signed_nans(const T* copy, T* out, std::int64_t n, const std::int64_t* count) {
  const std::int64_t k = *count;
  if (k == 0) return;
  COPPER_GRID_STRIDE_LOOP(i, n) { out[i] = copy[i < n - k ? i + k : i - (n - k)]; }
}

template <class T> void sort_native_typed(const Launch& launch, const void* in_bytes, void* out_bytes, std::int64_t n) {
  const T* in = static_cast<const T*>(in_bytes);
  T* out = static_cast<T*>(out_bytes);
  const cudaStream_t stream = stream_of(launch);
  // In place, the array itself is one of CUB's two buffers (the other is scratch);
  // otherwise CUB reads `in` and leaves it unchanged.
  const bool in_place = in == out;
  T* alternate = in_place ? static_cast<T*>(launch.scratch.allocate(launch.scratch.self, n * sizeof(T))) : nullptr;
  ::cub::DoubleBuffer<T> buffers(out, alternate);
  auto sort = [&](void* temp, std::size_t& bytes) {
    return in_place ? ::cub::DeviceRadixSort::SortKeys(temp, bytes, buffers, n, 0, int(8 * sizeof(T)), stream)
                    : ::cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, int(8 * sizeof(T)), stream);
  };
  std::size_t bytes = 0;
  check(sort(nullptr, bytes), "sort");
  // The temporary storage holds the fix-up's copy afterwards (stream order keeps them apart).
  bytes = std::max<std::size_t>({bytes, 1, std::is_floating_point_v<T> ? n * sizeof(T) : 0});
  void* temp = launch.scratch.allocate(launch.scratch.self, bytes);
  check(sort(temp, bytes), "sort");
  if (in_place && buffers.selector == 1)
    check(cudaMemcpyAsync(out, alternate, n * sizeof(T), cudaMemcpyDeviceToDevice, stream), "sort");
  if constexpr (std::is_floating_point_v<T>) {
    auto* count = static_cast<std::int64_t*>(launch.scratch.allocate(launch.scratch.self, sizeof(std::int64_t)));
    T* copy = static_cast<T*>(temp);
    count_signed_nans<T><<<1, 1, 0, stream>>>(out, n, count);
    copy_if_signed_nans<T><<<kFixupBlocks, kFixupThreads, 0, stream>>>(out, copy, n, count);
    rotate_signed_nans<T><<<kFixupBlocks, kFixupThreads, 0, stream>>>(copy, out, n, count);
    check(cudaGetLastError(), "sort (NaN order)");
  }
}

#define COPPER_SORT_NATIVE_INSTANTIATE(T) template void sort_native_typed<T>(const Launch&, const void*, void*, std::int64_t);
#define COPPER_SORT_NATIVE_EXTERN(T) \
  extern template void sort_native_typed<T>(const Launch&, const void*, void*, std::int64_t);

}  // namespace copper::backend::cuda::aot::detail
