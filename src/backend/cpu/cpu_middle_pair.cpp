// middle_pair on the CPU (median, nanmedian): each row's exact sort keys (ops/sort_keys.h,
// NaNs above every number) go to scratch, std::nth_element finds the lower middle key
// and the upper one is the smallest key after it, so a row costs O(n) instead of a sort.
// Rows run in parallel, one scratch buffer per task.
#include <algorithm>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_sort_keys.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

namespace sk = ops::sort_keys;

template <class U> void middle_pair_rows(const U* rows, U* out, std::int64_t nrows, std::int64_t n, KeyClass cls,
                                         bool skip_nan) {
  // Rows of fewer elements go several to a task.
  const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t(1) << 15) / n);
  parallel_for(nrows, grain, [&](std::int64_t begin, std::int64_t end) {
    std::vector<U> keys(static_cast<std::size_t>(n));
    for (std::int64_t r = begin; r < end; ++r) {
      const U* row = rows + r * n;
      std::int64_t nans = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        keys[j] = sk::encode_key(cls, row[j], false);
        if (cls == KeyClass::floating) nans += sk::is_nan_bits(row[j]);
      }
      const std::int64_t m = skip_nan ? n - nans : n;
      U* o = out + 2 * r;
      if constexpr (sizeof(U) > 1) {
        if ((!skip_nan && nans > 0) || m == 0) {
          o[0] = o[1] = sk::quiet_nan_bits<U>();
          continue;
        }
      }
      // NaN keys are the largest, so the first m sorted keys are the numbers.
      const std::int64_t k0 = (m - 1) / 2, k1 = m / 2;
      std::nth_element(keys.begin(), keys.begin() + k0, keys.end());
      const U low = keys[k0];
      const U high = k1 == k0 ? low : *std::min_element(keys.begin() + k0 + 1, keys.end());
      o[0] = sk::decode_key(cls, low);
      o[1] = sk::decode_key(cls, high);
    }
  });
}

}  // namespace

bool CpuBackend::middle_pair(const ArrayView& rows, bool skip_nan, const ArrayView& out) {
  const std::int64_t nrows = rows.shape[0], n = rows.shape[1];
  if (nrows == 0) return true;
  with_key_type(rows.dtype, [&](auto u) {
    using U = decltype(u);
    middle_pair_rows(static_cast<const U*>(rows.data), static_cast<U*>(out.data), nrows, n, key_class(rows.dtype),
                     skip_nan);
  });
  return true;
}

}  // namespace copper::backend::cpu
