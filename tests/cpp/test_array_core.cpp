// Construction, views and host round trips of the array model.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class ArrayCore : public DeviceTest {};

TEST_P(ArrayCore, ZerosOnesFull) {
  auto z = zeros({2, 3}, float32, device());
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.strides(), (Strides{12, 4}));
  EXPECT_EQ(z.dtype(), float32);
  EXPECT_EQ(z.to_vector<float>(), std::vector<float>(6, 0.0f));
  auto f = full({4}, 2.5, std::nullopt, device());
  EXPECT_EQ(f.dtype(), float64);
  EXPECT_EQ(f.to_vector<double>(), std::vector<double>(4, 2.5));
  EXPECT_EQ(full({2}, 3, std::nullopt, device()).dtype(), int64);  // NumPy: full((2,), 3) is int64
}

TEST_P(ArrayCore, HostRoundTripAndCast) {
  std::vector<double> values = {1.5, -2.25, 3.0, 1e10, -0.0, 7.75};
  auto a = array(values, Shape{2, 3}, device());
  EXPECT_EQ(a.to_vector<double>(), values);
  // float64 -> int32 truncates toward zero; 1e10 does not fit and gives INT32 "indefinite" like NumPy on x86-64.
  auto i = a.astype(int32);
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, -2, 3, INT32_MIN, 0, 7}));
  EXPECT_THROW(a.astype(int32, Casting::safe), TypeError);
  EXPECT_TRUE(a.is_c_contiguous());
  EXPECT_FALSE(a.base());
}

TEST_P(ArrayCore, NegativeShapeIsValueError) {
  EXPECT_THROW(zeros({2, -1}, float32, device()), ValueError);
}

// NumPy's a.item(i) (flat, C order, negative from the end) and a.item(i, j) (per axis),
// through a transposed view.
TEST_P(ArrayCore, ItemAtAnIndex) {
  std::vector<double> values = {1.5, -2.25, 3.0, 1e10, -0.0, 7.75};
  auto t = array(values, Shape{2, 3}, device()).transpose();  // (3, 2): t[i, j] = values[3 * j + i]
  EXPECT_EQ(t.item(1).to_double(), 1e10);
  EXPECT_EQ(t.item(-1).to_double(), 7.75);
  EXPECT_EQ(t.item(std::vector<std::int64_t>{2, 0}).to_double(), 3.0);
  EXPECT_EQ(t.item(std::vector<std::int64_t>{-1, -1}).to_double(), 7.75);
  EXPECT_THROW(t.item(6), IndexError);
  EXPECT_THROW(t.item(-7), IndexError);
  EXPECT_THROW(t.item(std::vector<std::int64_t>{0, 2}), IndexError);
  EXPECT_THROW(t.item(std::vector<std::int64_t>{0, 0, 0}), ValueError);
  EXPECT_THROW(t.item(), ValueError);
}

// A bool view of bytes other than 0 and 1 reads every nonzero byte as true, as NumPy's
// loops do: casts, sums, counts and masks see 1 (before, the raw byte flowed on and a mask
// of 3s counted 3 per element). tests/python/test_bool_views.py covers the other reads.
TEST_P(ArrayCore, BoolViewOfOtherBytesReadsAsTrue) {
  auto raw = array(std::vector<std::int8_t>{3, 1, 4, -1, 0, 2}, Shape{2, 3}, device());
  auto v = raw.view(bool_);
  EXPECT_EQ(v.astype(int32).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 1, 1, 1, 0, 1}));
  EXPECT_EQ(sum(v).item().to_int64(), 5);
  EXPECT_EQ(count_nonzero(v).item().to_int64(), 5);
  EXPECT_EQ(nonzero(v)[1].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 0, 2}));
  auto values = array(std::vector<double>{1, 2, 3, 4, 5, 6}, Shape{2, 3}, device());
  EXPECT_EQ(values[v].to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 6}));
  EXPECT_EQ(logical_not(v).astype(int8).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(v.view(int8).to_vector<std::int8_t>(), (std::vector<std::int8_t>{3, 1, 4, -1, 0, 2}));  // unchanged
}

// CuPy's allow_synchronize: while the thread disallows it, host copies and synchronize calls
// raise DeviceSynchronized (a RuntimeError); device work does not.
TEST_P(ArrayCore, DisallowedSynchronizationRaises) {
  auto a = array(std::vector<double>{1, 2, 3}, std::nullopt, device());
  ASSERT_TRUE(synchronize_allowed());
  set_synchronize_allowed(false);
  auto b = add(a, a);
  EXPECT_THROW(b.to_vector<double>(), DeviceSynchronized);
  EXPECT_THROW(b[0].item(), RuntimeError);
  EXPECT_THROW(synchronize(device()), DeviceSynchronized);
  set_synchronize_allowed(true);
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{2, 4, 6}));
}

INSTANTIATE_DEVICE_TEST(ArrayCore);

}  // namespace
