// Integer ufuncs (scalar_ops.h includes this file; the same conventions apply):
// gcd, lcm and bitwise_count work on magnitudes, computed unsigned so INT_MIN wraps
// the way NumPy's results do (gcd(-128, 0) == -128 in int8).
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops {

namespace detail {
template <class T> COPPER_HD make_unsigned_t<T> magnitude(T x) {
  using U = make_unsigned_t<T>;
  if constexpr (is_signed_int_v<T>) return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
  else return x;
}
template <class U> COPPER_HD U euclid(U a, U b) {
  while (b != 0) {
    const U t = static_cast<U>(a % b);
    a = b;
    b = t;
  }
  return a;
}
// Set bits of a 64-bit word, without compiler builtins (NVRTC and g++ alike).
COPPER_HD int popcount64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((v * 0x0101010101010101ull) >> 56);
}
// The same for an unsigned type of any width by shifts, masks and adds at that width: no
// multiply, no builtin, so the host compiler vectorizes it at the baseline x86-64 ISA, which
// has neither popcnt nor a 64-bit vector multiply (the word-wide form ran 5-17x NumPy's time).
template <class U> COPPER_HD int popcount_narrow(U v) {
  constexpr int bits = 8 * static_cast<int>(sizeof(U));
  v = static_cast<U>(v - ((v >> 1) & static_cast<U>(0x5555555555555555ull)));
  v = static_cast<U>((v & static_cast<U>(0x3333333333333333ull)) + ((v >> 2) & static_cast<U>(0x3333333333333333ull)));
  v = static_cast<U>((v + (v >> 4)) & static_cast<U>(0x0f0f0f0f0f0f0f0full));
  if constexpr (bits > 8) v = static_cast<U>(v + (v >> 8));
  if constexpr (bits > 16) v = static_cast<U>(v + (v >> 16));
  if constexpr (bits > 32) v = static_cast<U>(v + (v >> 32));
  return static_cast<int>(v & 0x7f);
}
}  // namespace detail

struct gcd {
  template <Int T> COPPER_HD static T call(T a, T b) {
    return static_cast<T>(detail::euclid(detail::magnitude(a), detail::magnitude(b)));
  }
};

// |a| / gcd * |b|, wrapping; 0 when either is 0.
struct lcm {
  template <Int T> COPPER_HD static T call(T a, T b) {
    using W = decltype(make_unsigned_t<T>{} + 0u);  // no promotion to signed int
    const auto x = detail::magnitude(a), y = detail::magnitude(b);
    const auto g = detail::euclid(x, y);
    if (g == 0) return T(0);
    return static_cast<T>(static_cast<W>(x / g) * static_cast<W>(y));
  }
};

// Set bits of |x| (NumPy counts the magnitude of signed values).
struct bitwise_count {
  template <Int T> COPPER_HD static uint8_t call(T x) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
    return static_cast<uint8_t>(detail::popcount64(static_cast<uint64_t>(detail::magnitude(x))));
#else
    return static_cast<uint8_t>(detail::popcount_narrow(detail::magnitude(x)));
#endif
  }
};

}  // namespace copper::ops
