#include "backend/cpu/cpu_sort_engine.h"

#include <algorithm>
#include <memory>
#include <type_traits>

#include "backend/cpu/thread_pool.h"

#ifndef COPPER_HAVE_HWY
#define COPPER_HAVE_HWY 0
#endif
#if COPPER_HAVE_HWY
#include <hwy/contrib/sort/vqsort.h>
#endif

namespace copper::backend::cpu {

namespace {

#if COPPER_HAVE_HWY
// vqsort keeps per-sorter scratch and picks AVX2/AVX-512/... at run time.
const hwy::Sorter& sorter() {
  thread_local hwy::Sorter s;
  return s;
}
template <class K> void sort_one(K* keys, std::int64_t n) {
  if (n < 2) return;
  if constexpr (std::is_same_v<K, Key128>) {
    static_assert(sizeof(Key128) == sizeof(hwy::uint128_t));
    sorter()(reinterpret_cast<hwy::uint128_t*>(keys), static_cast<std::size_t>(n), hwy::SortAscending());
  } else {
    sorter()(keys, static_cast<std::size_t>(n), hwy::SortAscending());
  }
}
#else
template <class K> void sort_one(K* keys, std::int64_t n) { std::sort(keys, keys + n); }
#endif

// Merge path: how many of the first k merged elements come from a (ties: a first).
template <class K> std::int64_t co_rank(std::int64_t k, const K* a, std::int64_t na, const K* b, std::int64_t nb) {
  std::int64_t lo = std::max<std::int64_t>(0, k - nb), hi = std::min(k, na);
  while (lo < hi) {
    const std::int64_t i = lo + (hi - lo) / 2;  // take i from a, k - i from b
    if (b[k - i - 1] < a[i]) hi = i;  // a[i] comes after b's part: fewer from a
    else lo = i + 1;
  }
  return lo;
}

constexpr std::int64_t kParallelMin = 1 << 16;  // below this one thread sorts faster

template <class K> void parallel_sort(K* keys, std::int64_t n) {
  int slices = 1;
  while (slices * 2 <= num_threads() && n / (slices * 2) >= kParallelMin / 2) slices *= 2;
  if (slices == 1) {
    sort_one(keys, n);
    return;
  }
  // Slice s is [n * s / slices, n * (s + 1) / slices).
  auto bound = [&](std::int64_t s) { return n * s / slices; };
  parallel_tasks(slices, [&](int s) { sort_one(keys + bound(s), bound(s + 1) - bound(s)); });
  std::unique_ptr<K[]> scratch(new K[static_cast<std::size_t>(n)]);
  K* from = keys;
  K* to = scratch.get();
  // Each round merges pairs of runs; every thread writes an equal share of the output.
  for (int run = 1; run < slices; run *= 2) {
    const int tasks = slices;
    parallel_tasks(tasks, [&](int t) {
      const std::int64_t begin = n * t / tasks, end = n * (t + 1) / tasks;
      std::int64_t pos = begin;
      while (pos < end) {
        // The pair of runs that output position `pos` belongs to.
        int pair = 0;
        while (bound(std::min(slices, (pair + 1) * 2 * run)) <= pos) ++pair;
        const std::int64_t a0 = bound(pair * 2 * run), a1 = bound(std::min(slices, pair * 2 * run + run));
        const std::int64_t b1 = bound(std::min(slices, (pair + 1) * 2 * run));
        const std::int64_t stop = std::min(end, b1);
        const K* a = from + a0;
        const K* b = from + a1;
        const std::int64_t na = a1 - a0, nb = b1 - a1;
        const std::int64_t i0 = co_rank(pos - a0, a, na, b, nb), i1 = co_rank(stop - a0, a, na, b, nb);
        std::merge(a + i0, a + i1, b + (pos - a0 - i0), b + (stop - a0 - i1), to + pos,
                   [](const K& x, const K& y) { return x < y; });
        pos = stop;
      }
    });
    std::swap(from, to);
  }
  if (from != keys) parallel_for(n, 1 << 16, [&](std::int64_t b, std::int64_t e) { std::copy(from + b, from + e, keys + b); });
}

}  // namespace

void sort_keys(std::uint16_t* keys, std::int64_t n) { sort_one(keys, n); }
void sort_keys(std::uint32_t* keys, std::int64_t n) { sort_one(keys, n); }
void sort_keys(std::uint64_t* keys, std::int64_t n) { sort_one(keys, n); }
void sort_keys(Key128* keys, std::int64_t n) { sort_one(keys, n); }
void parallel_sort_keys(std::uint16_t* keys, std::int64_t n) { parallel_sort(keys, n); }
void parallel_sort_keys(std::uint32_t* keys, std::int64_t n) { parallel_sort(keys, n); }
void parallel_sort_keys(std::uint64_t* keys, std::int64_t n) { parallel_sort(keys, n); }
void parallel_sort_keys(Key128* keys, std::int64_t n) { parallel_sort(keys, n); }

bool have_simd_sort() { return COPPER_HAVE_HWY != 0; }

}  // namespace copper::backend::cpu
