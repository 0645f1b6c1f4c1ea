// searchsorted (one thread per query, binary search over canonical keys computed on the
// fly) and flag_positions (DeviceSelect::Flagged over a counting iterator).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cub/aot_support.cuh"
#include "ops/sort_keys.h"

namespace copper::backend::cuda::aot {

namespace {

namespace sk = ops::sort_keys;

// The canonical key of element i: the key itself, or (class, real, imaginary) packed
// into comparable words for complex numbers.
template <class U, bool Complex> struct SearchKey {
  U w[Complex ? 3 : 1];
  __device__ __forceinline__ static SearchKey of(const U* a, std::int64_t i, sk::KeyClass cls) {
    SearchKey k;
    if constexpr (Complex) {
      const U re = a[2 * i], im = a[2 * i + 1];
      k.w[0] = sk::complex_class(re, im);
      k.w[1] = sk::complex_real_key(re, im);
      k.w[2] = sk::complex_imag_key(re, im);
    } else {
      k.w[0] = sk::encode_key(cls, a[i], true);
    }
    return k;
  }
  // <0, 0, >0 as this key is below, equal to or above `o`.
  __device__ __forceinline__ int compare(const SearchKey& o) const {
    for (int q = 0; q < (Complex ? 3 : 1); ++q)
      if (w[q] != o.w[q]) return w[q] < o.w[q] ? -1 : 1;
    return 0;
  }
};

template <class U, bool Complex>
__global__ void searchsorted_kernel(const U* sorted, std::int64_t n, const U* queries, std::int64_t m, bool right,
                                    sk::KeyClass cls, std::int64_t* out) {
  using Key = SearchKey<U, Complex>;
  COPPER_GRID_STRIDE_LOOP(i, m) {
    const Key q = Key::of(queries, i, cls);
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const int c = Key::of(sorted, mid, cls).compare(q);
      if (right ? c <= 0 : c < 0) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
}

}  // namespace

void searchsorted(const Launch& launch, DType dtype, const void* sorted, std::int64_t n, const void* queries,
                  std::int64_t m, bool right, std::int64_t* out) {
  const Kind k = kind(dtype);
  const sk::KeyClass cls = k == Kind::bool_  ? sk::KeyClass::boolean
                           : k == Kind::int_ ? sk::KeyClass::signed_int
                           : k == Kind::uint_ ? sk::KeyClass::unsigned_int
                                              : sk::KeyClass::floating;
  if (is_complex(dtype)) {
    auto run = [&](auto u) {
      using U = decltype(u);
      detail::launch_loop(launch, "searchsorted", m, searchsorted_kernel<U, true>, static_cast<const U*>(sorted), n,
                          static_cast<const U*>(queries), m, right, cls, out);
    };
    if (itemsize(dtype) == 8) run(std::uint32_t{});
    else run(std::uint64_t{});
    return;
  }
  detail::with_unsigned(itemsize(dtype), [&](auto u) {
    using U = decltype(u);
    detail::launch_loop(launch, "searchsorted", m, searchsorted_kernel<U, false>, static_cast<const U*>(sorted), n,
                        static_cast<const U*>(queries), m, right, cls, out);
  });
}

void flag_positions(const Launch& launch, const bool* flags, std::int64_t n, std::int64_t* out, std::int64_t* count) {
  detail::run_with_scratch(launch, "flag_positions", [&](void* temp, std::size_t& bytes) {
    return ::cub::DeviceSelect::Flagged(temp, bytes, thrust::counting_iterator<std::int64_t>(0), flags, out, count, n,
                                        detail::stream_of(launch));
  });
}

}  // namespace copper::backend::cuda::aot
