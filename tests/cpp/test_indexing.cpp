// Basic indexing from C++: views, NumPy's slice normalization, assignment and errors.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Indexing : public DeviceTest {
 protected:
  ndarray grid() const {  // [[0..3], [4..7], [8..11]]
    return array(std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, Shape{3, 4}, device());
  }
};

TEST_P(Indexing, IntegersSlicesNewaxisEllipsis) {
  auto a = grid();
  auto row = a[-1];
  EXPECT_EQ(row.shape(), (Shape{4}));
  EXPECT_EQ(row.to_vector<std::int32_t>(), (std::vector<std::int32_t>{8, 9, 10, 11}));
  EXPECT_EQ(row.buffer(), a.buffer());
  auto v = a[{Slice(std::nullopt, std::nullopt, -2), Slice(1, 3)}];
  EXPECT_EQ(v.shape(), (Shape{2, 2}));
  EXPECT_EQ(v.strides(), (Strides{-32, 4}));
  EXPECT_EQ(v.to_vector<std::int32_t>(), (std::vector<std::int32_t>{9, 10, 1, 2}));
  EXPECT_EQ((a[{ellipsis, 2}].to_vector<std::int32_t>()), (std::vector<std::int32_t>{2, 6, 10}));
  EXPECT_EQ((a[{newaxis, 1, newaxis}].shape()), (Shape{1, 1, 4}));
  EXPECT_EQ((a[{Slice(10, -10, -1)}].shape()), (Shape{3, 4}));  // clamped like Python's slices
  EXPECT_EQ((a[{Slice(2, 2)}].shape()), (Shape{0, 4}));
  EXPECT_EQ((a[{1, 2}].item().to_int64()), 6);
}

TEST_P(Indexing, Errors) {
  auto a = grid();
  try {
    a[5];
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index 5 is out of bounds for axis 0 with size 3");
  }
  try {
    a[{0, 0, 0}];
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "too many indices for array: array is 2-dimensional, but 3 were indexed");
  }
  EXPECT_THROW((a[{ellipsis, ellipsis}]), IndexError);
  EXPECT_THROW((a[{Slice(0, 2, 0)}]), ValueError);
}

TEST_P(Indexing, AssignBroadcastsAndCasts) {
  auto a = grid();
  a.assign({Slice(), 0}, 100);
  a.assign({1}, array(std::vector<double>{-1.9, 2.5, 3.99, 4}, std::nullopt, device()));  // unsafe cast truncates
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{100, 1, 2, 3, -1, 2, 3, 4, 100, 9, 10, 11}));
  // Overlapping source and destination behave as if the source were copied first.
  auto r = a[2];
  r.assign({Slice(1, std::nullopt)}, r[{Slice(std::nullopt, -1)}]);
  EXPECT_EQ(r.to_vector<std::int32_t>(), (std::vector<std::int32_t>{100, 100, 9, 10}));
  auto small = zeros({2}, int8, device());
  EXPECT_THROW(small.assign(300), OverflowError);
  EXPECT_THROW(small.assign(zeros({3}, int8, device())), ValueError);
  EXPECT_EQ(small.to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 0}));
}

INSTANTIATE_DEVICE_TEST(Indexing);

}  // namespace
