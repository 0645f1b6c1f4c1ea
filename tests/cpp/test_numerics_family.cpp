// Editing, padding, bit packing, structured creation, numerical, window, polynomial and
// eig functions from C++; expected values are literals worked out with NumPy.
#include <gtest/gtest.h>

#include <cmath>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;
using I = std::vector<std::int64_t>;
using D = std::vector<double>;

class NumericsFamily : public DeviceTest {
 protected:
  ndarray ints(I v, Shape s) const { return array(v, s, device()); }
  ndarray reals(D v) const { return array(v, std::nullopt, device()); }
};

void expect_near(const ndarray& a, const D& want, double tol = 1e-12) {
  const auto got = a.to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << i;
}

TEST_P(NumericsFamily, InsertDeleteAppendResize) {
  const ndarray a = ints({0, 1, 2, 3, 4, 5}, {2, 3});
  // np.insert(a, 1, [9], axis=1) -> [[0, 9, 1, 2], [3, 9, 4, 5]]
  EXPECT_EQ(insert(a, ints({1}, {}), ints({9}, {1}), 1).to_vector<std::int64_t>(), (I{0, 9, 1, 2, 3, 9, 4, 5}));
  // np.insert(a, [0, 0], [7, 8]) on the flattened array -> [7, 8, 0, 1, ...]
  EXPECT_EQ(insert(a, ints({0, 0}, {2}), ints({7, 8}, {2})).to_vector<std::int64_t>(), (I{7, 8, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(delete_(a, Slice(std::nullopt, std::nullopt, 2), 1).to_vector<std::int64_t>(), (I{1, 4}));
  EXPECT_EQ(delete_(a, ints({-1}, {}), 0).shape(), (Shape{1, 3}));
  EXPECT_EQ(append(a, ints({6}, {1})).to_vector<std::int64_t>(), (I{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(resize(ints({1, 2, 3}, {3}), {2, 4}).to_vector<std::int64_t>(), (I{1, 2, 3, 1, 2, 3, 1, 2}));
  EXPECT_THROW(delete_(a, ints({5}, {}), 1), IndexError);
}

TEST_P(NumericsFamily, RotBlockTrimTri) {
  const ndarray a = ints({0, 1, 2, 3}, {2, 2});
  EXPECT_EQ(ascontiguousarray(rot90(a)).to_vector<std::int64_t>(), (I{1, 3, 0, 2}));
  EXPECT_EQ(rollaxis(zeros({2, 3, 4}, float64, device()), 2).shape(), (Shape{4, 2, 3}));
  const ndarray b = block(Block(std::vector<Block>{Block(a), Block(a)}));
  EXPECT_EQ(b.shape(), (Shape{2, 4}));
  EXPECT_EQ(trim_zeros(ints({0, 0, 3, 0, 1, 0}, {6})).to_vector<std::int64_t>(), (I{3, 0, 1}));
  EXPECT_EQ(tri(2, 3, 0, int64, device()).to_vector<std::int64_t>(), (I{1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(vander(ints({2, 3}, {2}), 3).to_vector<std::int64_t>(), (I{4, 2, 1, 9, 3, 1}));
  expect_near(geomspace(1, 1000, 4, true, std::nullopt, 0, device()), {1, 10, 100, 1000}, 1e-9);
  EXPECT_THROW(rot90(a, 1, {0, 0}), ValueError);
}

TEST_P(NumericsFamily, PadModes) {
  const ndarray a = ints({1, 2, 3}, {3});
  EXPECT_EQ(pad(a, {{2, 1}}).to_vector<std::int64_t>(), (I{0, 0, 1, 2, 3, 0}));
  EXPECT_EQ(pad(a, {{2, 2}}, "reflect").to_vector<std::int64_t>(), (I{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(pad(a, {{2, 2}}, "symmetric").to_vector<std::int64_t>(), (I{2, 1, 1, 2, 3, 3, 2}));
  EXPECT_EQ(pad(a, {{4, 1}}, "wrap").to_vector<std::int64_t>(), (I{3, 1, 2, 3, 1, 2, 3, 1}));
  EXPECT_EQ(pad(a, {{1, 1}}, "edge").to_vector<std::int64_t>(), (I{1, 1, 2, 3, 3}));
  PadOptions odd;
  odd.reflect_type = "odd";
  // np.pad([1, 2, 3], 4, 'reflect', reflect_type='odd')
  EXPECT_EQ(pad(a, {{4, 4}}, "reflect", odd).to_vector<std::int64_t>(), (I{-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_THROW(pad(a, {{1, 1}}, "nope"), ValueError);
}

TEST_P(NumericsFamily, PackBits) {
  const ndarray bits = array(std::vector<bool>{true, false, true, true, false, false, false, false, true}, std::nullopt,
                             device());
  EXPECT_EQ(packbits(bits).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{176, 128}));
  EXPECT_EQ(packbits(bits, std::nullopt, "little").to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{13, 1}));
  const ndarray bytes = array(std::vector<std::uint8_t>{5}, std::nullopt, device());
  EXPECT_EQ(unpackbits(bytes).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1, 0, 1}));
  EXPECT_THROW(packbits(reals({1.0})), TypeError);
}

TEST_P(NumericsFamily, NumericalRoutines) {
  expect_near(convolve(reals({1, 2, 3}), reals({0, 1, 0.5})), {0, 1, 2.5, 4, 1.5});
  expect_near(correlate(reals({1, 2, 3}), reals({0, 1, 0.5}), "same"), {2, 3.5, 3});
  expect_near(interp(reals({2.5, 0, 9}), reals({1, 2, 3}), reals({3, 2, 0})), {1, 3, 0});
  expect_near(trapezoid(reals({1, 2, 3})), {4});
  expect_near(gradient(reals({1, 2, 4, 7, 11}))[0], {1, 1.5, 2.5, 3.5, 4});
  expect_near(ediff1d(reals({1, 2, 4, 7})), {1, 2, 3});
  expect_near(unwrap(reals({0, 3.5})), {0, 3.5 - 2 * M_PI});
  expect_near(hanning(5, device()), {0, 0.5, 1, 0.5, 0});
  expect_near(bartlett(5, device()), {0, 0.5, 1, 0.5, 0});
  expect_near(matvec(reshape(reals({1, 2, 3, 4}), {2, 2}), reals({1, 1})), {3, 7});
}

TEST_P(NumericsFamily, PolynomialsAndEig) {
  expect_near(polymul(reals({1, 1}), reals({1, -1})), {1, 0, -1});
  expect_near(polyval(reals({1, 0, -1}), reals({2, 3})), {3, 8});
  expect_near(polyder(reals({1, 2, 3})), {2, 2});
  expect_near(polyint(reals({3, 2})), {1.5, 2, 0});
  auto [q, r] = polydiv(reals({1, 2, 3}), reals({1, 1}));
  expect_near(q, {1, 1});
  expect_near(r, {2});
  expect_near(sort(roots(reals({1, -3, 2}))), {1, 2}, 1e-10);
  expect_near(poly(reals({1, 2})), {1, -3, 2});
  expect_near(polyfit(reals({0, 1, 2}), reals({1, 3, 5}), 1).coefficients, {2, 1}, 1e-10);
  const auto e = linalg::eig(reshape(reals({2, 0, 0, 3}), {2, 2}));
  expect_near(e.eigenvalues, {2, 3}, 1e-12);
  expect_near(linalg::multi_dot({reals({1, 2}), reshape(reals({1, 0, 0, 1}), {2, 2}), reals({3, 4})}), {11});
}

INSTANTIATE_DEVICE_TEST(NumericsFamily);

}  // namespace
