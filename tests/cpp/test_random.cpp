// Random numbers: the Philox4x32-10 core against the Random123 known-answer vectors,
// pinned outputs (a seed gives the same bits in every run and on every device), and
// argument errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

// The normals' own sin/cos and log polynomials against long double references, in ulp of
// the result (2^-24 or 2^-53 relative). float32 trades accuracy for instructions (the GPU
// kernel is arithmetic-bound): within 2.5 ulp over every 2^11-th angle word and a sweep
// of radius words; float64 within 2 ulp over a strided sweep of the angle words.
TEST(PhiloxNormals, SinCosAccurate) {
  auto ulps = [](long double got, long double want, long double eps) {
    const long double scale = std::max(std::fabs(want), 1e-300L);
    return static_cast<double>(std::fabs(got - want) / (scale * eps));
  };
  const long double pi = 3.141592653589793238462643383279503L;
  double worst_f = 0, worst_d = 0;
  for (std::uint64_t w = 0; w < (1ull << 32); w += (1u << 11) + 7) {
    const std::uint32_t word = static_cast<std::uint32_t>(w);
    // float: the octant's angle t pi/4 (t = top 23 bits), swapped by bit 2, sin negated
    // by bit 1. double: the whole word as a fraction of a turn.
    const long double t = static_cast<long double>(word >> 9) / 8388608.0L;
    long double sf = std::sin(pi / 4 * t), cf = std::cos(pi / 4 * t);
    if (word & 4u) std::swap(sf, cf);
    if (word & 2u) sf = -sf;
    const std::uint32_t v = word + 0x20000000u, q = v >> 30;
    const long double xd = static_cast<long double>(static_cast<double>(static_cast<std::int32_t>(v & 0x3fffffffu) - 0x20000000) * 1.4629180792671596e-09);
    long double sd = std::sin(xd), cd = std::cos(xd);
    if (q & 1) std::swap(sd, cd);
    if (q & 2) sd = -sd;
    if ((q + 1) & 2) cd = -cd;
    float s32, c32;
    double s64, c64;
    philox::sincos_octant(word, &s32, &c32);
    philox::sincos_turn(word, &s64, &c64);
    worst_f = std::max({worst_f, ulps(s32, sf, 0x1p-24L), ulps(c32, cf, 0x1p-24L)});
    worst_d = std::max({worst_d, ulps(s64, sd, 0x1p-53L), ulps(c64, cd, 0x1p-53L)});
  }
  EXPECT_LT(worst_f, 2.5);
  EXPECT_LT(worst_d, 2.0);
}

TEST(PhiloxNormals, LogAccurateAndTailsReachFar) {
  double worst = 0;
  auto check = [&](std::uint32_t w) {
    // u = float_rz(w | 1) 2^-32: odd, truncated (never 0 or 1).
    const float x = philox::radius_word_float(w);
    const long double exact = static_cast<long double>(w | 1u);
    ASSERT_LE(static_cast<long double>(x), exact);
    ASSERT_GT(static_cast<long double>(x), exact * (1 - 0x1p-23L));
    const long double want = -2.0L * std::log(static_cast<long double>(x) * 0x1p-32L);
    const float got = philox::minus_two_log_of_word(w);
    ASSERT_GT(got, 0.0f);
    worst = std::max(worst, static_cast<double>(std::fabs(got - want) / (want * 0x1p-24L)));
  };
  for (std::uint64_t w = 0; w < (1ull << 32); w += 4099) check(static_cast<std::uint32_t>(w));
  for (std::uint32_t w = 0; w < 70000; ++w) check(w), check(~w);  // both ends densely
  EXPECT_LT(worst, 2.5);
  // sqrt_in_range is std::sqrt on the host (the GPU's refined root is compared with it
  // by the Python CPU/GPU bit-identity tests).
  EXPECT_EQ(philox::sqrt_in_range(2.0f), std::sqrt(2.0f));
  // The largest radius each precision can make: all-zero radius words, angle 0 (cos = 1).
  const philox::Block zero{{0, 0, 0, 0}};
  float z32[8];
  philox::normal_group({zero, zero}, z32);
  EXPECT_NEAR(z32[0], std::sqrt(64 * std::log(2.0)), 1e-6);  // u = 2^-32: 6.66 sigma
  EXPECT_EQ(z32[1], 0.0f);
  double z64[8];
  philox::normal_group({zero, zero, zero}, z64);
  EXPECT_NEAR(z64[0], std::sqrt(130 * std::log(2.0)), 1e-14);  // u = 2^-65: 9.49 sigma
  EXPECT_EQ(z64[1], 0.0);
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

TEST_P(RandomTest, ArrayParametersBroadcast) {
  DeviceScope scope(device());
  // loc (3, 1) against scale (2,): a (3, 2) result; equal parameters equal the scalar path.
  ndarray loc = full({3, 1}, Scalar(1.5), float64, device());
  ndarray scale = full({2}, Scalar(2.0), float64, device());
  random::Generator a(8), b(8);
  ndarray x = a.normal(loc, scale, std::nullopt);
  EXPECT_EQ(x.shape(), (Shape{3, 2}));
  EXPECT_EQ(x.to_vector<double>(), b.normal(1.5, 2.0, {3, 2}).to_vector<double>());
  EXPECT_EQ(a.gamma(random::Param(loc), random::Param(2.0), Shape{4, 3, 1}).shape(), (Shape{4, 3, 1}));
  EXPECT_THROW(a.normal(loc, scale, Shape{2}), ValueError);        // size does not broadcast
  EXPECT_THROW(a.normal(loc, scale, Shape{2, 3, 1}), ValueError);  // size is not the broadcast shape
  EXPECT_THROW(a.normal(loc, full({2}, Scalar(-1.0), float64, device()), std::nullopt), ValueError);
  const std::vector<std::int64_t> ns = a.binomial(full({5}, Scalar(std::int64_t{0}), int64, device()), 0.5, std::nullopt)
                                           .to_vector<std::int64_t>();
  EXPECT_EQ(ns, (std::vector<std::int64_t>(5, 0)));  // Binomial(0, p) is 0
}

TEST_P(RandomTest, PermutationGathersStridedRows) {
  DeviceScope scope(device());
  // A (4, 3) view with a negative row stride and a column step of 2 over a (4, 6) array.
  std::vector<std::int32_t> values(24);
  for (int i = 0; i < 24; ++i) values[static_cast<std::size_t>(i)] = i;
  ndarray base = array(values.data(), Shape{4, 6}, int32, device());
  ndarray view = base[{Slice(std::nullopt, std::nullopt, -1), Slice(std::nullopt, std::nullopt, 2)}];
  random::Generator a(5), b(5);
  const auto order = a.permutation(4).to_vector<std::int64_t>();
  const auto got = b.permutation(view).to_vector<std::int32_t>();
  ASSERT_EQ(got.size(), 12u);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j)  // view[r][j] = base[3 - r][2 j]
      EXPECT_EQ(got[i * 3 + j], static_cast<std::int32_t>((3 - order[i]) * 6 + 2 * static_cast<std::int64_t>(j)));
}

INSTANTIATE_DEVICE_TEST(RandomTest);
