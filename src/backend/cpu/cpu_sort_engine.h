// Sorting arrays of unsigned keys on the CPU: Highway's vqsort (SIMD quicksort, when
// copper is built with libhwy) or std::sort, on one thread or split across the pool
// (each thread sorts a slice, then pairs of slices are merged in parallel).
// Keys come from ops/sort_keys.h; packed keys (key << 32 | index, or a 128-bit
// {index, key}) make an unstable sort give a stable argsort.
#pragma once
#include <cstdint>

namespace copper::backend::cpu {

// A 128-bit key compared as (hi, lo): hi the element's key, lo its index.
struct alignas(16) Key128 {
  std::uint64_t lo;
  std::uint64_t hi;
  friend bool operator<(const Key128& a, const Key128& b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
};

// Ascending sort of n keys on the calling thread.
void sort_keys(std::uint16_t* keys, std::int64_t n);
void sort_keys(std::uint32_t* keys, std::int64_t n);
void sort_keys(std::uint64_t* keys, std::int64_t n);
void sort_keys(Key128* keys, std::int64_t n);

// The same across the thread pool (on the calling thread when n is small).
void parallel_sort_keys(std::uint16_t* keys, std::int64_t n);
void parallel_sort_keys(std::uint32_t* keys, std::int64_t n);
void parallel_sort_keys(std::uint64_t* keys, std::int64_t n);
void parallel_sort_keys(Key128* keys, std::int64_t n);

// True when vqsort is compiled in (benchmarks and the architecture notes report it).
bool have_simd_sort();

}  // namespace copper::backend::cpu
