// Value conversion between element types, as astype(..., casting='unsafe') does it.
// Shared by host and device code. Float -> int conversions that C++ leaves undefined
// (NaN, out of range) give what NumPy gives on x86-64: the integer "indefinite" value.
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops {

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<complex<R>> { using type = R; };

// Signed result of truncating d, or INT64_MIN when it does not fit (NaN, inf, out of range).
COPPER_HD int64_t float_to_int64(double d) {
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return static_cast<int64_t>(0x8000000000000000ull);
  return static_cast<int64_t>(d);
}
COPPER_HD int32_t float_to_int32(double d) {
  if (!(d > -2147483649.0 && d < 2147483648.0)) return static_cast<int32_t>(0x80000000u);
  return static_cast<int32_t>(d);
}
COPPER_HD uint64_t float_to_uint64(double d) {
  if (d >= 0 && d < 18446744073709551616.0) return static_cast<uint64_t>(d);
  return static_cast<uint64_t>(float_to_int64(d));  // negative values wrap as on x86-64
}

template <class To, class From>
COPPER_HD To cast(From x) {
  if constexpr (is_same_v<To, From>) {
    return x;
  } else if constexpr (is_same_v<From, half>) {
    return cast<To>(half_to_float(x));
  } else if constexpr (is_same_v<To, half>) {
    if constexpr (is_complex_v<From>) return float_to_half(static_cast<float>(x.re));
    // float64 -> float16 rounds twice (via float32); NumPy rounds once, so rare ties may differ in the last bit.
    else return float_to_half(static_cast<float>(x));
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) return To(x);
    else if constexpr (is_same_v<To, bool>) return x.re != 0 || x.im != 0;  // truth of the whole value
    else return cast<To>(x.re);  // NumPy drops the imaginary part (ComplexWarning)
  } else if constexpr (is_complex_v<To>) {
    using R = typename real_of<To>::type;
    return To(cast<R>(x), R(0));
  } else if constexpr (is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (is_int_v<To> && is_float_v<From>) {
    // x86-64 converts to the narrow types through a 32-bit conversion, to uint32 and
    // int64 through a 64-bit one; NumPy's results follow the instruction used.
    double d = static_cast<double>(x);
    if constexpr (is_same_v<To, uint64_t>) return float_to_uint64(d);
    else if constexpr (sizeof(To) == 8 || is_same_v<To, uint32_t>) return static_cast<To>(float_to_int64(d));
    else return static_cast<To>(float_to_int32(d));
  } else {
    return static_cast<To>(x);  // int -> int wraps (C++20), int -> float rounds, float -> float rounds
  }
}

}  // namespace copper::ops
