// The C++ ufunc objects: copper::add is an object with NumPy's attributes and methods
// (reduce, accumulate, reduceat, outer), two-output ops, where=/order=/signature=,
// and the functions composed from ufuncs. Expected values computed with NumPy 2.4.
#include <gtest/gtest.h>

#include <cmath>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class UfuncObjects : public DeviceTest {};

TEST_P(UfuncObjects, Attributes) {
  EXPECT_EQ(add.name(), "add");
  EXPECT_EQ(true_divide.name(), "divide");
  EXPECT_EQ(&divide, &true_divide);
  EXPECT_EQ(add.nin(), 2);
  EXPECT_EQ(add.nout(), 1);
  EXPECT_EQ(divmod.nout(), 2);
  EXPECT_EQ(copper::modf.nargs(), 3);
  EXPECT_EQ(add.identity()->to_int64(), 0);
  EXPECT_TRUE(std::isinf(logaddexp.identity()->to_double()));
  EXPECT_FALSE(maximum.identity().has_value());
  EXPECT_EQ(copper::sqrt.types().front(), "e->e");
  EXPECT_EQ(copper::ldexp.types(), (std::vector<std::string>{"ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"}));
  // NumPy lists its long long loops after the long ones (and exact mixed ones for comparisons).
  const std::vector<std::string> cmp = copper::less.types();
  EXPECT_EQ(std::vector<std::string>(cmp.begin() + 7, cmp.begin() + 13),
            (std::vector<std::string>{"ll->?", "LL->?", "qq->?", "QQ->?", "qQ->?", "Qq->?"}));
  EXPECT_EQ(copper::frexp.types().back(), "d->di");
  EXPECT_EQ(add.ntypes(), static_cast<int>(add.types().size()));
}

TEST_P(UfuncObjects, CallsAsBefore) {
  auto a = array<double>({1, 2, 3}, device());
  auto b = array<double>({10, 20, 30}, device());
  EXPECT_EQ(add(a, b).to_vector<double>(), (std::vector<double>{11, 22, 33}));
  UfuncOptions o;
  o.out = zeros({3}, float64, device());
  add(a, 1, o);
  EXPECT_EQ(o.out->to_vector<double>(), (std::vector<double>{2, 3, 4}));
  const std::vector<operand> in = {a, b};
  EXPECT_EQ(subtract.call(in)[0].to_vector<double>(), (std::vector<double>{-9, -18, -27}));
}

TEST_P(UfuncObjects, WhereOrderSignature) {
  auto a = array<double>({1, 2, 3, 4}, device());
  UfuncOptions o;
  o.out = full({4}, Scalar(-1.0), float64, device());
  o.where = array<bool>({true, false, true, false}, device());
  multiply(a, 10, o);
  EXPECT_EQ(o.out->to_vector<double>(), (std::vector<double>{10, -1, 30, -1}));
  UfuncOptions f;
  f.order = 'F';
  auto m = negative(reshape(a, {2, 2}), f);
  EXPECT_TRUE(m.is_f_contiguous());
  EXPECT_FALSE(m.is_c_contiguous());
  UfuncOptions s;
  s.signature = {float32, float32, float32};
  EXPECT_EQ(add(a, 1, s).dtype(), float32);
}

TEST_P(UfuncObjects, TwoOutputs) {
  auto x = array<double>({-3.5, 2.25, 7.0}, device());
  auto [frac, whole] = copper::modf(x);
  EXPECT_EQ(frac.to_vector<double>(), (std::vector<double>{-0.5, 0.25, 0.0}));
  EXPECT_EQ(whole.to_vector<double>(), (std::vector<double>{-3.0, 2.0, 7.0}));
  auto [m, e] = copper::frexp(x);
  EXPECT_EQ(e.dtype(), int32);
  EXPECT_EQ(e.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 2, 3}));
  EXPECT_EQ(m.to_vector<double>(), (std::vector<double>{-0.875, 0.5625, 0.875}));
  auto [q, r] = divmod(array<std::int32_t>({-7, 7, 9}, device()), 3);
  EXPECT_EQ(q.to_vector<std::int32_t>(), (std::vector<std::int32_t>{-3, 2, 3}));
  EXPECT_EQ(r.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 1, 0}));
}

TEST_P(UfuncObjects, ReduceAccumulateReduceatOuter) {
  auto a = reshape(arange(Scalar(1), Scalar(7), Scalar(1), int64, device()), {2, 3});  // [[1,2,3],[4,5,6]]
  EXPECT_EQ(add.reduce(a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{5, 7, 9}));
  EXPECT_EQ(add.reduce(a, Axes()).item().to_int64(), 21);
  EXPECT_EQ(subtract.reduce(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{-4, -7}));
  UfuncReduceOptions init;
  init.initial = Scalar(100);
  init.keepdims = true;
  auto s = subtract.reduce(a, 1, init);
  EXPECT_EQ(s.shape(), (Shape{2, 1}));
  EXPECT_EQ(s.to_vector<std::int64_t>(), (std::vector<std::int64_t>{94, 85}));
  EXPECT_THROW(subtract.reduce(a, Axes()), ValueError);
  EXPECT_THROW(copper::sqrt.reduce(a), ValueError);
  EXPECT_EQ(maximum.accumulate(array<std::int32_t>({3, 1, 4, 1, 5}, device())).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, 3, 4, 4, 5}));
  EXPECT_EQ(power.accumulate(array<double>({2, 3, 2}, device())).to_vector<double>(),
            (std::vector<double>{2, 8, 64}));
  auto x = arange(Scalar(8), int64, device());
  auto idx = array<std::int64_t>({0, 4, 1, 5, 5, 7}, device());
  EXPECT_EQ(add.reduceat(x, idx).to_vector<std::int64_t>(), (std::vector<std::int64_t>{6, 4, 10, 5, 11, 7}));
  auto o = multiply.outer(array<std::int32_t>({1, 2}, device()), array<std::int32_t>({3, 4, 5}, device()));
  EXPECT_EQ(o.shape(), (Shape{2, 3}));
  EXPECT_EQ(o.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 4, 5, 6, 8, 10}));
  EXPECT_EQ(gcd.reduce(array<std::int16_t>({12, -18, 30}, device())).item().to_int64(), 6);
}

TEST_P(UfuncObjects, NewOpsAndComposedFunctions) {
  auto x = array<double>({-2.0, 0.0, 3.0}, device());
  EXPECT_EQ(copper::copysign(x, -1.0).to_vector<double>(), (std::vector<double>{-2.0, -0.0, -3.0}));
  EXPECT_EQ(copper::ldexp(x, 3).to_vector<double>(), (std::vector<double>{-16.0, 0.0, 24.0}));
  EXPECT_EQ(heaviside(x, 0.5).to_vector<double>(), (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(bitwise_count(array<std::int8_t>({-1, 7, -128}, device())).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{1, 3, 1}));
  EXPECT_EQ(float_power(array<std::int32_t>({2}, device()), 3).dtype(), float64);
  EXPECT_EQ(fix(array<double>({-1.5, 2.5}, device())).to_vector<double>(), (std::vector<double>{-1.0, 2.0}));
  EXPECT_DOUBLE_EQ(sinc(array<double>({0.5}, device())).item().to_double(), 0.6366197723675814);
  EXPECT_DOUBLE_EQ(i0(array<std::int32_t>({1}, device())).item().to_double(), 1.2660658777520082);
  EXPECT_TRUE(allclose(array<double>({1.0, 2.0}, device()), array<double>({1.0, 2.0000001}, device())));
  EXPECT_TRUE(array_equal(x, x.copy()));
  EXPECT_FALSE(array_equiv(x, array<double>({1.0}, device())));
  auto n = nan_to_num(array<double>({std::nan(""), -INFINITY}, device()));
  EXPECT_EQ(n.to_vector<double>()[0], 0.0);
  EXPECT_EQ(n.to_vector<double>()[1], -std::numeric_limits<double>::max());
}

INSTANTIATE_DEVICE_TEST(UfuncObjects);

}  // namespace
