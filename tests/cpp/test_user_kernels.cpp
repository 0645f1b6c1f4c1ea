// ElementwiseKernel and ReductionKernel through the C++ API (include/copper/kernels.hpp),
// with expected values worked out by hand. On the CPU device these compile with the
// system C++ compiler, on a GPU with NVRTC.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class UserKernels : public DeviceTest {};

TEST_P(UserKernels, SquaredDiffBroadcastsAndCastsScalars) {
  ElementwiseKernel squared_diff("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff");
  ndarray x = array(std::vector<float>{0, 1, 2, 3, 4, 5}, Shape{2, 3}, device());
  ndarray y = array(std::vector<float>{1, 1, 1}, Shape{3}, device());
  ndarray z = squared_diff(x, y);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.dtype(), float32);
  EXPECT_EQ(z.to_vector<float>(), (std::vector<float>{1, 0, 1, 4, 9, 16}));
  EXPECT_EQ(squared_diff(x, 2).to_vector<float>(), (std::vector<float>{4, 1, 0, 1, 4, 9}));
  ndarray out = empty(Shape{2, 3}, float32, device());
  squared_diff(x, 0.0, out);
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{0, 1, 4, 9, 16, 25}));
}

TEST_P(UserKernels, PlaceholdersResolveFromArguments) {
  ElementwiseKernel twice("T x", "T y", "y = x + x", "twice");
  ndarray a = array(std::vector<std::int64_t>{1, 2, 3}, Shape{3}, device());
  ndarray r = twice(a);
  EXPECT_EQ(r.dtype(), int64);
  EXPECT_EQ(r.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 4, 6}));
  ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_same");
  EXPECT_THROW(add(a, a.astype(float64)), TypeError);
}

TEST_P(UserKernels, RawArgumentReversed) {
  ElementwiseKernel add_reverse("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse");
  ndarray a = array(std::vector<double>{0, 1, 2, 3}, Shape{4}, device());
  EXPECT_EQ(add_reverse(a, a).to_vector<double>(), (std::vector<double>{3, 3, 3, 3}));
}

TEST_P(UserKernels, SizeWithRawOutput) {
  DeviceScope scope(device());
  ElementwiseKernel iota("", "raw int32 y", "y[i] = static_cast<int>(i) * 3", "iota3");
  auto outs = iota.call({}, 4);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0].to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 3, 6, 9}));
  EXPECT_THROW(iota.call({}), ValueError);  // no size, nothing to take it from
}

TEST_P(UserKernels, ReductionAxesAndKeepdims) {
  ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  ndarray x = array(std::vector<double>{3, 4, 0, 6, 8, 0}, Shape{2, 3}, device());
  EXPECT_EQ(l2norm.call({x}, std::vector<int>{1})[0].to_vector<double>(), (std::vector<double>{5, 10}));
  ndarray k = l2norm.call({x}, std::vector<int>{0}, true)[0];
  EXPECT_EQ(k.shape(), (Shape{1, 3}));
  EXPECT_NEAR(k.to_vector<double>()[0], std::sqrt(45.0), 1e-12);
  EXPECT_DOUBLE_EQ(l2norm(x).item().to_double(), std::sqrt(125.0));
}

TEST_P(UserKernels, ReductionWithoutIdentity) {
  ReductionKernel rmax("T x", "T y", "x", "max(a, b)", "y = a", std::nullopt, "rmax");
  ndarray x = array(std::vector<float>{-3, -1, -2}, Shape{3}, device());
  EXPECT_EQ(rmax(x).item().to_double(), -1.0);
  EXPECT_THROW(rmax(empty(Shape{0}, float32, device())), ValueError);
}

TEST_P(UserKernels, CompileErrorNamesTheUsersLine) {
  ElementwiseKernel broken("T x", "T y", "y = x;\ny = not_declared;", "broken_cpp");
  ndarray x = array(std::vector<float>{1}, Shape{1}, device());
  try {
    broken(x);
    FAIL() << "a broken kernel ran";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("broken_cpp(2)") != std::string::npos || what.find("broken_cpp:2:") != std::string::npos)
        << what;
  }
}

TEST(UserKernelDefinitions, MalformedParameters) {
  EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "bad name"), ValueError);
  EXPECT_THROW(ElementwiseKernel("T i", "T y", "y = i"), ValueError);
  EXPECT_THROW(ElementwiseKernel("x", "T y", "y = x"), ValueError);
  EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x").call({}), TypeError);  // wrong argument count
}

INSTANTIATE_DEVICE_TEST(UserKernels);

}  // namespace
