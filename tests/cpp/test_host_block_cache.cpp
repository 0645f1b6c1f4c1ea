// HostBlockCache (backend/cpu/host_block_cache.h): size classes, reuse of a freed block,
// the bound (oldest blocks freed first), and CPU arrays that reuse blocks keep their values.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "backend/cpu/host_block_cache.h"
#include "copper/copper.hpp"

namespace {
using copper::backend::cpu::HostBlockCache;

TEST(HostBlockCache, SizeClasses) {
  EXPECT_EQ(HostBlockCache::rounded_size(1000), 1000u);  // small blocks: as asked
  EXPECT_EQ(HostBlockCache::rounded_size(1 << 20), std::size_t{1} << 20);
  // 16 classes per power of two: 1 MiB + 1 byte rounds to 1 MiB + 64 KiB.
  EXPECT_EQ(HostBlockCache::rounded_size((1 << 20) + 1), (std::size_t{1} << 20) + (std::size_t{1} << 16));
  for (std::size_t n : {std::size_t{3'000'001}, std::size_t{8'000'000}, std::size_t{123'456'789}}) {
    const std::size_t r = HostBlockCache::rounded_size(n);
    EXPECT_GE(r, n);
    EXPECT_LE(r, n + n / 16 + 1);
    EXPECT_EQ(HostBlockCache::rounded_size(r), r);  // a class maps to itself
  }
}

TEST(HostBlockCache, ReusesFreedBlocksWithinItsBound) {
  const std::size_t size = HostBlockCache::rounded_size(std::size_t{3} << 20);
  HostBlockCache cache(2 * size);
  EXPECT_EQ(cache.take(size, 64), nullptr);
  void* a = std::aligned_alloc(64, size);
  void* b = std::aligned_alloc(64, size);
  void* c = std::aligned_alloc(64, size);
  cache.give(a, size, 64);
  cache.give(b, size, 64);
  EXPECT_EQ(cache.cached_bytes(), 2 * size);
  cache.give(c, size, 64);  // over the bound: the oldest (a) is freed
  EXPECT_EQ(cache.cached_bytes(), 2 * size);
  EXPECT_EQ(cache.take(size, 2 << 20), nullptr);  // another alignment is another block
  EXPECT_EQ(cache.take(size + 4096, 64), nullptr);
  EXPECT_EQ(cache.take(size, 64), c);  // the newest first
  EXPECT_EQ(cache.take(size, 64), b);
  EXPECT_EQ(cache.take(size, 64), nullptr);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  cache.give(b, size, 64);
  cache.give(c, size, 64);
  cache.release_all();
  EXPECT_EQ(cache.cached_bytes(), 0u);
  void* small = std::malloc(100);
  cache.give(small, 100, 64);  // below the minimum: freed at once
  EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(HostBlockCache, ArraysOnReusedBlocksHoldTheirOwnValues) {
  // Arrays of the same large size made and dropped in turn: each has its own values.
  const std::int64_t n = 600'000;  // 4.8 MB of float64
  for (int round = 0; round < 4; ++round) {
    auto x = copper::full({n}, static_cast<double>(round), copper::float64, copper::cpu);
    auto y = copper::add(x, 1.0);
    const auto v = y.to_vector<double>();
    EXPECT_EQ(v.front(), round + 1.0);
    EXPECT_EQ(v.back(), round + 1.0);
  }
}

}  // namespace
