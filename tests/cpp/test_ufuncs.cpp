// The C++ ufunc API: functions, operators, weak scalars, out=, in-place forms and
// errors. Expected values are literals computed with NumPy 2.4 (or exact arithmetic).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Ufuncs : public DeviceTest {};

TEST_P(Ufuncs, ArithmeticFunctionsAndOperators) {
  auto a = array<std::int32_t>({1, 2, 3}, device());
  auto b = array<std::int32_t>({10, 20, 30}, device());
  EXPECT_EQ(add(a, b).to_vector<std::int32_t>(), (std::vector<std::int32_t>{11, 22, 33}));
  EXPECT_EQ((b - a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{9, 18, 27}));
  EXPECT_EQ((a * b).dtype(), int32);
  EXPECT_EQ((5 - a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 3, 2}));
  EXPECT_EQ((b % 7).to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 6, 2}));
  EXPECT_EQ((-a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{-1, -2, -3}));
  EXPECT_EQ((~a).to_vector<std::int32_t>(), (std::vector<std::int32_t>{-2, -3, -4}));
  EXPECT_EQ((a << 2).to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 8, 12}));
  EXPECT_EQ((b >> 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{5, 10, 15}));
  EXPECT_EQ((a & 2).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 2, 2}));
  // true_divide of integers computes in float64, as NumPy.
  auto q = a / 2;
  EXPECT_EQ(q.dtype(), float64);
  EXPECT_EQ(q.to_vector<double>(), (std::vector<double>{0.5, 1.0, 1.5}));
  auto f = floor_divide(array<std::int32_t>({-7, 7}, device()), 2);
  EXPECT_EQ(f.to_vector<std::int32_t>(), (std::vector<std::int32_t>{-4, 3}));
}

TEST_P(Ufuncs, WeakScalarsFollowNep50) {
  auto f = array<float>({1.5f, 2.0f}, device());
  EXPECT_EQ((f * 5).dtype(), float32);
  EXPECT_EQ((f + 2.5).dtype(), float32);
  EXPECT_EQ((f + std::complex<double>(1, 2)).dtype(), complex64);
  auto i8 = array<std::int8_t>({100, 120}, device());
  // Fits int8: stays int8 and wraps (100 + 100 = -56, 120 + 100 = -36).
  auto sum = i8 + 100;
  EXPECT_EQ(sum.dtype(), int8);
  EXPECT_EQ(sum.to_vector<std::int8_t>(), (std::vector<std::int8_t>{-56, -36}));
  EXPECT_EQ((i8 + 1.5).dtype(), float64);
  EXPECT_THROW(i8 + 300, OverflowError);
  try {
    (void)(i8 + 300);
  } catch (const OverflowError& e) {
    EXPECT_STREQ(e.what(), "Python integer 300 out of bounds for int8");
  }
  EXPECT_THROW(array<std::uint8_t>({1}, device()) + (-1), OverflowError);
  auto flags = array<std::int32_t>({1, 0}, device()) != 0;  // bool
  EXPECT_EQ(flags.dtype(), bool_);
  EXPECT_EQ((flags + 1).dtype(), int64);
  // Typed scalars are strong.
  EXPECT_EQ((f * Scalar::typed(Scalar(2.0), float64)).dtype(), float64);
}

TEST_P(Ufuncs, ComparisonsWithOutOfRangeIntsAreExact) {
  auto i8 = array<std::int8_t>({1, -2}, device());
  EXPECT_EQ((i8 < 300).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ((i8 == -300).to_vector<bool>(), (std::vector<bool>{false, false}));
  EXPECT_EQ((i8 > -300).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ((300 > i8).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ((i8 != 1000).to_vector<bool>(), (std::vector<bool>{true, true}));
}

TEST_P(Ufuncs, BroadcastingAndUnaryTypeResolution) {
  auto col = array<std::int64_t>({1, 2}, Shape{2, 1}, device());
  auto row = array<std::int64_t>({10, 20, 30}, device());
  auto s = col + row;
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  EXPECT_EQ(s.to_vector<std::int64_t>(), (std::vector<std::int64_t>{11, 21, 31, 12, 22, 32}));
  EXPECT_THROW(add(array<double>({1, 2}, device()), array<double>({1, 2, 3}, device())), ValueError);
  // sqrt(int8) runs the first loop int8 casts to safely: float16.
  auto r = copper::sqrt(array<std::int8_t>({4, 9}, device()));
  EXPECT_EQ(r.dtype(), float16);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{2.0f, 3.0f}));
}

TEST_P(Ufuncs, OutArgument) {
  auto a = array<std::int32_t>({1, 2, 3}, device());
  auto out = zeros({3}, float64, device());
  UfuncOptions opts;
  opts.out = out;
  auto r = add(a, 1, opts);
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{2, 3, 4}));
  // Out may broadcast the inputs to its own shape.
  auto wide = zeros({2, 3}, int32, device());
  opts.out = wide;
  multiply(a, 2, opts);
  EXPECT_EQ(wide.to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 4, 6, 2, 4, 6}));
  // Wrong shape and unsafe dtype raise and leave out untouched.
  auto small = full({2}, 7, int32, device());
  opts.out = small;
  EXPECT_THROW(add(a, 1, opts), ValueError);
  auto ints = full({3}, 7, int64, device());
  opts.out = ints;
  try {
    add(array<double>({1, 2, 3}, device()), 1.5, opts);
    ADD_FAILURE() << "expected TypeError";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'");
  }
  EXPECT_EQ(ints.to_vector<std::int64_t>(), (std::vector<std::int64_t>{7, 7, 7}));
  EXPECT_EQ(small.to_vector<std::int32_t>(), (std::vector<std::int32_t>{7, 7}));
}

TEST_P(Ufuncs, DtypeArgument) {
  auto a = array<std::int64_t>({1, 2}, device());
  UfuncOptions opts;
  opts.dtype = float32;
  auto r = add(a, a, opts);
  EXPECT_EQ(r.dtype(), float32);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{2, 4}));
  opts.dtype = int64;
  EXPECT_THROW(add(array<double>({1.0}, device()), 1, opts), TypeError);
}

TEST_P(Ufuncs, InPlaceOperators) {
  auto a = array<double>({1, 2, 3}, device());
  auto alias = a;
  a *= 5;
  a += a;
  a -= 1;
  EXPECT_EQ(alias.to_vector<double>(), (std::vector<double>{9, 19, 29}));
  auto i = array<std::int64_t>({1, 2}, device());
  EXPECT_THROW(i += 1.5, TypeError);  // same_kind forbids float64 -> int64
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2}));
  i <<= 3;
  i |= 1;
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{9, 17}));
  auto f = array<float>({1.0f, 2.0f}, device());
  f /= 4;
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{0.25f, 0.5f}));
}

TEST_P(Ufuncs, NumpyTypeErrors) {
  auto b = array<std::int32_t>({1, 0}, device()) != 0;
  try {
    (void)(b - b);
    ADD_FAILURE() << "expected TypeError";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, "
                 "or the logical_xor function instead.");
  }
  EXPECT_THROW(-b, TypeError);
  try {
    bitwise_and(array<double>({1.0}, device()), 1);
    ADD_FAILURE() << "expected TypeError";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "ufunc 'bitwise_and' not supported for the input types, and the inputs could not be safely coerced "
                 "to any supported types according to the casting rule ''safe''");
  }
  try {
    power(array<std::int64_t>({2, 3}, device()), array<std::int64_t>({1, -1}, device()));
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Integers to negative integer powers are not allowed.");
  }
  EXPECT_EQ(power(array<std::int64_t>({2, 3}, device()), 3).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{8, 27}));
}

TEST_P(Ufuncs, WhereClipAround) {
  auto cond = array<std::int32_t>({1, 0, 1}, device()) != 0;
  auto w = where(cond, array<double>({1.5, 2.5, 3.5}, device()), 0);
  EXPECT_EQ(w.dtype(), float64);
  EXPECT_EQ(w.to_vector<double>(), (std::vector<double>{1.5, 0.0, 3.5}));
  auto c = clip(array<std::int32_t>({-5, 3, 12}, device()), 0, 10);
  EXPECT_EQ(c.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 3, 10}));
  auto r = around(array<double>({1.25, 2.5, -0.5}, device()), 1);
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1.2, 2.5, -0.5}));
  auto r0 = copper::round(array<double>({1.25, 2.5, -0.5}, device()));
  EXPECT_EQ(r0.to_vector<double>(), (std::vector<double>{1.0, 2.0, -0.0}));
  auto ri = around(array<std::int32_t>({15, 25, -15, 44}, device()), -1);
  EXPECT_EQ(ri.to_vector<std::int32_t>(), (std::vector<std::int32_t>{20, 20, -20, 40}));
}

TEST_P(Ufuncs, RealImagAreViews) {
  using C = std::complex<double>;
  auto z = array<C>({C(1, 2), C(3, -4)}, device());
  auto re = z.real();
  auto im = imag(z);
  EXPECT_EQ(re.dtype(), float64);
  EXPECT_EQ(re.to_vector<double>(), (std::vector<double>{1, 3}));
  EXPECT_EQ(im.to_vector<double>(), (std::vector<double>{2, -4}));
  im += 10;  // writes through into z
  EXPECT_EQ(z.to_vector<C>(), (std::vector<C>{C(1, 12), C(3, 6)}));
  EXPECT_EQ(z.conj().to_vector<C>(), (std::vector<C>{C(1, -12), C(3, -6)}));
  auto x = array<float>({1.0f, 2.0f}, device());
  EXPECT_EQ(real(x).data(), x.data());  // real input: the array itself
  EXPECT_EQ(imag(x).to_vector<float>(), (std::vector<float>{0.0f, 0.0f}));
}

TEST_P(Ufuncs, NanAndInfinity) {
  const double nan = std::nan(""), inf = INFINITY;
  auto a = array<double>({nan, 1.0, -inf}, device());
  auto b = array<double>({1.0, nan, 0.0}, device());
  auto mx = maximum(a, b).to_vector<double>();
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 0.0);
  auto fm = copper::fmax(a, b).to_vector<double>();
  EXPECT_EQ(fm, (std::vector<double>{1.0, 1.0, 0.0}));
  EXPECT_EQ(copper::isnan(a).to_vector<bool>(), (std::vector<bool>{true, false, false}));
  EXPECT_EQ((a == a).to_vector<bool>(), (std::vector<bool>{false, true, true}));
  auto d = (array<double>({1.0, -1.0, 0.0}, device()) / 0.0).to_vector<double>();
  EXPECT_EQ(d[0], inf);
  EXPECT_EQ(d[1], -inf);
  EXPECT_TRUE(std::isnan(d[2]));
  // Integer division by zero gives 0 as NumPy (with a warning there).
  EXPECT_EQ(floor_divide(array<std::int32_t>({7}, device()), 0).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0}));
}

INSTANTIATE_DEVICE_TEST(Ufuncs);

}  // namespace
