// arange, linspace, logspace, eye from C++ with NumPy's dtypes and literal values.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class CreationRanges : public DeviceTest {};

TEST_P(CreationRanges, Arange) {
  auto a = arange(Scalar(5), std::nullopt, device());
  EXPECT_EQ(a.dtype(), int64);
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(arange(Scalar(9), Scalar(2), Scalar(-3), std::nullopt, device()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{9, 6, 3}));
  auto f = arange(Scalar(1.0), Scalar(2.0), Scalar(0.25), std::nullopt, device());
  EXPECT_EQ(f.dtype(), float64);
  EXPECT_EQ(f.to_vector<double>(), (std::vector<double>{1.0, 1.25, 1.5, 1.75}));
  // Integer dtype from float bounds: first=int(-3.5)=-3, second=int(-2.0)=-2, 6 elements (NumPy).
  EXPECT_EQ(arange(Scalar(-3.5), Scalar(5), Scalar(1.5), int8, device()).to_vector<std::int8_t>(),
            (std::vector<std::int8_t>{-3, -2, -1, 0, 1, 2}));
  EXPECT_EQ(arange(Scalar(3), Scalar(1), Scalar(1), std::nullopt, device()).size(), 0);
  EXPECT_THROW(arange(Scalar(5), bool_, device()), TypeError);
}

TEST_P(CreationRanges, Linspace) {
  auto y = linspace(Scalar(0), Scalar(1), 5, true, std::nullopt, device());
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(linspace(Scalar(0), Scalar(1), 4, false, std::nullopt, device()).to_vector<double>(),
            (std::vector<double>{0, 0.25, 0.5, 0.75}));
  // NumPy 2 floors before casting to integers: [-1.5, -0.75, 0, 0.75, 1.5] -> [-2, -1, 0, 0, 1].
  EXPECT_EQ(linspace(Scalar(-1.5), Scalar(1.5), 5, true, int32, device()).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{-2, -1, 0, 0, 1}));
  EXPECT_EQ(linspace(Scalar(2), Scalar(3), 1, true, std::nullopt, device()).to_vector<double>(),
            (std::vector<double>{2}));
  EXPECT_EQ(linspace(Scalar(0), Scalar(1), 0, true, std::nullopt, device()).size(), 0);
  EXPECT_THROW(linspace(Scalar(0), Scalar(1), -1, true, std::nullopt, device()), ValueError);
}

TEST_P(CreationRanges, LogspaceEyeIdentity) {
  EXPECT_EQ(logspace(Scalar(0), Scalar(3), 4, true, 10.0, std::nullopt, device()).to_vector<double>(),
            (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_EQ(logspace(Scalar(0), Scalar(3), 4, true, 2.0, std::nullopt, device()).to_vector<double>(),
            (std::vector<double>{1, 2, 4, 8}));
  auto e = eye(2, 3, 1, int16, device());
  EXPECT_EQ(e.shape(), (Shape{2, 3}));
  EXPECT_EQ(e.to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(eye(3, 2, -1, float32, device()).to_vector<float>(), (std::vector<float>{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(identity(2, float64, device()).to_vector<double>(), (std::vector<double>{1, 0, 0, 1}));
  EXPECT_EQ(eye(2, 2, 5, float64, device()).to_vector<double>(), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_THROW(eye(-1, std::nullopt, 0, float64, device()), ValueError);
}

INSTANTIATE_DEVICE_TEST(CreationRanges);

}  // namespace
