// Sorting, searching and sets through the C++ API, with expected values worked out by
// hand (NumPy's order: NaNs last, -0.0 == 0.0, complex lexicographic; stable argsort).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Sorting : public DeviceTest {};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> with_nan_as(const std::vector<double>& v, double mark) {
  std::vector<double> out = v;
  for (double& x : out)
    if (std::isnan(x)) x = mark;
  return out;
}

TEST_P(Sorting, SortFloatsNaNLast) {
  auto a = array(std::vector<double>{3, kNaN, -kInf, 0.0, -1, kInf, -kNaN, 2}, std::nullopt, device());
  auto s = sort(a);
  EXPECT_EQ(with_nan_as(s.to_vector<double>(), 99), (std::vector<double>{-kInf, -1, 0, 2, 3, kInf, 99, 99}));
  // Stable argsort: NaNs in input order, after +inf.
  EXPECT_EQ(argsort(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 4, 3, 7, 0, 5, 1, 6}));
}

TEST_P(Sorting, ArgsortIsStableAndZerosAreEqual) {
  auto a = array(std::vector<float>{0.0f, -0.0f, 1.0f, 0.0f, -0.0f}, std::nullopt, device());
  EXPECT_EQ(argsort(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 4, 2}));
  // A stable sort of values keeps the zeros' signs in input order.
  auto s = sort(a, -1, "stable").to_vector<float>();
  EXPECT_FALSE(std::signbit(s[0]));
  EXPECT_TRUE(std::signbit(s[1]));
  EXPECT_FALSE(std::signbit(s[2]));
  EXPECT_TRUE(std::signbit(s[3]));
}

TEST_P(Sorting, AxesAndInPlace) {
  auto a = array(std::vector<std::int32_t>{5, 1, 4, 2, 9, 0}, Shape{2, 3}, device());
  EXPECT_EQ(sort(a, 0).to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 1, 0, 5, 9, 4}));
  EXPECT_EQ(sort(a, 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 4, 5, 0, 2, 9}));
  EXPECT_EQ(sort(a, std::nullopt).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 4, 5, 9}));
  EXPECT_EQ(argsort(a, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 1, 0, 1, 0}));
  sort_inplace(a, 0);
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 1, 0, 5, 9, 4}));
  EXPECT_THROW(sort(a, 2), AxisError);
  EXPECT_THROW(sort(a, -1, "bogus"), ValueError);
  EXPECT_THROW(sort(a, -1, "stable", true), ValueError);
}

TEST_P(Sorting, ComplexOrder) {
  using C = std::complex<double>;
  // NumPy: [R + Rj, R + nanj, nan + Rj, nan + nanj], each class ordered lexicographically.
  auto a = array(std::vector<C>{{kNaN, 1}, {1, kNaN}, {2, 0}, {1, 5}, {kNaN, kNaN}, {1, -5}, {0, kNaN}}, std::nullopt,
                 device());
  EXPECT_EQ(argsort(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 3, 2, 6, 1, 0, 4}));
}

TEST_P(Sorting, LexsortAndPartition) {
  auto surnames = array(std::vector<std::int32_t>{3, 1, 2, 1}, std::nullopt, device());
  auto first = array(std::vector<std::int32_t>{9, 8, 7, 6}, std::nullopt, device());
  // Sorted by surnames (last key), then first names.
  EXPECT_EQ(lexsort({first, surnames}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 1, 2, 0}));
  EXPECT_THROW(lexsort({}), TypeError);
  auto p = partition(array(std::vector<double>{5, 2, 8, 1, 9}, std::nullopt, device()), {2});
  EXPECT_EQ(p.to_vector<double>()[2], 5.0);
  EXPECT_THROW(partition(p, {7}), ValueError);
}

TEST_P(Sorting, SearchsortedAndDigitize) {
  auto a = array(std::vector<double>{1, 2, 2, 3, kNaN}, std::nullopt, device());
  auto q = array(std::vector<double>{2, kNaN, 0, 3.5}, std::nullopt, device());
  EXPECT_EQ(searchsorted(a, q).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 4, 0, 4}));
  EXPECT_EQ(searchsorted(a, q, "right").to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 5, 0, 4}));
  EXPECT_THROW(searchsorted(a, q, "middle"), ValueError);
  auto bins = array(std::vector<double>{0, 1, 2}, std::nullopt, device());
  auto x = array(std::vector<double>{-1, 0, 0.5, 2, 3}, std::nullopt, device());
  EXPECT_EQ(digitize(x, bins).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 1, 3, 3}));
  EXPECT_EQ(digitize(x, bins, true).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 1, 2, 3}));
}

TEST_P(Sorting, UniqueAndSets) {
  auto a = array(std::vector<std::int64_t>{4, 1, 4, 2, 1, 4}, std::nullopt, device());
  UniqueResult u = unique(a, true, true, true);
  EXPECT_EQ(u.values.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 4}));
  EXPECT_EQ(u.indices->to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 0}));
  EXPECT_EQ(u.inverse->to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 2, 1, 0, 2}));
  EXPECT_EQ(u.counts->to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 3}));
  auto b = array(std::vector<std::int64_t>{2, 3, 4}, std::nullopt, device());
  EXPECT_EQ(isin(a, b).to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, 0, 1, 1, 0, 1}));
  EXPECT_EQ(intersect1d(a, b).values.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(union1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(setdiff1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(setxor1d(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3}));
  auto f = array(std::vector<double>{kNaN, 1, kNaN}, std::nullopt, device());
  EXPECT_EQ(unique(f).values.size(), 2);
  EXPECT_EQ(unique_values(f).size(), 3);  // the array API keeps NaNs apart
}

// 400,000 integers over a range of 1.5e6 (past 2^20, under 4x their count): unique
// counts them in bins (a bool histogram when no counts are asked) instead of sorting.
TEST_P(Sorting, UniqueOfIntegersOverAWideRange) {
  constexpr int kCount = 400000, kValues = 1000;
  std::vector<std::int32_t> data(kCount);
  std::vector<std::int64_t> expected_counts(kValues, 0);
  for (int i = 0; i < kCount; ++i) {
    const int k = static_cast<int>((static_cast<std::int64_t>(i) * 7919 + i / 3) % kValues);
    data[i] = k * 1531 - 700000;
    ++expected_counts[k];
  }
  std::vector<std::int32_t> expected_values;
  for (int k = 0; k < kValues; ++k)
    if (expected_counts[k]) expected_values.push_back(k * 1531 - 700000);
  std::erase(expected_counts, 0);
  auto a = array(data, std::nullopt, device());
  EXPECT_EQ(unique(a).values.to_vector<std::int32_t>(), expected_values);
  UniqueResult u = unique(a, false, true, true);
  EXPECT_EQ(u.values.to_vector<std::int32_t>(), expected_values);
  EXPECT_EQ(u.counts->to_vector<std::int64_t>(), expected_counts);
  const auto inverse = u.inverse->to_vector<std::int64_t>();
  for (int i = 0; i < kCount; i += 997) EXPECT_EQ(expected_values[inverse[i]], data[i]) << i;
}

INSTANTIATE_DEVICE_TEST(Sorting);

}  // namespace
