// copper::linalg (numpy.linalg) from C++; expected values worked out by hand on small
// matrices with exact answers (compared to 1e-12, LAPACK rounding only).
#include <gtest/gtest.h>

#include <cmath>

#include "copper/copper.hpp"
#include "device_param.h"

using namespace copper;

class LinalgDecomp : public DeviceTest {
 protected:
  ndarray m(std::vector<double> v, Shape s) { return array(v, s, device()); }
};

// tol: 1e-12 for double precision; single-precision input may be computed in single
// precision (cuSOLVER on the GPU), so its results are checked to a few float32 ulps.
static void expect_near(const ndarray& a, const std::vector<double>& expected, double tol = 1e-12) {
  const auto got = astype(a, float64).to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol) << i;
}

TEST_P(LinalgDecomp, DetInvSolve) {
  const ndarray a = m({1, 2, 3, 4}, {2, 2});
  expect_near(linalg::det(a), {-2});
  expect_near(linalg::inv(a), {-2, 1, 1.5, -0.5});
  expect_near(linalg::solve(a, m({5, 11}, {2})), {1, 2});
  const auto s = linalg::slogdet(a);
  expect_near(s.sign, {-1});
  expect_near(s.logabsdet, {std::log(2.0)});
  EXPECT_EQ(linalg::det(astype(a, float32)).dtype(), float32);
  EXPECT_EQ(linalg::det(astype(a, int32)).dtype(), float64);
  EXPECT_THROW(linalg::inv(m({1, 2, 2, 4}, {2, 2})), LinAlgError);
  EXPECT_THROW(linalg::inv(astype(a, float16)), TypeError);
}

TEST_P(LinalgDecomp, CholeskyEighSvd) {
  // [[4,2],[2,3]] = L L^T with L = [[2,0],[1,sqrt 2]]; eigenvalues of [[2,1],[1,2]] are 1, 3.
  expect_near(linalg::cholesky(m({4, 2, 2, 3}, {2, 2})), {2, 0, 1, std::sqrt(2.0)});
  EXPECT_THROW(linalg::cholesky(m({-1, 0, 0, 1}, {2, 2})), LinAlgError);
  expect_near(linalg::eigvalsh(m({2, 1, 1, 2}, {2, 2})), {1, 3});
  expect_near(linalg::svdvals(m({3, 0, 0, -4}, {2, 2})), {4, 3});
  expect_near(linalg::matrix_rank(m({1, 2, 2, 4}, {2, 2})), {1});
  expect_near(linalg::matrix_power(m({1, 1, 1, 0}, {2, 2}), 10), {89, 55, 55, 34});
}

TEST_P(LinalgDecomp, Norms) {
  const ndarray v = m({3, -4}, {2});
  expect_near(linalg::norm(v), {5});
  expect_near(linalg::norm(v, 1.0), {7});
  expect_near(linalg::norm(v, INFINITY), {4});
  const ndarray a = m({1, -2, 3, 4}, {2, 2});
  expect_near(linalg::norm(a, std::string("fro")), {std::sqrt(30.0)});
  expect_near(linalg::norm(a, 1.0), {6});      // largest column sum
  expect_near(linalg::norm(a, INFINITY), {7});  // largest row sum
  EXPECT_THROW(linalg::norm(v, std::string("fro")), ValueError);
}

INSTANTIATE_DEVICE_TEST(LinalgDecomp);

class LinalgSolverPaths : public DeviceTest {
 protected:
  ndarray m(std::vector<double> v, Shape s) { return array(v, s, device()); }
};

// Stacks, single precision, empty stacks and errors inside a stack, with exact answers:
// diag(2, 4) and [[0, 1], [1, 0]] (det -1, one row interchange).
TEST_P(LinalgSolverPaths, StacksAndSinglePrecision) {
  const ndarray a = m({2, 0, 0, 4, 0, 1, 1, 0}, {2, 2, 2});
  expect_near(linalg::det(a), {8, -1});
  expect_near(linalg::inv(a), {0.5, 0, 0, 0.25, 0, 1, 1, 0});
  expect_near(linalg::solve(a, m({2, 4, 3, 5}, {2, 2, 1})), {1, 1, 5, 3});
  const ndarray a32 = astype(a, float32);
  const ndarray d32 = linalg::det(a32);
  EXPECT_EQ(d32.dtype(), float32);
  expect_near(d32, {8, -1});  // exact in any precision
  EXPECT_EQ(linalg::inv(a32).dtype(), float32);
  expect_near(linalg::eigvalsh(astype(a, complex64)), {2, 4, -1, 1}, 1e-6);
  EXPECT_EQ(linalg::eigvalsh(astype(a, complex64)).dtype(), float32);
  expect_near(linalg::svdvals(a32), {4, 2, 1, 1}, 1e-6);
  // Empty stacks and 0x0 matrices.
  EXPECT_EQ(linalg::inv(zeros({0, 3, 3}, float64, device())).shape(), (Shape{0, 3, 3}));
  expect_near(linalg::det(zeros({2, 0, 0}, float64, device())), {1, 1});
  EXPECT_EQ(linalg::eigh(zeros({3, 0, 0}, float32, device())).eigenvalues.shape(), (Shape{3, 0}));
  // One singular / indefinite matrix among good ones fails the whole call.
  const ndarray bad = m({1, 0, 0, 1, 1, 1, 1, 1}, {2, 2, 2});
  EXPECT_THROW(linalg::inv(bad), LinAlgError);
  EXPECT_THROW(linalg::solve(bad, m({1, 1}, {2})), LinAlgError);
  EXPECT_THROW(linalg::cholesky(m({4, 0, 0, 4, 1, 2, 2, 1}, {2, 2, 2})), LinAlgError);
  expect_near(linalg::det(bad), {1, 0});
}

// Tall and wide SVD / QR take different layouts: both rebuild the input.
TEST_P(LinalgSolverPaths, TallAndWide) {
  const ndarray tall = m({1, 2, 3, 4, 5, 6}, {3, 2});
  for (const ndarray& x : {tall, transpose(tall)}) {
    const auto f = linalg::svd(x, false);
    expect_near(matmul(multiply(f.U, f.S), f.Vh), astype(x, float64).to_vector<double>());
    const auto q = linalg::qr(x, "complete");
    expect_near(matmul(q.Q, q.R), astype(x, float64).to_vector<double>());
  }
}

INSTANTIATE_DEVICE_TEST(LinalgSolverPaths);
