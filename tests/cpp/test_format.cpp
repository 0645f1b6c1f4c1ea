// Text forms of arrays: expected strings were produced by NumPy 2.4 for the same data.
#include <gtest/gtest.h>

#include <complex>
#include <sstream>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Format : public DeviceTest {
 protected:
  void SetUp() override { saved_ = get_printoptions(); }
  void TearDown() override { set_printoptions(saved_); }
  PrintOptions saved_;
};

TEST_P(Format, FloatMatrixGoesScientific) {
  auto a = array(std::vector<double>{1.5, -2.25, 3.0, 1e10, -0.0, 7.75}, Shape{2, 3}, device());
  EXPECT_EQ(array_repr(a),
            "array([[ 1.50e+00, -2.25e+00,  3.00e+00],\n"
            "       [ 1.00e+10, -0.00e+00,  7.75e+00]])");
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), "[[ 1.50e+00 -2.25e+00  3.00e+00]\n [ 1.00e+10 -0.00e+00  7.75e+00]]");
}

TEST_P(Format, IntegersAndBools) {
  EXPECT_EQ(array_repr(array({1, 2, 3}, device())), "array([1, 2, 3], dtype=int32)");
  std::vector<std::int16_t> v(24);
  for (int i = 0; i < 24; ++i) v[i] = static_cast<std::int16_t>(i);
  EXPECT_EQ(array_str(array(v, Shape{2, 3, 4}, device())),
            "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  EXPECT_EQ(array_repr(array(std::vector<bool>{true, false}, std::nullopt, device())), "array([ True, False])");
}

TEST_P(Format, SummarizedFloat32) {
  std::vector<float> v(2000);
  for (int i = 0; i < 2000; ++i) v[i] = static_cast<float>(i);
  EXPECT_EQ(array_repr(array(v, std::nullopt, device())),
            "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
            "       1.999e+03], shape=(2000,), dtype=float32)");
}

TEST_P(Format, Float16ComplexAndSpecials) {
  const std::uint16_t halves[] = {0x2e66, 0x63d1};  // float16 0.1 and 1000.5
  EXPECT_EQ(array_repr(array(halves, Shape{2}, float16, device())), "array([9.9976e-02, 1.0005e+03], dtype=float16)");
  auto z = array(std::vector<std::complex<float>>{{1, 2}, {-3.5f, -0.25f}}, std::nullopt, device());
  EXPECT_EQ(array_repr(z), "array([ 1. +2.j  , -3.5-0.25j], dtype=complex64)");
  auto s = array(std::vector<double>{NAN, 1.5, -INFINITY}, std::nullopt, device());
  EXPECT_EQ(array_repr(s), "array([ nan,  1.5, -inf])");
}

TEST_P(Format, EmptyAndZeroDim) {
  EXPECT_EQ(array_repr(zeros({0, 3}, float64, device())), "array([], shape=(0, 3), dtype=float64)");
  EXPECT_EQ(array_repr(zeros({0}, float32, device())), "array([], dtype=float32)");
  EXPECT_EQ(array_repr(full({}, 5, std::nullopt, device())), "array(5)");
  EXPECT_EQ(array_str(full({}, 2.5f, float32, device())), "2.5");
}

TEST_P(Format, OptionsChangeTheOutput) {
  PrintOptions o = get_printoptions();
  o.precision = 3;
  o.linewidth = 30;
  set_printoptions(o);
  std::vector<double> v(12);
  for (int i = 0; i < 12; ++i) v[i] = i / 7.0;
  EXPECT_EQ(array_repr(array(v, std::nullopt, device())),
            "array([0.   , 0.143, 0.286,\n       0.429, 0.571, 0.714,\n       0.857, 1.   , 1.143,\n"
            "       1.286, 1.429, 1.571])");
  o.sign = 'x';
  EXPECT_THROW(set_printoptions(o), ValueError);
  EXPECT_EQ(get_printoptions().precision, 3);  // unchanged by the failed call
  EXPECT_THROW(floatmode_from_name("exact"), ValueError);
}

// A 10^12-element (4 TB) broadcast view: printing must copy only the corners it shows.
TEST_P(Format, SummaryTransfersOnlyTheCorners) {
  auto one = full({1}, 2.5f, float32, device());
  auto huge = one.view_as(float32, {1000000, 1000000}, {0, 0}, one.offset());
  const std::string row = "[2.5, 2.5, 2.5, ..., 2.5, 2.5, 2.5]";
  EXPECT_EQ(array_repr(huge), "array([" + row + ",\n       " + row + ",\n       " + row + ",\n       ...,\n       " +
                                  row + ",\n       " + row + ",\n       " + row +
                                  "],\n      shape=(1000000, 1000000), dtype=float32)");
}

INSTANTIATE_DEVICE_TEST(Format);

}  // namespace
