// detail::PointerMap (src/api/pointer_map.h), automatic fusion's per-op bookkeeping,
// against std::unordered_map over random keys: inserts, lookups of present and absent keys,
// growth past several table sizes, clear() and reuse, insertion order.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "api/pointer_map.h"

namespace {

using copper::detail::PointerMap;

// Keys as fusion sees them: addresses spread over a block, 16-byte aligned, some repeated.
std::vector<const void*> random_keys(std::size_t n, unsigned seed) {
  static char block[1 << 20];
  std::mt19937 gen(seed);
  std::uniform_int_distribution<std::size_t> at(0, sizeof(block) / 16 - 1);
  std::vector<const void*> keys(n);
  for (auto& k : keys) k = block + 16 * at(gen);
  return keys;
}

TEST(PointerMap, MatchesUnorderedMapThroughGrowthAndClear) {
  PointerMap<long> map;
  for (unsigned round = 0; round < 4; ++round) {
    std::unordered_map<const void*, long> want;
    std::vector<const void*> order;
    const auto keys = random_keys(40 + 300 * round, round);  // past 64, 128, 256, 512 slots
    for (std::size_t i = 0; i < keys.size(); ++i) {
      auto [value, added] = map.try_emplace(keys[i], static_cast<long>(i));
      const auto [it, want_added] = want.try_emplace(keys[i], static_cast<long>(i));
      ASSERT_EQ(added, want_added);
      if (added) order.push_back(keys[i]);
      ++*value;
      ++it->second;
    }
    ASSERT_EQ(map.size(), want.size());
    for (const auto& [k, v] : want) {
      ASSERT_NE(map.find(k), nullptr);
      EXPECT_EQ(*map.find(k), v);
    }
    for (const void* k : random_keys(200, 100 + round))
      EXPECT_EQ(map.contains(k), want.contains(k));
    std::vector<const void*> seen;
    map.for_each([&](const void* k, long v) {
      seen.push_back(k);
      EXPECT_EQ(v, want.at(k));
    });
    EXPECT_EQ(seen, order);
    map.clear();
    EXPECT_TRUE(map.empty());
    for (const auto& [k, v] : want) EXPECT_FALSE(map.contains(k));
  }
}

TEST(PointerMap, EmptyAndDefaultValues) {
  PointerMap<int> map;
  int x = 0;
  EXPECT_EQ(map.find(&x), nullptr);
  EXPECT_FALSE(map.contains(&x));
  EXPECT_EQ(map[&x], 0);
  map[&x] = 7;
  EXPECT_EQ(map.try_emplace(&x, 3).first[0], 7);
  EXPECT_EQ(map.size(), 1u);
}

}  // namespace
