// C-order copies of transposed views from C++ (on a GPU: the tiled transpose kernel of
// cuda_transpose.cpp). Expected values come from the index formula of the source, never
// from copper itself.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class TransposeCopy : public DeviceTest {};

TEST_P(TransposeCopy, ContiguousCopyOfTranspose) {
  // a[r][c] = r * 35 + c, shape (40, 35); a.T[i][j] = a[j][i] = j * 35 + i. 40 and 35 leave
  // partial 32x32 tiles on both axes.
  const std::int64_t R = 40, C = 35;
  auto a = arange(0, R * C, 1, int64, device()).reshape({R, C});
  auto t = ascontiguousarray(a.T());
  ASSERT_EQ(t.shape(), (Shape{C, R}));
  EXPECT_EQ(t.strides(), (Strides{R * 8, 8}));
  const auto v = t.to_vector<std::int64_t>();
  for (std::int64_t i = 0; i < C; ++i)
    for (std::int64_t j = 0; j < R; ++j) ASSERT_EQ(v[i * R + j], j * C + i) << i << "," << j;
  // A cast on the way: float64 of the same values.
  const auto f = a.T().astype(float64).to_vector<double>();
  for (std::int64_t i = 0; i < C; ++i)
    for (std::int64_t j = 0; j < R; ++j) ASSERT_EQ(f[i * R + j], static_cast<double>(j * C + i));
}

TEST_P(TransposeCopy, BatchedSwapaxes) {
  // a[b][r][c] = b * 1000 + r * 50 + c, shape (3, 20, 50); swapped[b][i][j] = a[b][j][i].
  auto a = arange(0, 3 * 20 * 50, 1, int32, device()).reshape({3, 20, 50});
  const auto v = swapaxes(a, -1, -2).copy().to_vector<std::int32_t>();
  ASSERT_EQ(v.size(), 3000u);
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 50; ++i)
      for (int j = 0; j < 20; ++j) ASSERT_EQ(v[(b * 50 + i) * 20 + j], b * 1000 + j * 50 + i);
}

INSTANTIATE_DEVICE_TEST(TransposeCopy);

}  // namespace
