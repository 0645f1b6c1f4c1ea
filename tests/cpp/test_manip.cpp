// Shape manipulation, joining and splitting from C++; expected values are literals
// (worked out by hand / with NumPy), never copper compared with itself.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Manip : public DeviceTest {
 protected:
  ndarray iota6() const { return array(std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}, Shape{2, 3}, device()); }
};

TEST_P(Manip, ReshapeIsAViewWhenStridesAllow) {
  auto a = iota6();
  auto r = a.reshape({3, -1});
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(r.strides(), (Strides{16, 8}));
  EXPECT_EQ(r.buffer(), a.buffer());
  // A transposed array gains a trailing length-1 axis without a copy (NumPy: strides (8, 24, 24)).
  auto t = a.T();  // shape (3,2) strides (8,24)
  auto v = reshape(t, {3, 2, 1});
  EXPECT_EQ(v.buffer(), a.buffer());
  EXPECT_EQ(v.strides(), (Strides{8, 24, 24}));
  // Flattening the transpose needs a copy: NumPy's [0, 3, 1, 4, 2, 5].
  auto flat = t.reshape({6});
  EXPECT_NE(flat.buffer(), a.buffer());
  EXPECT_EQ(flat.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(reshape(a, {6}, Order::F).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST_P(Manip, ReshapeErrors) {
  auto a = iota6();
  try {
    a.reshape({4});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "cannot reshape array of size 6 into shape (4,)");
  }
  EXPECT_THROW(a.reshape({-1, -1}), ValueError);
  EXPECT_THROW(a.reshape({-1, 4}), ValueError);
}

TEST_P(Manip, RavelFlattenTransposeSqueeze) {
  auto a = iota6();
  EXPECT_EQ(a.ravel().buffer(), a.buffer());
  EXPECT_EQ(a.flatten().base(), nullptr);
  EXPECT_EQ(a.T().ravel().to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
  auto t = transpose(a.reshape({1, 2, 3}), std::vector<int>{2, 0, 1});
  EXPECT_EQ(t.shape(), (Shape{3, 1, 2}));
  EXPECT_EQ(t.strides(), (Strides{8, 48, 24}));
  EXPECT_EQ(t.squeeze().shape(), (Shape{3, 2}));
  EXPECT_EQ(expand_dims(a, {0, 3}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(moveaxis(a.reshape({1, 2, 3}), {0}, {-1}).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(swapaxes(a, 0, 1).strides(), (Strides{8, 24}));
  EXPECT_THROW(transpose(a, std::vector<int>{0, 0}), ValueError);
  EXPECT_THROW(swapaxes(a, 0, 2), AxisError);
  EXPECT_THROW(squeeze(a, std::vector<int>{0}), ValueError);
}

TEST_P(Manip, FlipIsANegativeStrideView) {
  auto a = iota6();
  auto f = flip(a, std::vector<int>{1});
  EXPECT_EQ(f.strides(), (Strides{24, -8}));
  EXPECT_EQ(f.buffer(), a.buffer());
  EXPECT_EQ(f.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(flip(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 4, 3, 2, 1, 0}));
}

TEST_P(Manip, ByteswapReversesEachElementsBytes) {
  const std::vector<std::uint32_t> v{0x01020304u, 0xa0b0c0d0u, 0u, 0xffffff00u, 7u, 0x12345678u};
  const ndarray a = array(v, Shape{2, 3}, device());
  std::vector<std::uint32_t> want;
  for (std::uint32_t x : v) want.push_back(__builtin_bswap32(x));
  EXPECT_EQ(byteswap(a).to_vector<std::uint32_t>(), want);
  EXPECT_EQ(a.to_vector<std::uint32_t>(), v);  // a new array unless in place
  // A transposed view in place: the array itself changes, element by element.
  const ndarray t = a.T();
  EXPECT_EQ(byteswap(t, true).buffer(), a.buffer());
  EXPECT_EQ(a.to_vector<std::uint32_t>(), want);
  // Complex numbers swap their two parts separately; one-byte types are copies.
  const ndarray c = array(std::vector<std::complex<float>>{{1.0f, -2.0f}}, Shape{1}, device());
  const ndarray twice = byteswap(byteswap(c));
  EXPECT_EQ(twice.to_vector<std::complex<float>>(), c.to_vector<std::complex<float>>());
  const ndarray parts = byteswap(c).view(DType::uint32);
  std::uint32_t re, im;
  const float one = 1.0f, minus_two = -2.0f;
  std::memcpy(&re, &one, 4);
  std::memcpy(&im, &minus_two, 4);
  EXPECT_EQ(parts.to_vector<std::uint32_t>(), (std::vector<std::uint32_t>{__builtin_bswap32(re), __builtin_bswap32(im)}));
  const ndarray b = array(std::vector<std::uint8_t>{1, 2, 3}, Shape{3}, device());
  EXPECT_EQ(byteswap(b).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST_P(Manip, ConcatenatePromotesAndJoins) {
  auto a = array(std::vector<std::int8_t>{1, 2}, Shape{1, 2}, device());
  auto b = array(std::vector<float>{0.5f, -1.5f, 3.25f, 4.0f}, Shape{2, 2}, device());
  auto c = concatenate({a, b}, 0);
  EXPECT_EQ(c.dtype(), float32);  // result_type(int8, float32)
  EXPECT_EQ(c.shape(), (Shape{3, 2}));
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{1, 2, 0.5f, -1.5f, 3.25f, 4}));
  EXPECT_EQ(concatenate({a, a}, std::nullopt).shape(), (Shape{4}));
  auto s = stack({a.reshape({2}), a.reshape({2})}, 1);
  EXPECT_EQ(s.to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, 1, 2, 2}));
  EXPECT_EQ(hstack({a, a}).shape(), (Shape{1, 4}));
  EXPECT_EQ(vstack({a, a}).shape(), (Shape{2, 2}));
  try {
    concatenate({a, b}, 1);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "all the input array dimensions except for the concatenation axis must match exactly, but along "
                 "dimension 0, the array at index 0 has size 1 and the array at index 1 has size 2");
  }
  EXPECT_THROW(concatenate({}, 0), ValueError);
}

TEST_P(Manip, SplitGivesViews) {
  auto a = arange(Scalar(10), std::nullopt, device());
  auto parts = array_split(a, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(parts[2].to_vector<std::int64_t>(), (std::vector<std::int64_t>{7, 8, 9}));
  EXPECT_EQ(parts[1].buffer(), a.buffer());
  auto at = split(a, std::vector<std::int64_t>{2, -3});
  EXPECT_EQ(at[1].to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 3, 4, 5, 6}));
  EXPECT_THROW(split(a, 3), ValueError);
}

TEST_P(Manip, RollRepeatTile) {
  auto a = iota6();
  EXPECT_EQ(roll(a, {1}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(roll(a, {-1}, std::vector<int>{1}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 0, 4, 5, 3}));
  EXPECT_EQ(roll(a, {1, 1}, std::vector<int>{0, 1}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(repeat(a, {2}, 0).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(repeat(a, {0, 2, 1}, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 2, 4, 4, 5}));
  EXPECT_EQ(repeat(a, {2}).shape(), (Shape{12}));
  auto t = tile(array(std::vector<std::int32_t>{1, 2}, std::nullopt, device()), {2, 2});
  EXPECT_EQ(t.shape(), (Shape{2, 4}));
  EXPECT_EQ(t.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 1, 2, 1, 2, 1, 2}));
  EXPECT_THROW(repeat(a, {1, 2}, 1), ValueError);
}

// numpy.lib.stride_tricks from C++: views of the same memory, NumPy's shapes, strides and
// values; a view reaching outside the memory is refused.
TEST_P(Manip, StrideTricksViews) {
  auto a = iota6();  // [[0 1 2] [3 4 5]], strides (24, 8)
  auto w = sliding_window_view(a, {2}, std::vector<int>{1});
  EXPECT_EQ(w.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(w.strides(), (Strides{24, 8, 8}));
  EXPECT_EQ(w.buffer(), a.buffer());
  EXPECT_EQ(w.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 1, 2, 3, 4, 4, 5}));
  auto all = sliding_window_view(a, {2, 2});
  EXPECT_EQ(all.shape(), (Shape{1, 2, 2, 2}));
  EXPECT_EQ(all.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 4, 1, 2, 4, 5}));
  EXPECT_THROW(sliding_window_view(a, {4}, std::vector<int>{1}), ValueError);
  EXPECT_THROW(sliding_window_view(a, {2}), ValueError);  // one entry per axis without an axis
  auto s = as_strided(a, Shape{3, 2}, Strides{16, 8});  // overlapping rows
  EXPECT_EQ(s.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  auto flipped = flip(a, std::vector<int>{1});  // starts at element 2, strides (24, -8)
  EXPECT_EQ(as_strided(flipped, Shape{3}, Strides{-8}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 1, 0}));
  EXPECT_THROW(as_strided(flipped, Shape{4}, Strides{-8}), ValueError);  // one before element 0
  EXPECT_THROW(as_strided(a, Shape{7}, Strides{8}), ValueError);
  EXPECT_THROW(as_strided(a, Shape{2, 2}, Strides{8}), ValueError);
}

INSTANTIATE_DEVICE_TEST(Manip);

}  // namespace
