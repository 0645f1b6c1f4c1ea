// copper::random's distributions beyond the basic ones, through the C++ API: shapes and
// dtypes, sample means against the exact ones, NumPy's parameter errors, the vector
// distributions, shared generator state, and the legacy RandomState's variants.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "copper/copper.hpp"
#include "copper/random.hpp"
#include "device_param.h"

using namespace copper;
using random::Param;

namespace {

double mean_of(const ndarray& a) {
  const std::vector<double> v = a.astype(float64).to_vector<double>();
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

class RandomDistributionsTest : public DeviceTest {};

}  // namespace

TEST_P(RandomDistributionsTest, ShapesDtypesAndMeans) {
  DeviceScope scope(device());
  random::Generator g(17);
  const Shape n{20000};
  // mean, standard deviation of the sample mean (loose: 5 sigma)
  struct Case {
    ndarray x;
    double mean, sd;
  };
  const std::vector<Case> cases = {
      {g.chisquare(3.0, n), 3.0, std::sqrt(6.0)},
      {g.f(4.0, 10.0, n), 10.0 / 8.0, 1.2},
      {g.standard_t(6.0, n), 0.0, std::sqrt(1.5)},
      {g.noncentral_chisquare(2.0, 3.0, n), 5.0, std::sqrt(16.0)},
      {g.gumbel(1.0, 2.0, n), 1.0 + 2.0 * 0.5772156649015329, 2.0 * M_PI / std::sqrt(6.0)},
      {g.laplace(-1.0, 1.0, n), -1.0, std::sqrt(2.0)},
      {g.logistic(0.5, 1.0, n), 0.5, M_PI / std::sqrt(3.0)},
      {g.lognormal(0.0, 0.5, n), std::exp(0.125), 0.6},
      {g.pareto(4.0, n), 1.0 / 3.0, 0.5},
      {g.power(2.0, n), 2.0 / 3.0, 0.25},
      {g.weibull(2.0, n), std::sqrt(M_PI) / 2.0, 0.47},
      {g.rayleigh(1.0, n), std::sqrt(M_PI / 2.0), 0.66},
      {g.triangular(0.0, 1.0, 2.0, n), 1.0, std::sqrt(1.0 / 6.0)},
      {g.wald(2.0, 4.0, n), 2.0, std::sqrt(2.0)},
      {g.vonmises(0.5, 3.0, n), 0.5, 0.7},
      {g.negative_binomial(4.0, 0.5, n), 4.0, std::sqrt(8.0)},
      {g.geometric(0.25, n), 4.0, std::sqrt(12.0)},
      {g.hypergeometric(30.0, 70.0, 20.0, n), 6.0, 1.85},
      {g.logseries(0.5, n), 0.5 / (0.5 * std::log(2.0)), 1.0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.x.shape(), n);
    EXPECT_NEAR(mean_of(c.x), c.mean, 5 * c.sd / std::sqrt(20000.0));
  }
  EXPECT_EQ(g.chisquare(3.0).shape(), Shape{});
  EXPECT_EQ(g.chisquare(3.0, Shape{2, 3}, float32).dtype(), float32);
  EXPECT_EQ(g.geometric(0.5, Shape{4}, int8).dtype(), int8);
  EXPECT_EQ(g.zipf(2.0, Shape{5}).dtype(), int64);
  EXPECT_EQ(g.standard_cauchy(Shape{3}).shape(), Shape{3});
  ndarray df = full({3, 1}, Scalar(2.0), float64, device());
  EXPECT_EQ(g.f(df, full({4}, Scalar(3.0), float64, device()), std::nullopt).shape(), (Shape{3, 4}));
}

TEST_P(RandomDistributionsTest, ParameterErrors) {
  DeviceScope scope(device());
  random::Generator g(1);
  EXPECT_THROW(g.chisquare(0.0), ValueError);
  EXPECT_THROW(g.noncentral_f(1.0, 1.0, -1.0), ValueError);
  EXPECT_THROW(g.triangular(1.0, 0.0, 2.0), ValueError);
  EXPECT_THROW(g.triangular(0.0, 0.0, 0.0), ValueError);
  EXPECT_THROW(g.geometric(0.0), ValueError);
  EXPECT_THROW(g.zipf(1.0), ValueError);
  EXPECT_THROW(g.logseries(1.0), ValueError);
  EXPECT_THROW(g.hypergeometric(5.0, 5.0, 11.0), ValueError);
  EXPECT_THROW(g.negative_binomial(1.0, 0.0), ValueError);
  EXPECT_THROW(g.weibull(-1.0), ValueError);
  random::RandomState rs(3);
  EXPECT_THROW(rs.hypergeometric(5.0, 5.0, 0.0), ValueError);          // legacy: nsample >= 1
  EXPECT_NO_THROW(rs.negative_binomial(1.0, 0.0, Shape{2}));          // legacy: p = 0 allowed
  EXPECT_THROW(rs.dirichlet(full({2}, Scalar(0.0), float64, device())), ValueError);  // legacy: alpha > 0
}

TEST_P(RandomDistributionsTest, VectorDistributions) {
  DeviceScope scope(device());
  random::Generator g(2);
  const ndarray alpha = full({3}, Scalar(2.0), float64, device());
  const ndarray d = g.dirichlet(alpha, Shape{100});
  EXPECT_EQ(d.shape(), (Shape{100, 3}));
  const std::vector<double> dv = d.to_vector<double>();
  for (std::size_t r = 0; r < 100; ++r) EXPECT_NEAR(dv[3 * r] + dv[3 * r + 1] + dv[3 * r + 2], 1.0, 1e-12);
  const std::vector<double> p = {0.25, 0.25, 0.5};
  const ndarray pv = array(p.data(), Shape{3}, float64, device());
  const ndarray m = g.multinomial(40.0, pv, Shape{50});
  EXPECT_EQ(m.shape(), (Shape{50, 3}));
  const std::vector<std::int64_t> mv = m.to_vector<std::int64_t>();
  for (std::size_t r = 0; r < 50; ++r) EXPECT_EQ(mv[3 * r] + mv[3 * r + 1] + mv[3 * r + 2], 40);
  const std::vector<double> cov = {1.0, 0.5, 0.5, 2.0};
  const ndarray c = array(cov.data(), Shape{2, 2}, float64, device());
  const ndarray mean = zeros({2}, float64, device());
  for (random::CovFactor f : {random::CovFactor::svd, random::CovFactor::eigh, random::CovFactor::cholesky}) {
    const ndarray x = g.multivariate_normal(mean, c, Shape{4, 5}, random::CovCheck::raise, 1e-8, f);
    EXPECT_EQ(x.shape(), (Shape{4, 5, 2}));
  }
  const std::vector<double> bad = {1.0, 2.0, 2.0, 1.0};
  EXPECT_THROW(g.multivariate_normal(mean, array(bad.data(), Shape{2, 2}, float64, device()), std::nullopt,
                                     random::CovCheck::raise),
               ValueError);
  EXPECT_EQ(g.bytes(11).size(), 11u);
}

TEST_P(RandomDistributionsTest, CopiesShareTheStream) {
  DeviceScope scope(device());
  random::Generator a(5);
  random::Generator b = a;  // one bit generator, two handles
  const double first = a.random({}).to_vector<double>()[0];
  random::Generator fresh(5);
  fresh.random({});
  EXPECT_EQ(b.random({}).to_vector<double>(), fresh.random({}).to_vector<double>());
  EXPECT_NE(first, 0.0);
  const std::uint64_t key = a.key(), counter = a.counter();
  const auto x = a.gumbel(0.0, 1.0, Shape{4}).to_vector<double>();
  a.set_state(key, counter);
  EXPECT_EQ(a.gumbel(0.0, 1.0, Shape{4}).to_vector<double>(), x);
}

INSTANTIATE_DEVICE_TEST(RandomDistributionsTest);
