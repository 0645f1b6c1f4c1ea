// NumPy's creation signatures and order= layouts through the C++ API: expected strides and
// values are NumPy's, written out as literals.
#include <gtest/gtest.h>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class CreationOrder : public DeviceTest {
 protected:
  // 0..23 as (2, 3, 4) int64, C-ordered.
  ndarray iota24() const { return reshape(arange(Scalar(24), int64, device()), {2, 3, 4}); }
};

TEST_P(CreationOrder, ShapeCreatorsTakeCOrF) {
  ndarray f = zeros({2, 3, 4}, float32, Order::F, device());
  EXPECT_EQ(f.strides(), (Strides{4, 8, 24}));
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(f.is_c_contiguous());
  EXPECT_EQ(ones({2, 3}, int16, Order::C, device()).strides(), (Strides{6, 2}));
  EXPECT_EQ(empty({2, 3}, float64, device()).strides(), (Strides{24, 8}));  // the short form: C
  ndarray full_f = full({2, 3}, Scalar(7), std::nullopt, Order::F, device());
  EXPECT_EQ(full_f.dtype(), int64);
  EXPECT_EQ(full_f.strides(), (Strides{8, 16}));
  EXPECT_EQ(full_f.to_vector<std::int64_t>(), std::vector<std::int64_t>(6, 7));
  ndarray e = eye(2, 3, 1, float64, Order::F, device());
  EXPECT_EQ(e.strides(), (Strides{8, 16}));
  EXPECT_EQ(e.to_vector<double>(), (std::vector<double>{0, 1, 0, 0, 0, 1}));
  EXPECT_THROW(empty({2}, float64, Order::A, device()), ValueError);
  EXPECT_THROW(zeros({2}, float64, Order::K, device()), ValueError);
}

TEST_P(CreationOrder, OrderNames) {
  EXPECT_EQ(order_from_name("f"), Order::F);
  EXPECT_EQ(order_from_name("K"), Order::K);
  EXPECT_EQ(name(Order::A), "A");
  try {
    order_from_name("X");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "order must be one of 'C', 'F', 'A', or 'K' (got 'X')");
  }
}

TEST_P(CreationOrder, LikeCreatorsKeepTheLayout) {
  const ndarray a = iota24();
  // NumPy: a permuted, sliced prototype keeps its axis order under K.
  const ndarray p = transpose(a, std::vector<int>{1, 2, 0})[{Slice(), Slice(std::nullopt, std::nullopt, -2)}];
  EXPECT_EQ(p.shape(), (Shape{3, 2, 2}));
  EXPECT_EQ(p.strides(), (Strides{32, -16, 96}));
  EXPECT_EQ(empty_like(p).strides(), (Strides{16, 8, 48}));
  EXPECT_EQ(empty_like(p, float32).strides(), (Strides{8, 4, 24}));
  EXPECT_EQ(empty_like(p, std::nullopt, Order::C).strides(), (Strides{32, 16, 8}));
  EXPECT_EQ(empty_like(p, std::nullopt, Order::A).strides(), (Strides{32, 16, 8}));
  EXPECT_EQ(empty_like(a.T(), std::nullopt, Order::A).strides(), (Strides{8, 32, 96}));
  EXPECT_EQ(empty_like(p, std::nullopt, Order::K, Shape{4, 5}).strides(), (Strides{40, 8}));  // other ndim: C
  ndarray z = zeros_like(p, int8, Order::F, Shape{2, 2, 3});
  EXPECT_EQ(z.strides(), (Strides{1, 2, 4}));
  EXPECT_EQ(z.device(), device());
  ndarray f = full_like(a.T(), Scalar(2.5), float64);
  EXPECT_EQ(f.strides(), (Strides{8, 32, 96}));
  EXPECT_EQ(f.to_vector<double>(), std::vector<double>(24, 2.5));
  EXPECT_EQ(ones_like(a, std::nullopt, Order::K, std::nullopt, cpu).device(), cpu);
}

TEST_P(CreationOrder, CopyAndAstypeOrders) {
  const ndarray a = iota24();
  const ndarray t = a.T();  // (4, 3, 2), F-contiguous
  EXPECT_EQ(copy(t).strides(), (Strides{8, 32, 96}));           // np.copy: K
  EXPECT_EQ(t.copy().strides(), (Strides{48, 16, 8}));         // ndarray.copy: C
  EXPECT_EQ(t.copy(Order::A).strides(), (Strides{8, 32, 96}));
  EXPECT_EQ(t.astype(float32).strides(), (Strides{4, 16, 48}));  // astype: K
  EXPECT_EQ(t.astype(float32, Order::C).strides(), (Strides{24, 8, 4}));
  EXPECT_EQ(copy(t, Order::C).to_vector<std::int64_t>(), t.copy().to_vector<std::int64_t>());
  // Negative strides: K orders axes by |stride|, giving positive strides.
  const ndarray r = a[{Slice(std::nullopt, std::nullopt, -1), Slice(), Slice(std::nullopt, std::nullopt, -1)}];
  ndarray rk = copy(r);
  EXPECT_EQ(rk.strides(), (Strides{96, 32, 8}));
  EXPECT_EQ(rk.to_vector<std::int64_t>()[0], 15);
  // copy=false: the array itself only when dtype and layout already fit.
  EXPECT_EQ(astype(t, int64, Casting::unsafe, false).buffer(), a.buffer());
  EXPECT_NE(astype(t, int64, Casting::unsafe, false, Order::C).buffer(), a.buffer());
}

TEST_P(CreationOrder, ArrayAndAsarray) {
  const ndarray a = iota24();
  EXPECT_EQ(asarray(a).buffer(), a.buffer());
  EXPECT_EQ(asarray(a.T(), std::nullopt, Order::F).buffer(), a.buffer());
  EXPECT_NE(asarray(a.T(), std::nullopt, Order::C).buffer(), a.buffer());
  EXPECT_NE(array(a).buffer(), a.buffer());
  EXPECT_EQ(array(a, std::nullopt, std::nullopt, Order::K, 4).strides(), (Strides{192, 96, 32, 8}));
  EXPECT_EQ(array(a.T(), std::nullopt, std::nullopt, Order::K, 4).strides(), (Strides{8, 8, 32, 96}));
  EXPECT_EQ(array(a.T(), float32, true, Order::A).strides(), (Strides{4, 16, 48}));
  EXPECT_THROW(array(a, float32, false), ValueError);
  EXPECT_THROW(array(a, std::nullopt, false, Order::F), ValueError);
  EXPECT_EQ(array(a, std::nullopt, false, Order::C).buffer(), a.buffer());
  EXPECT_EQ(ascontiguousarray(a.T()).strides(), (Strides{48, 16, 8}));
  EXPECT_EQ(asfortranarray(a).strides(), (Strides{8, 16, 48}));
  EXPECT_EQ(ascontiguousarray(full({}, Scalar(1.0), float64, device())).shape(), (Shape{1}));
  EXPECT_EQ(asarray(a, std::nullopt, std::nullopt, cpu).device(), cpu);
}

TEST_P(CreationOrder, Require) {
  const ndarray a = iota24();
  const ndarray v = a[{Slice(1, std::nullopt)}];
  EXPECT_EQ(require(v).buffer(), a.buffer());
  EXPECT_NE(require(v, std::nullopt, {"O"}).buffer(), a.buffer());
  EXPECT_FALSE(require(v, std::nullopt, {"owndata"}).base());
  EXPECT_TRUE(require(a.T(), std::nullopt, {"C"}).is_c_contiguous());
  EXPECT_THROW(require(a, std::nullopt, {"C", "F"}), ValueError);
  EXPECT_THROW(require(a, std::nullopt, {"Q"}), KeyError);
}

TEST_P(CreationOrder, RavelFlattenReshapeOrders) {
  const ndarray a = iota24();
  const ndarray t = transpose(a, std::vector<int>{2, 0, 1});  // (4, 2, 3)
  EXPECT_EQ(ravel(t, Order::K).buffer(), a.buffer());  // memory order of a dense array: a view
  EXPECT_EQ(ravel(t, Order::K).to_vector<std::int64_t>()[5], 5);
  EXPECT_EQ(flatten(t, Order::K).to_vector<std::int64_t>()[5], 5);
  EXPECT_EQ(t.flatten(Order::F).to_vector<std::int64_t>()[1], 1);
  EXPECT_EQ(t.flatten(Order::F).to_vector<std::int64_t>()[4], 12);
  EXPECT_EQ(reshape(a.T(), {24}, Order::A).buffer(), a.buffer());  // A: F for a Fortran-ordered input
  EXPECT_THROW(reshape(a, {24}, Order::K), ValueError);
}

TEST_P(CreationOrder, ConstructOverMemory) {
  const ndarray a = arange(Scalar(6), float32, device());
  ndarray b(Shape{2, 3}, float32, a.memptr());
  EXPECT_EQ(b.strides(), (Strides{12, 4}));
  EXPECT_EQ(b.buffer(), a.buffer());
  EXPECT_FALSE(b.base());
  ndarray f(Shape{2, 3}, float32, a.memptr(), std::nullopt, Order::F);
  EXPECT_EQ(f.strides(), (Strides{4, 8}));
  ndarray s(Shape{2}, float32, a.memptr() + 4, Strides{8});
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{1, 3}));
  EXPECT_EQ(a.memptr().ptr() + 4, (a.memptr() + 4).ptr());
  EXPECT_EQ(a.memptr().device(), device());
  EXPECT_THROW(ndarray(Shape{7}, float32, a.memptr()), ValueError);
  EXPECT_THROW(ndarray(Shape{2}, float32, a.memptr() + 20), ValueError);
  EXPECT_EQ(empty({0}, float64, device()).memptr().ptr(), 0u);
}

INSTANTIATE_DEVICE_TEST(CreationOrder);

}  // namespace
