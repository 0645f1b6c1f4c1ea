// Freed large host blocks kept for the next array of the same size class. glibc returns the
// top of its heap to the system once more than its trim threshold is free there, so a
// program making the same large temporaries over and over (sqrt of an int64 array: its
// float64 cast and the result) paid the kernel's page faults and zeroing on every call:
// 16 MB of fresh pages per call, 5x the op itself at 1e6 elements. Blocks of at least
// 1 MiB are cached, sizes rounded up to one of 16 classes per power of two (at most 6%
// more memory), up to a total bound (COPPER_CPU_CACHE_BYTES, default 1/16 of physical
// memory and at most 2 GiB); past the bound the oldest blocks are freed first.
#pragma once
#include <cstddef>

namespace copper::backend::cpu {

class HostBlockCache {
 public:
  static constexpr std::size_t min_block = std::size_t{1} << 20;

  // The size to allocate for n bytes (its class) when n is cached, else n.
  static std::size_t rounded_size(std::size_t n);

  // A cached block of `size` bytes (a rounded_size()) aligned to `align`, or null.
  void* take(std::size_t size, std::size_t align);
  // Keeps a block from allocate(size, align) for reuse, or frees it.
  void give(void* p, std::size_t size, std::size_t align);
  // Frees every cached block (tests, and before a large allocation that failed).
  void release_all();
  std::size_t cached_bytes() const;

  static HostBlockCache& instance();

  // The process's cache (never destroyed: arrays freed at interpreter exit still come back).
  // Tests make their own with a small bound.
  explicit HostBlockCache(std::size_t limit_bytes);
  ~HostBlockCache();
  HostBlockCache(const HostBlockCache&) = delete;
  HostBlockCache& operator=(const HostBlockCache&) = delete;

 private:
  struct State;
  State* state_;
};

}  // namespace copper::backend::cpu
