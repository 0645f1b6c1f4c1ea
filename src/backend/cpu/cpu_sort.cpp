// sort_rows on the CPU: each row's elements become unsigned keys (cpu_sort_keys.h) and
// are sorted by cpu_sort_engine (vqsort or std::sort). Values sort the exact keys and
// decode them; indices sort packed (key, index) words, which makes the order stable.
// One long row runs across the pool; many rows run one per task.
#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_sort_engine.h"
#include "backend/cpu/cpu_sort_keys.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

namespace sk = ops::sort_keys;
constexpr std::int64_t kRowParallelMin = 1 << 16;

// A loop over [0, n): across the pool for a long row sorted alone, else inline.
void row_loop(bool parallel, std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& fn) {
  if (parallel) parallel_for(n, 1 << 15, fn);
  else fn(0, n);
}

template <class K> void sort_buffer(bool parallel, K* keys, std::int64_t n) {
  if (parallel) parallel_sort_keys(keys, n);
  else sort_keys(keys, n);
}

template <std::size_t Bytes> struct Element {
  unsigned char b[Bytes];
};

// out[j] = row[idx[j]] for elements of `bytes` bytes; out must not overlap row.
void gather_row(const void* row, const std::int64_t* idx, void* out, std::int64_t n, int bytes, bool parallel) {
  auto run = [&]<std::size_t B>(Element<B>) {
    const auto* src = static_cast<const Element<B>*>(row);
    auto* dst = static_cast<Element<B>*>(out);
    row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t j = b; j < e; ++j) dst[j] = src[idx[j]];
    });
  };
  switch (bytes) {
    case 1: run(Element<1>{}); break;
    case 2: run(Element<2>{}); break;
    case 4: run(Element<4>{}); break;
    case 8: run(Element<8>{}); break;
    default: run(Element<16>{}); break;
  }
}

template <class U> struct RowSorter {
  const U* in;       // rows of n elements (2n words for complex)
  U* values;         // may equal in; null when not asked for
  std::int64_t* indices;
  std::int64_t n;
  KeyClass cls;
  bool complex;
  int item;          // element bytes

  // Scratch reused across the rows one task sorts.
  struct Scratch {
    std::vector<U> keys;
    std::vector<std::uint64_t> packed;
    std::vector<Key128> wide;
    std::vector<unsigned char> row_copy;
    std::vector<std::int64_t> index;
  };

  void sort_row(std::int64_t r, bool parallel, Scratch& s) const {
    const std::int64_t words = complex ? 2 * n : n;
    const U* row = in + r * words;
    U* vrow = values ? values + r * words : nullptr;
    std::int64_t* irow = indices ? indices + r * n : nullptr;
    if (!irow && !complex) {
      sort_values(row, vrow, parallel, s);
      return;
    }
    if (!irow) {  // complex values: sorted through their argsort
      s.index.resize(static_cast<std::size_t>(n));
      irow = s.index.data();
    }
    if (complex) argsort_complex(row, irow, s);
    else argsort_real(row, irow, parallel, s);
    if (vrow) {
      // The gather reads the row it may overwrite: copy the row first when in place.
      const void* src = row;
      if (static_cast<const void*>(vrow) == static_cast<const void*>(row)) {
        s.row_copy.resize(static_cast<std::size_t>(n * item));
        std::memcpy(s.row_copy.data(), row, static_cast<std::size_t>(n * item));
        src = s.row_copy.data();
      }
      gather_row(src, irow, vrow, n, item, parallel);
    }
  }

  void sort_values(const U* row, U* out, bool parallel, Scratch& s) const {
    if constexpr (sizeof(U) == 1) {
      // Counting sort: 256 possible keys.
      std::int64_t count[256] = {};
      for (std::int64_t j = 0; j < n; ++j) ++count[sk::encode_key(cls, row[j], false)];
      std::int64_t j = 0;
      for (int k = 0; k < 256; ++k)
        for (std::int64_t c = 0; c < count[k]; ++c) out[j++] = sk::decode_key(cls, static_cast<U>(k));
    } else {
      s.keys.resize(static_cast<std::size_t>(n));
      U* keys = s.keys.data();
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) { encode_keys(row + b, keys + b, e - b, cls, false); });
      sort_buffer(parallel, keys, n);
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) { decode_keys(keys + b, out + b, e - b, cls); });
    }
  }

  void argsort_real(const U* row, std::int64_t* out, bool parallel, Scratch& s) const {
    if constexpr (sizeof(U) == 1) {
      // Stable counting sort of the positions.
      std::int64_t start[257] = {};
      for (std::int64_t j = 0; j < n; ++j) ++start[sk::encode_key(cls, row[j], true) + 1];
      for (int k = 0; k < 256; ++k) start[k + 1] += start[k];
      for (std::int64_t j = 0; j < n; ++j) out[start[sk::encode_key(cls, row[j], true)]++] = j;
    } else if (sizeof(U) <= 4 && n <= (std::int64_t(1) << 32)) {
      // (key << 32 | position): distinct words, so any sort is a stable argsort.
      s.packed.resize(static_cast<std::size_t>(n));
      std::uint64_t* p = s.packed.data();
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t j = b; j < e; ++j)
          p[j] = (std::uint64_t(sk::encode_key(cls, row[j], true)) << 32) | std::uint64_t(j);
      });
      sort_buffer(parallel, p, n);
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t j = b; j < e; ++j) out[j] = static_cast<std::int64_t>(p[j] & 0xFFFFFFFFu);
      });
    } else {
      s.wide.resize(static_cast<std::size_t>(n));
      Key128* w = s.wide.data();
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t j = b; j < e; ++j) w[j] = Key128{std::uint64_t(j), std::uint64_t(sk::encode_key(cls, row[j], true))};
      });
      sort_buffer(parallel, w, n);
      row_loop(parallel, n, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t j = b; j < e; ++j) out[j] = static_cast<std::int64_t>(w[j].lo);
      });
    }
  }

  // Complex: (class, real, imaginary, position) compared in that order.
  void argsort_complex(const U* row, std::int64_t* out, Scratch& s) const {
    if (sizeof(U) == 4 && n <= (std::int64_t(1) << 32)) {
      s.wide.resize(static_cast<std::size_t>(n));
      Key128* w = s.wide.data();
      for (std::int64_t j = 0; j < n; ++j) {
        const WideKey k = wide_key(row, j, cls, true);
        w[j] = Key128{(k.w[2] << 32) | std::uint64_t(j), (k.w[0] << 32) | k.w[1]};
      }
      sort_keys(w, n);
      for (std::int64_t j = 0; j < n; ++j) out[j] = static_cast<std::int64_t>(w[j].lo & 0xFFFFFFFFu);
      return;
    }
    struct Entry {
      WideKey k;
      std::int64_t j;
    };
    std::vector<Entry> e(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) e[j] = {wide_key(row, j, cls, true), j};
    std::sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
      for (int q = 0; q < 3; ++q)
        if (a.k.w[q] != b.k.w[q]) return a.k.w[q] < b.k.w[q];
      return a.j < b.j;
    });
    for (std::int64_t j = 0; j < n; ++j) out[j] = e[j].j;
  }
};

}  // namespace

void CpuBackend::sort_rows(const ArrayView& in, const ArrayView* values, const ArrayView* indices) {
  const std::int64_t rows = in.shape[0], n = in.shape[1];
  if (rows == 0 || n == 0) return;
  with_key_type(in.dtype, [&](auto u) {
    using U = decltype(u);
    RowSorter<U> sorter{static_cast<const U*>(in.data), values ? static_cast<U*>(values->data) : nullptr,
                        indices ? static_cast<std::int64_t*>(indices->data) : nullptr,
                        n, key_class(in.dtype), is_complex(in.dtype), itemsize(in.dtype)};
    // Few long rows: each row across the pool. Otherwise a task sorts whole rows.
    if (rows < num_threads() && n >= kRowParallelMin) {
      typename RowSorter<U>::Scratch s;
      for (std::int64_t r = 0; r < rows; ++r) sorter.sort_row(r, true, s);
      return;
    }
    const std::int64_t grain = std::max<std::int64_t>(1, kRowParallelMin / n);
    parallel_for(rows, grain, [&](std::int64_t b, std::int64_t e) {
      typename RowSorter<U>::Scratch s;
      for (std::int64_t r = b; r < e; ++r) sorter.sort_row(r, false, s);
    });
  });
}

}  // namespace copper::backend::cpu
