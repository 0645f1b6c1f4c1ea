// copper::fft from C++: transforms with answers worked out by hand, NumPy's errors, and
// the plan cache (a repeated shape is a hit; the count limit evicts the oldest plan).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "copper/copper.hpp"
#include "device_param.h"

using namespace copper;
using cd = std::complex<double>;

class Fft : public DeviceTest {
 protected:
  ndarray real(std::vector<double> v, Shape s) { return array(v, s, device()); }
};

static void expect_complex(const ndarray& a, const std::vector<cd>& expected, double tol = 1e-12) {
  const auto got = astype(a, complex128).to_vector<cd>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), expected[i].real(), tol) << i;
    EXPECT_NEAR(got[i].imag(), expected[i].imag(), tol) << i;
  }
}

static void expect_real(const ndarray& a, const std::vector<double>& expected, double tol = 1e-12) {
  const auto got = astype(a, float64).to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol) << i;
}

TEST_P(Fft, OneDimensional) {
  const ndarray x = real({1, 2, 3, 4}, {4});
  // sum_k x[k] e^{-2 pi i jk/4}: 10, -2+2i, -2, -2-2i.
  const ndarray f = fft::fft(x);
  EXPECT_EQ(f.dtype(), complex128);
  expect_complex(f, {10, {-2, 2}, -2, {-2, -2}});
  expect_complex(fft::rfft(x), {10, {-2, 2}, -2});
  expect_real(fft::ifft(f).real(), {1, 2, 3, 4});
  expect_real(fft::irfft(fft::rfft(x)), {1, 2, 3, 4});
  expect_complex(fft::fft(x, std::nullopt, -1, "ortho"), {5, {-1, 1}, -1, {-1, -1}});
  expect_complex(fft::fft(x, std::nullopt, -1, "forward"), {2.5, {-0.5, 0.5}, -0.5, {-0.5, -0.5}});
  // n pads with zeros / crops.
  expect_complex(fft::fft(x, 2), {3, -1});
  expect_complex(fft::fft(real({1}, {1}), 3), {1, 1, 1});
  // float32 stays single precision, integers compute in double.
  EXPECT_EQ(fft::fft(astype(x, float32)).dtype(), complex64);
  EXPECT_EQ(fft::rfft(astype(x, int32)).dtype(), complex128);
  EXPECT_EQ(fft::irfft(astype(x, float16)).dtype(), float16);
  // hfft of a Hermitian half-spectrum is real: hfft([1, 2, 1]) = [4, 0, 0, 0] + ... by hand:
  // the full signal is [1, 2, 1, 2] -> sum 6, alternating 1-2+1-2 = -2, others 0.
  expect_real(fft::hfft(real({1, 2, 1}, {3})), {6, 0, -2, 0});
  expect_complex(fft::ihfft(real({6, 0, -2, 0}, {4})), {1, 2, 1});
}

TEST_P(Fft, ManyAxes) {
  const ndarray ones = full({2, 3, 4}, 1.0, float64, device());
  std::vector<cd> expected(24, 0.0);
  expected[0] = 24;
  expect_complex(fft::fftn(ones), expected);
  // fft2 over the last two axes: 12 at [i, 0, 0] for each i.
  std::vector<cd> e2(24, 0.0);
  e2[0] = e2[12] = 12;
  expect_complex(fft::fft2(ones), e2);
  const ndarray r = fft::rfftn(ones);
  EXPECT_EQ(r.shape(), (Shape{2, 3, 3}));
  const ndarray back = fft::irfftn(r, fft::Sizes{2, 3, 4}, std::vector<int>{0, 1, 2});
  EXPECT_EQ(back.shape(), (Shape{2, 3, 4}));
  expect_real(back, std::vector<double>(24, 1.0));
  // Repeated axes transform twice, as NumPy does: fft(fft(x)) along axis 0 = n * x[-j].
  const ndarray v = real({1, 2, 3}, {3});
  expect_complex(fft::fftn(v, std::nullopt, std::vector<int>{0, 0}), {3, 9, 6});
}

TEST_P(Fft, NumpyErrors) {
  const ndarray x = real({1, 2, 3, 4}, {4});
  EXPECT_THROW(fft::fft(x, 0), ValueError);
  EXPECT_THROW(fft::fft(x, std::nullopt, -1, "sideways"), ValueError);
  EXPECT_THROW(fft::fft(x, std::nullopt, 1), IndexError);  // n from x.shape[1]
  EXPECT_THROW(fft::fft(x, 4, 1), AxisError);
  EXPECT_THROW(fft::fftn(x, fft::Sizes{4, 4}, std::vector<int>{0}), ValueError);
  EXPECT_THROW(fft::rfft(astype(x, complex128)), TypeError);
  EXPECT_THROW(fft::rfftn(x, std::nullopt, std::vector<int>{}), IndexError);
  EXPECT_THROW(fft::fft(x, std::nullopt, -1, "backward", zeros({4}, float64, device())), TypeError);
  EXPECT_THROW(fft::fft(x, std::nullopt, -1, "backward", zeros({5}, complex128, device())), ValueError);
}

TEST_P(Fft, OutArgument) {
  const ndarray x = real({1, 2, 3, 4}, {4});
  ndarray out = zeros({4}, complex64, device());
  const ndarray r = fft::fft(x, std::nullopt, -1, "backward", out);
  EXPECT_EQ(r.data(), out.data());
  expect_complex(out, {10, {-2, 2}, -2, {-2, -2}}, 1e-5);
}

TEST_P(Fft, FrequenciesAndShifts) {
  expect_real(fft::fftfreq(5, 0.5, device()), {0, 0.4, 0.8, -0.8, -0.4});
  expect_real(fft::rfftfreq(5, 0.5, device()), {0, 0.4, 0.8});
  EXPECT_EQ(fft::fftfreq(4, 1.0, device(), float32).dtype(), float32);
  expect_real(fft::fftshift(real({0, 1, 2, -2, -1}, {5})), {-2, -1, 0, 1, 2});
  expect_real(fft::ifftshift(real({-2, -1, 0, 1, 2}, {5})), {0, 1, 2, -2, -1});
}

TEST_P(Fft, PlanCacheHitsAndEviction) {
  fft::PlanCache cache = fft::get_plan_cache(device());
  const std::int64_t old_size = cache.get_size();
  cache.clear();
  cache.set_size(2);
  const std::int64_t hits = cache.hits(), misses = cache.misses();
  const ndarray a = real({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {10});
  fft::fft(a);
  EXPECT_EQ(cache.get_curr_size(), 1);
  EXPECT_EQ(cache.misses(), misses + 1);
  const auto plan = cache.entries().at(0).plan;
  fft::fft(a);  // the same shape finds the same plan
  EXPECT_EQ(cache.hits(), hits + 1);
  EXPECT_EQ(cache.entries().at(0).plan, plan);
  fft::fft(a, 20);
  fft::fft(a, 30);
  EXPECT_EQ(cache.get_curr_size(), 2);  // the first plan was the least recently used
  for (const auto& e : cache.entries()) EXPECT_NE(e.plan, plan);
  EXPECT_TRUE(cache.erase(cache.entries().at(0).key));
  EXPECT_EQ(cache.get_curr_size(), 1);
  cache.set_size(0);  // caching off: plans are made and dropped
  fft::fft(a, 40);
  EXPECT_EQ(cache.get_curr_size(), 0);
  cache.set_size(old_size);
}

INSTANTIATE_DEVICE_TEST(Fft);
