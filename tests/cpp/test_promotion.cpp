// promote_types and can_cast against NumPy's own tables, pasted as literals (generated
// once with numpy 2.4: [[np.promote_types(a, b) for b in D] for a in D]).
#include <gtest/gtest.h>

#include "copper/copper.hpp"

namespace {
using namespace copper;

constexpr DType b_ = DType::bool_, i8 = DType::int8, u8 = DType::uint8, i16 = DType::int16, u16 = DType::uint16,
                i32 = DType::int32, u32 = DType::uint32, i64 = DType::int64, u64 = DType::uint64,
                f16 = DType::float16, f32 = DType::float32, f64 = DType::float64, c64 = DType::complex64,
                c128 = DType::complex128;

TEST(Promotion, PromoteTypesMatchesNumpyTable) {
  // Rows and columns in DType order: bool, int8, uint8, ..., complex128.
  constexpr DType expected[num_dtypes][num_dtypes] = {
      {  b_,   i8,   u8,  i16,  u16,  i32,  u32,  i64,  u64,  f16,  f32,  f64,  c64, c128},  // bool
      {  i8,   i8,  i16,  i16,  i32,  i32,  i64,  i64,  f64,  f16,  f32,  f64,  c64, c128},  // int8
      {  u8,  i16,   u8,  i16,  u16,  i32,  u32,  i64,  u64,  f16,  f32,  f64,  c64, c128},  // uint8
      { i16,  i16,  i16,  i16,  i32,  i32,  i64,  i64,  f64,  f32,  f32,  f64,  c64, c128},  // int16
      { u16,  i32,  u16,  i32,  u16,  i32,  u32,  i64,  u64,  f32,  f32,  f64,  c64, c128},  // uint16
      { i32,  i32,  i32,  i32,  i32,  i32,  i64,  i64,  f64,  f64,  f64,  f64, c128, c128},  // int32
      { u32,  i64,  u32,  i64,  u32,  i64,  u32,  i64,  u64,  f64,  f64,  f64, c128, c128},  // uint32
      { i64,  i64,  i64,  i64,  i64,  i64,  i64,  i64,  f64,  f64,  f64,  f64, c128, c128},  // int64
      { u64,  f64,  u64,  f64,  u64,  f64,  u64,  f64,  u64,  f64,  f64,  f64, c128, c128},  // uint64
      { f16,  f16,  f16,  f32,  f32,  f64,  f64,  f64,  f64,  f16,  f32,  f64,  c64, c128},  // float16
      { f32,  f32,  f32,  f32,  f32,  f64,  f64,  f64,  f64,  f32,  f32,  f64,  c64, c128},  // float32
      { f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64, c128, c128},  // float64
      { c64,  c64,  c64,  c64,  c64, c128, c128, c128, c128,  c64,  c64, c128,  c64, c128},  // complex64
      {c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128},  // complex128
  };
  for (int a = 0; a < num_dtypes; ++a) {
    for (int b = 0; b < num_dtypes; ++b) {
      EXPECT_EQ(promote_types(static_cast<DType>(a), static_cast<DType>(b)), expected[a][b])
          << name(static_cast<DType>(a)) << " + " << name(static_cast<DType>(b));
    }
  }
}

TEST(Promotion, CanCastSamples) {
  // Values from numpy.can_cast(from, to, casting).
  EXPECT_TRUE(can_cast(i8, i16, Casting::safe));
  EXPECT_FALSE(can_cast(i16, i8, Casting::safe));
  EXPECT_TRUE(can_cast(i16, i8, Casting::same_kind));
  EXPECT_FALSE(can_cast(f64, i64, Casting::same_kind));
  EXPECT_TRUE(can_cast(f64, i64, Casting::unsafe));
  EXPECT_TRUE(can_cast(u8, f16, Casting::safe));
  EXPECT_FALSE(can_cast(u16, f16, Casting::safe));
  EXPECT_TRUE(can_cast(i64, f64, Casting::safe));
  EXPECT_FALSE(can_cast(u64, i64, Casting::safe));
  EXPECT_TRUE(can_cast(u64, i64, Casting::same_kind));
  EXPECT_FALSE(can_cast(c64, f64, Casting::same_kind));
  EXPECT_TRUE(can_cast(f64, c64, Casting::same_kind));
  EXPECT_FALSE(can_cast(f64, c64, Casting::safe));
  EXPECT_TRUE(can_cast(b_, u8, Casting::safe));
  EXPECT_FALSE(can_cast(i8, b_, Casting::same_kind));
  EXPECT_TRUE(can_cast(f32, f32, Casting::no));
  EXPECT_FALSE(can_cast(f32, f64, Casting::no));
  EXPECT_FALSE(can_cast(f32, f64, Casting::equiv));
}

TEST(Promotion, ResultTypeWithWeakScalars) {
  auto arr = [](DType t) { return operand(empty(Shape{2}, t, cpu)); };
  EXPECT_EQ(result_type({arr(f32), 5}), f32);
  EXPECT_EQ(result_type({arr(f32), 2.5}), f32);
  EXPECT_EQ(result_type({arr(f16), 1.0}), f16);
  EXPECT_EQ(result_type({arr(b_), 1}), i64);
  EXPECT_EQ(result_type({arr(b_), 1.5}), f64);
  EXPECT_EQ(result_type({arr(i8), 1.5}), f64);
  EXPECT_EQ(result_type({arr(i8), 300}), i8);  // result_type itself does not check bounds
  EXPECT_EQ(result_type({arr(f32), std::complex<double>(1, 2)}), c64);
  EXPECT_EQ(result_type({arr(i16), std::complex<double>(0, 1)}), c128);
  EXPECT_EQ(result_type({arr(i8), arr(u8), 7}), i16);
  EXPECT_EQ(result_type({operand(1), operand(2.0)}), f64);
  EXPECT_EQ(result_type({operand(true)}), b_);
  EXPECT_EQ(result_type({arr(i8), Scalar::typed(Scalar(1), i16)}), i16);  // typed scalars are strong
}

}  // namespace
