// Random numbers: the Philox4x32-10 core against the Random123 known-answer vectors,
// pinned outputs (a seed gives the same bits in every run and on every device), and
// argument errors.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "copper/random.hpp"
#include "device_param.h"
#include "ops/philox.h"

using namespace copper;
namespace philox = copper::ops::philox;

TEST(Philox, KnownAnswerVectors) {  // Random123's kat_vectors for philox4x32_10
  auto check = [](philox::Block ctr, std::uint32_t k0, std::uint32_t k1, philox::Block want) {
    const philox::Block got = philox::philox4x32_10(ctr, k0, k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.w[i], want.w[i]) << "word " << i;
  };
  check({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
  check({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
        {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
  check({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
        {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}

TEST(Philox, BoundedIntegersAreExactMultiplyShift) {
  // floor(x * (range + 1) / 2^64) for x = 2^63 (one half) and x = 2^64 - 1.
  EXPECT_EQ(philox::bounded64(1ull << 63, 9), 5u);
  EXPECT_EQ(philox::bounded64(~0ull, 9), 9u);
  EXPECT_EQ(philox::bounded128(1ull << 63, 0, (1ull << 40) - 1), 1ull << 39);
  EXPECT_EQ(philox::bounded128(~0ull, ~0ull, ~0ull), ~0ull);
  EXPECT_EQ(philox::mulhi64(~0ull, ~0ull), ~0ull - 1);
}

class RandomTest : public DeviceTest {};

TEST_P(RandomTest, SameSeedSameBitsPinned) {
  DeviceScope scope(device());
  random::Generator g(42);
  // Pinned when the generator was written: a change here breaks every user's seeds.
  EXPECT_EQ(g.random_raw({3}).to_vector<std::uint64_t>(),
            (std::vector<std::uint64_t>{4829743860107682948ull, 9988451282433966157ull, 2027842558886176090ull}));
  EXPECT_EQ(g.random({3}).to_vector<double>(),
            (std::vector<double>{0.26848057116487434, 0.4406353072544038, 0.9996891959586827}));
  EXPECT_EQ(g.integers(0, 100, {6}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{21, 47, 20, 78, 34, 23}));
  EXPECT_EQ(g.random({3}).device(), device());
}

TEST_P(RandomTest, StreamAdvancesAndSeedsDiffer) {
  DeviceScope scope(device());
  random::Generator a(7), b(7), c(8);
  const auto first = a.random({100}).to_vector<double>();
  EXPECT_EQ(first, b.random({100}).to_vector<double>());
  EXPECT_NE(first, a.random({100}).to_vector<double>());
  EXPECT_NE(first, c.random({100}).to_vector<double>());
  // Chunked draws continue the stream block by block: two draws of 2 = one draw of 4.
  random::Generator d(9), e(9);
  auto two = d.random_raw({2}).to_vector<std::uint64_t>();
  auto more = d.random_raw({2}).to_vector<std::uint64_t>();
  two.insert(two.end(), more.begin(), more.end());
  EXPECT_EQ(two, e.random_raw({4}).to_vector<std::uint64_t>());
}

TEST_P(RandomTest, LegacySeedMatchesGenerator) {
  DeviceScope scope(device());
  random::seed(5);
  const auto legacy = random::rand({4}).to_vector<double>();
  EXPECT_EQ(legacy, random::default_rng(5).random({4}).to_vector<double>());
  EXPECT_THROW(random::seed(-1), ValueError);
  EXPECT_THROW(random::RandomState(std::int64_t{1} << 32), ValueError);
}

TEST_P(RandomTest, ArgumentErrors) {
  DeviceScope scope(device());
  random::Generator g(1);
  EXPECT_THROW(g.random({2}, int32), TypeError);
  EXPECT_THROW(g.random({-1}), ValueError);
  EXPECT_THROW(g.integers(5, 2), ValueError);
  EXPECT_THROW(g.integers(0, 300, {}, uint8), ValueError);
  EXPECT_THROW(g.integers(0, 3, {}, float64), TypeError);
  EXPECT_THROW(g.normal(0, -1), ValueError);
  EXPECT_THROW(g.gamma(-1), ValueError);
  EXPECT_THROW(g.beta(1, 0), ValueError);
  EXPECT_THROW(g.binomial(3, 1.5), ValueError);
  EXPECT_THROW(g.poisson(-1), ValueError);
  EXPECT_THROW(g.choice(5, {6}, false), ValueError);
  ndarray wrong = empty({3}, float32, device());
  EXPECT_THROW(g.random({3}, float64, &wrong), TypeError);
}

TEST_P(RandomTest, PermutationIsAPermutation) {
  DeviceScope scope(device());
  random::Generator g(3);
  auto p = g.permutation(1000).to_vector<std::int64_t>();
  std::sort(p.begin(), p.end());
  for (std::int64_t i = 0; i < 1000; ++i) ASSERT_EQ(p[static_cast<std::size_t>(i)], i);
}

INSTANTIATE_DEVICE_TEST(RandomTest);
