// The C++ linear-algebra products; expected values worked out by hand (exact small
// integers and exactly representable floats), never copper against itself.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

using namespace copper;

class Linalg : public DeviceTest {};

TEST_P(Linalg, MatmulExactValues) {
  // [[1,2,3],[4,5,6]] @ [[7,8],[9,10],[11,12]] = [[58,64],[139,154]]
  for (DType t : {float64, float32, float16, int32, int8, complex128}) {
    auto a = astype(array(std::vector<double>{1, 2, 3, 4, 5, 6}, Shape{2, 3}, device()), t);
    auto b = astype(array(std::vector<double>{7, 8, 9, 10, 11, 12}, Shape{3, 2}, device()), t);
    auto c = matmul(a, b);
    EXPECT_EQ(c.shape(), (Shape{2, 2}));
    EXPECT_EQ(c.dtype(), t);
    const std::vector<double> expected = t == int8 ? std::vector<double>{58, 64, -117, -102}  // 139, 154 wrap
                                                    : std::vector<double>{58, 64, 139, 154};
    EXPECT_EQ(astype(c, float64).to_vector<double>(), expected) << name(t);
  }
}

TEST_P(Linalg, MatmulVectorsBatchesAndBool) {
  auto v = array(std::vector<double>{1, 2, 3}, std::nullopt, device());
  auto dotted = matmul(v, v);
  EXPECT_EQ(dotted.ndim(), 0);
  EXPECT_EQ(dotted.item().to_double(), 14.0);
  // Two stacked 2x2 matrices times one broadcast matrix.
  auto s = array(std::vector<std::int64_t>{1, 0, 0, 1, 2, 0, 0, 2}, Shape{2, 2, 2}, device());
  auto m = array(std::vector<std::int64_t>{1, 2, 3, 4}, Shape{2, 2}, device());
  EXPECT_EQ(matmul(s, m).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 4, 2, 4, 6, 8}));
  auto t = array(std::vector<bool>{true, false, false, false}, Shape{2, 2}, device());
  auto u = array(std::vector<bool>{false, true, true, true}, Shape{2, 2}, device());
  auto r = matmul(t, u);
  EXPECT_EQ(r.dtype(), bool_);
  EXPECT_EQ(r.to_vector<bool>(), (std::vector<bool>{false, true, false, false}));
  auto empty = matmul(zeros({2, 0}, float64, device()), zeros({0, 3}, float64, device()));
  EXPECT_EQ(empty.to_vector<double>(), std::vector<double>(6, 0.0));
}

TEST_P(Linalg, MatmulErrorsAndOut) {
  auto a = ones({2, 3}, float64, device());
  EXPECT_THROW(matmul(a, ones({4, 2}, float64, device())), ValueError);
  EXPECT_THROW(matmul(zeros({}, float64, device()), a), ValueError);
  EXPECT_THROW(matmul(a, ones({3, 2}, float64, device()), zeros({2, 2}, int64, device())), TypeError);
  auto out = zeros({2, 2}, float32, device());
  matmul(a, ones({3, 2}, float64, device()), out);
  EXPECT_EQ(out.to_vector<float>(), std::vector<float>(4, 3.0f));
}

TEST_P(Linalg, ProductsDiagonalsTriangles) {
  auto a = array(std::vector<std::int64_t>{1, 2, 3, 4}, Shape{2, 2}, device());
  auto b = array(std::vector<std::int64_t>{0, 5, 6, 7}, Shape{2, 2}, device());
  EXPECT_EQ(dot(a, b).to_vector<std::int64_t>(), (std::vector<std::int64_t>{12, 19, 24, 43}));
  EXPECT_EQ(tensordot(a, b, 2).item().to_int64(), 0 + 10 + 18 + 28);
  EXPECT_EQ(einsum("ij,jk->ki", {a, b}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{12, 24, 19, 43}));
  EXPECT_EQ(einsum("ii", {a}).item().to_int64(), 5);
  // A lone operand with nothing summed is a view in its own dtype; sums take dtype.
  const ndarray view = einsum("ii->i", {a}, float64);
  EXPECT_EQ(view.dtype(), int64);
  EXPECT_EQ(view.buffer(), a.buffer());
  EXPECT_EQ(view.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(einsum("ii", {a}, float64).dtype(), float64);
  EXPECT_EQ(einsum_subscripts({{0, 27}, {27, kEinsumEllipsis}}, std::vector<int>{0}), "Ab,b...->A");
  EXPECT_THROW(einsum_subscripts({{52}}), ValueError);
  EXPECT_EQ(kron(a, b).shape(), (Shape{4, 4}));
  EXPECT_EQ(kron(a, b).to_vector<std::int64_t>()[7], 2 * 7);
  EXPECT_EQ(outer(a, b).shape(), (Shape{4, 4}));
  EXPECT_EQ(trace(a).item().to_int64(), 5);
  EXPECT_EQ(diagonal(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(tril(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 3, 4}));
  EXPECT_EQ(triu(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 0, 0}));
  EXPECT_EQ(diag(array(std::vector<std::int64_t>{7, 8}, std::nullopt, device())).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{7, 0, 0, 8}));
  auto x = array(std::vector<double>{1, 0, 0}, std::nullopt, device());
  auto y = array(std::vector<double>{0, 1, 0}, std::nullopt, device());
  EXPECT_EQ(cross(x, y).to_vector<double>(), (std::vector<double>{0, 0, 1}));
  auto c = array(std::vector<std::complex<double>>{{1, 2}, {3, -1}}, std::nullopt, device());
  EXPECT_EQ(vdot(c, c).item().to_complex(), std::complex<double>(15, 0));  // |1+2i|^2 + |3-i|^2
  EXPECT_THROW(dot(a, ones({3}, int64, device())), ValueError);
  EXPECT_THROW(diagonal(ones({3}, float64, device())), ValueError);
}

INSTANTIATE_DEVICE_TEST(Linalg);
