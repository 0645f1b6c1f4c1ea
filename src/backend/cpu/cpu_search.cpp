// lexsort_rows, searchsorted and flag_positions on the CPU, over the canonical keys of
// ops/sort_keys.h (so NaNs, -0.0 and complex numbers order exactly as in sort_rows).
#include <algorithm>
#include <numeric>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_sort_keys.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

// Appends the canonical key words of row r of `key` (one column per word) to cols.
void key_columns(const ArrayView& key, std::int64_t r, std::int64_t n, std::vector<std::vector<std::uint64_t>>& cols) {
  with_key_type(key.dtype, [&](auto u) {
    using U = decltype(u);
    const bool complex = is_complex(key.dtype);
    const U* row = static_cast<const U*>(key.data) + r * n * (complex ? 2 : 1);
    const KeyClass cls = key_class(key.dtype);
    const int words = complex ? 3 : 1;
    const std::size_t first = cols.size();
    cols.resize(first + words, std::vector<std::uint64_t>(static_cast<std::size_t>(n)));
    for (std::int64_t j = 0; j < n; ++j) {
      const WideKey k = wide_key(row, j, cls, complex);
      for (int q = 0; q < words; ++q) cols[first + q][j] = k.w[q];
    }
  });
}

}  // namespace

void CpuBackend::lexsort_rows(std::span<const ArrayView> keys, const ArrayView& indices) {
  const std::int64_t rows = indices.shape[0], n = indices.shape[1];
  if (rows == 0 || n == 0) return;
  auto* out = static_cast<std::int64_t*>(indices.data);
  parallel_for(rows, std::max<std::int64_t>(1, (1 << 14) / n), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t r = b; r < e; ++r) {
      // Columns in decreasing priority: the last key's words first.
      std::vector<std::vector<std::uint64_t>> cols;
      for (std::size_t k = keys.size(); k-- > 0;) key_columns(keys[k], r, n, cols);
      std::int64_t* idx = out + r * n;
      std::iota(idx, idx + n, std::int64_t{0});
      std::sort(idx, idx + n, [&](std::int64_t x, std::int64_t y) {
        for (const auto& c : cols)
          if (c[x] != c[y]) return c[x] < c[y];
        return x < y;  // equal keys keep their order: stable
      });
    }
  });
}

void CpuBackend::searchsorted(const ArrayView& sorted, const ArrayView& queries, bool right, const ArrayView& out) {
  const std::int64_t n = shape_size(sorted.shape), m = shape_size(queries.shape);
  auto* result = static_cast<std::int64_t*>(out.data);
  with_key_type(sorted.dtype, [&](auto u) {
    using U = decltype(u);
    const bool complex = is_complex(sorted.dtype);
    const KeyClass cls = key_class(sorted.dtype);
    const U* a = static_cast<const U*>(sorted.data);
    const U* q = static_cast<const U*>(queries.data);
    parallel_for(m, 1 << 12, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) {
        const WideKey kq = wide_key(q, i, cls, complex);
        // Binary search for the first element >= q (left) or > q (right).
        std::int64_t lo = 0, hi = n;
        while (lo < hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          const WideKey ka = wide_key(a, mid, cls, complex);
          int c = 0;  // <0: a[mid] < q, 0: equal, >0: a[mid] > q
          for (int w = 0; w < ka.count && c == 0; ++w)
            if (ka.w[w] != kq.w[w]) c = ka.w[w] < kq.w[w] ? -1 : 1;
          if (right ? c <= 0 : c < 0) lo = mid + 1;
          else hi = mid;
        }
        result[i] = lo;
      }
    });
  });
}

std::int64_t CpuBackend::flag_positions(const ArrayView& flags, const ArrayView& out) {
  const std::int64_t n = shape_size(flags.shape);
  const auto* f = static_cast<const unsigned char*>(flags.data);  // any nonzero byte is true
  auto* pos = static_cast<std::int64_t*>(out.data);
  // Count per slice, then each slice writes from its prefix.
  const int slices = static_cast<int>(std::clamp<std::int64_t>(n >> 16, 1, num_threads()));
  std::vector<std::int64_t> start(slices + 1, 0);
  auto bound = [&](int s) { return n * s / slices; };
  parallel_tasks(slices, [&](int s) {
    std::int64_t c = 0;
    for (std::int64_t i = bound(s); i < bound(s + 1); ++i) c += f[i] != 0;
    start[s + 1] = c;
  });
  for (int s = 0; s < slices; ++s) start[s + 1] += start[s];
  parallel_tasks(slices, [&](int s) {
    std::int64_t w = start[s];
    for (std::int64_t i = bound(s); i < bound(s + 1); ++i)
      if (f[i] != 0) pos[w++] = i;
  });
  return start[slices];
}

}  // namespace copper::backend::cpu
