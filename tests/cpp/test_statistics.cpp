// NaN statistics, ptp, average, cov/corrcoef and the counting functions (bincount,
// histogram, histogramdd) through the C++ API, with expected values worked out by hand
// or printed by NumPy.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Statistics : public DeviceTest {};
class Histograms : public DeviceTest {};

const double nan = std::numeric_limits<double>::quiet_NaN();

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_NEAR(got[i], want[i], tol) << i;
  }
}

TEST_P(Statistics, NanVarStd) {
  // [[1, nan, 3], [nan, nan, nan]]
  auto a = array(std::vector<double>{1, nan, 3, nan, nan, nan}, Shape{2, 3}, device());
  expect_near(nanvar(a, 1).to_vector<double>(), {1.0, nan});
  expect_near(nanstd(a, 1, {.ddof = 1}).to_vector<double>(), {std::sqrt(2.0), nan});
  expect_near(nanvar(a, 0).to_vector<double>(), {0.0, nan, 0.0});
  EXPECT_NEAR(nanvar(a).item().to_double(), 1.0, 1e-15);
  EXPECT_EQ(nanvar(a, 1, {.keepdims = true}).shape(), (Shape{2, 1}));
  auto f = array(std::vector<float>{1, 2, 4}, std::nullopt, device());
  EXPECT_EQ(nanvar(f).dtype(), float32);
  EXPECT_THROW(nanvar(f, {}, {.dtype = int64}), TypeError);
}

TEST_P(Statistics, NanArgExtremaAndScans) {
  auto a = array(std::vector<double>{nan, 4, -2, nan, nan, 7}, Shape{2, 3}, device());
  EXPECT_EQ(nanargmin(a).item().to_int64(), 2);
  EXPECT_EQ(nanargmax(a).item().to_int64(), 5);
  EXPECT_EQ(nanargmax(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2}));
  auto all_nan = array(std::vector<double>{nan, nan, 1, 2}, Shape{2, 2}, device());
  EXPECT_THROW(nanargmin(all_nan, 1), ValueError);
  EXPECT_EQ(nanargmin(all_nan, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1}));
  expect_near(nancumsum(a).to_vector<double>(), {0, 4, 2, 2, 2, 9});
  expect_near(nancumprod(a, 1).to_vector<double>(), {1, 4, -8, 1, 1, 7});
}

TEST_P(Statistics, Ptp) {
  auto a = array(std::vector<std::int8_t>{-100, 100, 5, 7}, Shape{2, 2}, device());
  EXPECT_EQ(ptp(a).item().to_int64(), -56);  // 200 wraps in int8, as NumPy's subtract
  EXPECT_EQ(ptp(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{-56, 2}));
  EXPECT_EQ(ptp(a, 0, std::nullopt, true).shape(), (Shape{1, 2}));
  EXPECT_THROW(ptp(array(std::vector<bool>{true, false}, std::nullopt, device())), TypeError);
}

TEST_P(Statistics, Average) {
  auto a = array(std::vector<double>{1, 2, 3, 4, 5, 6}, Shape{2, 3}, device());
  EXPECT_DOUBLE_EQ(average(a).item().to_double(), 3.5);
  auto w = array(std::vector<double>{1, 0, 3}, std::nullopt, device());
  expect_near(average(a, 1, w).to_vector<double>(), {2.5, 5.5});
  auto [avg, sw] = average_returned(a, 1, w);
  expect_near(sw.to_vector<double>(), {4, 4});
  EXPECT_EQ(sw.shape(), avg.shape());
  EXPECT_THROW(average(a, {}, w), TypeError);
  EXPECT_THROW(average(a, 1, array(std::vector<double>{1, -1, 0}, std::nullopt, device())), ZeroDivisionError);
  auto i = array(std::vector<std::int32_t>{1, 2}, std::nullopt, device());
  EXPECT_EQ(average(i).dtype(), float64);
}

TEST_P(Statistics, MedianQuantile) {
  // [[3, 1, 4, 1], [5, nan, 2, 6]]
  auto a = array(std::vector<double>{3, 1, 4, 1, 5, nan, 2, 6}, Shape{2, 4}, device());
  expect_near(median(a, 1).to_vector<double>(), {2, nan});
  expect_near(nanmedian(a, 1).to_vector<double>(), {2, 5});
  auto row = a[Index{0}];
  expect_near(quantile(row, Scalar(0.5)).to_vector<double>(), {2});
  expect_near(percentile(row, Scalar(25.0)).to_vector<double>(), {1});
  QuantileOptions lower;
  lower.method = QuantileMethod::lower;
  expect_near(quantile(row, Scalar(0.7), {}, lower).to_vector<double>(), {3});
  expect_near(nanquantile(a, Scalar(1.0), 1).to_vector<double>(), {4, 6});
  auto q = array(std::vector<double>{0, 100}, std::nullopt, device());
  EXPECT_EQ(nanpercentile(a, q, 1).shape(), (Shape{2, 2}));
  EXPECT_THROW(quantile(row, Scalar(1.5)), ValueError);
  EXPECT_THROW(quantile_method_from_name("foo"), ValueError);
}

TEST_P(Statistics, CovCorrcoef) {
  // x = [0, 1, 2], y = [2, 1, 0]: cov [[1, -1], [-1, 1]], corrcoef the same.
  auto m = array(std::vector<double>{0, 1, 2, 2, 1, 0}, Shape{2, 3}, device());
  expect_near(cov(m).to_vector<double>(), {1, -1, -1, 1});
  expect_near(cov(m, std::nullopt, {.bias = true}).to_vector<double>(), {2.0 / 3, -2.0 / 3, -2.0 / 3, 2.0 / 3});
  expect_near(corrcoef(m).to_vector<double>(), {1, -1, -1, 1});
  auto fw = array(std::vector<std::int64_t>{1, 2, 1}, std::nullopt, device());
  // weighted mean 1; sum w (x - 1)^2 = 2; fact = 4 - 1
  EXPECT_NEAR(cov(m[0], std::nullopt, {.fweights = fw}).item().to_double(), 2.0 / 3, 1e-15);
  EXPECT_EQ(cov(m.astype(float32)).dtype(), float64);
  EXPECT_EQ(cov(m, std::nullopt, {.dtype = float32}).dtype(), float32);
  EXPECT_THROW(cov(zeros({2, 2, 2}, float64, device())), ValueError);
}

TEST_P(Histograms, Bincount) {
  auto x = array(std::vector<std::int64_t>{0, 1, 1, 3, 1}, std::nullopt, device());
  EXPECT_EQ(bincount(x).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 0, 1}));
  EXPECT_EQ(bincount(x, std::nullopt, 6).size(), 6);
  auto w = array(std::vector<double>{0.5, 1, 2, 4, 8}, std::nullopt, device());
  EXPECT_EQ(bincount(x, w).to_vector<double>(), (std::vector<double>{0.5, 11, 0, 4}));
  EXPECT_THROW(bincount(array(std::vector<std::int64_t>{-1}, std::nullopt, device())), ValueError);
  EXPECT_THROW(bincount(array(std::vector<double>{1.0}, std::nullopt, device())), TypeError);
}

TEST_P(Histograms, HistogramBinsAndEdges) {
  auto a = array(std::vector<double>{0, 0.5, 1, 1, 2, 3, 3, 3}, std::nullopt, device());
  auto r = histogram(a, 3);
  EXPECT_EQ(r.hist.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2, 4}));
  EXPECT_EQ(r.bin_edges.to_vector<double>(), (std::vector<double>{0, 1, 2, 3}));
  auto edges = array(std::vector<double>{0, 1, 1, 3}, std::nullopt, device());
  EXPECT_EQ(histogram(a, edges).hist.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 6}));
  auto ranged = histogram(a, 2, std::pair{Scalar(1), Scalar(2)});
  EXPECT_EQ(ranged.hist.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1}));
  auto dens = histogram(a, 4, std::nullopt, true);
  expect_near(dens.hist.to_vector<double>(), {2 / 6.0, 2 / 6.0, 1 / 6.0, 3 / 6.0});
  EXPECT_EQ(histogram_bin_edges(a, "sqrt").size(), 4);  // ceil(3 / (3 / sqrt(8))) = 3 bins
  EXPECT_THROW(histogram(a, 0), ValueError);
  EXPECT_THROW(histogram(a, "nope"), ValueError);
}

TEST_P(Histograms, HistogramDD) {
  // points (0,0), (1,1), (1,0), (0.5, 0.25) on 2x2 bins over [0,1]^2
  auto s = array(std::vector<double>{0, 0, 1, 1, 1, 0, 0.5, 0.25}, Shape{4, 2}, device());
  auto r = histogramdd(s, {Bins(2)});
  EXPECT_EQ(r.hist.dtype(), float64);
  EXPECT_EQ(r.hist.to_vector<double>(), (std::vector<double>{1, 0, 2, 1}));
  ASSERT_EQ(r.edges.size(), 2u);
  auto h2 = histogram2d(s[Index{Slice(), 0}], s[Index{Slice(), 1}], {Bins(2), Bins(1)});
  EXPECT_EQ(h2.hist.to_vector<double>(), (std::vector<double>{1, 3}));
}

INSTANTIATE_DEVICE_TEST(Statistics);
INSTANTIATE_DEVICE_TEST(Histograms);

}  // namespace
