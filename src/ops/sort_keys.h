// NumPy's sort order as unsigned integer keys, written once for the CPU backend and the
// ahead-of-time CUDA code (nvcc): every dtype maps to 8/16/32/64-bit unsigned keys whose
// integer order is NumPy's order, so one unsigned sort (radix or SIMD) serves them all.
//
// Two encodings of a real element's bits:
//   exact      a bijection: decode(encode(x)) has x's bits. Order: NumPy's for numbers;
//              -0.0 before +0.0; NaNs after +inf (positive, then negative ones). For
//              sorting values, where equal elements may come out in any order.
//   canonical  NumPy-equal elements get equal keys: -0.0 == +0.0, every NaN is the
//              largest key. For argsort (stable), searchsorted, unique and lexsort.
// Complex numbers order as NumPy's: by real part, then imaginary part, with the classes
// [R + Rj, R + nanj, nan + Rj, nan + nanj] in that order; complex_keys gives three
// canonical keys (class, real, imaginary) compared in that order.
#pragma once

#if defined(__CUDACC__)
#define COPPER_SORT_HD __host__ __device__ __forceinline__
#else
#define COPPER_SORT_HD inline
#endif

#include <cstdint>

namespace copper::ops::sort_keys {

template <class U> inline constexpr U kSign = U(U(1) << (8 * sizeof(U) - 1));
// Mantissa masks: the exact key of -inf is 0 after subtracting this.
template <class U> inline constexpr U kMantissa = U(0);
template <> inline constexpr std::uint16_t kMantissa<std::uint16_t> = 0x03FFu;
template <> inline constexpr std::uint32_t kMantissa<std::uint32_t> = 0x007FFFFFu;
template <> inline constexpr std::uint64_t kMantissa<std::uint64_t> = 0x000FFFFFFFFFFFFFull;

// IEEE bits of float16/32/64 (U = uint16/32/64).
template <class U> COPPER_SORT_HD bool is_nan_bits(U bits) {
  return U(bits & U(~kSign<U>)) > U(U(~kSign<U>) & U(~kMantissa<U>));
}

// The bits of a quiet NaN of U's width (float16, float32, float64).
template <class U> COPPER_SORT_HD U quiet_nan_bits() {
  if constexpr (sizeof(U) == 2) return U(0x7E00u);
  else if constexpr (sizeof(U) == 4) return U(0x7FC00000u);
  else return U(0x7FF8000000000000ull);
}

// Sign-magnitude to two's-complement order, then -inf moved to 0 so the negative NaNs
// (below -inf before the shift) wrap around to the top, above the positive NaNs.
template <class U> COPPER_SORT_HD U float_key_exact(U bits) {
  const U ordered = (bits & kSign<U>) ? U(~bits) : U(bits | kSign<U>);
  return U(ordered - kMantissa<U>);
}
template <class U> COPPER_SORT_HD U float_from_key_exact(U key) {
  const U ordered = U(key + kMantissa<U>);
  return (ordered & kSign<U>) ? U(ordered & U(~kSign<U>)) : U(~ordered);
}
template <class U> COPPER_SORT_HD U float_key_canonical(U bits) {
  if (is_nan_bits(bits)) return U(~U(0));
  if (bits == kSign<U>) bits = 0;  // -0.0 sorts with +0.0
  return float_key_exact(bits);
}

template <class U> COPPER_SORT_HD U signed_key(U bits) { return U(bits ^ kSign<U>); }

// The class of a complex number in NumPy's order: 0 both parts numbers, 1 only the
// imaginary part NaN, 2 the real part NaN, 3 both NaN.
template <class U> COPPER_SORT_HD std::uint8_t complex_class(U re, U im) {
  const bool re_nan = is_nan_bits(re), im_nan = is_nan_bits(im);
  return static_cast<std::uint8_t>(re_nan ? (im_nan ? 3 : 2) : (im_nan ? 1 : 0));
}
// The real and imaginary keys of a complex number: a part that cannot tell two numbers
// of its class apart (a NaN part) is 0.
template <class U> COPPER_SORT_HD U complex_real_key(U re, U im) {
  return complex_class(re, im) < 2 ? float_key_canonical(re) : U(0);
}
template <class U> COPPER_SORT_HD U complex_imag_key(U re, U im) {
  const std::uint8_t c = complex_class(re, im);
  return (c == 0 || c == 2) ? float_key_canonical(im) : U(0);
}

// How a real element's bits become a key (complex numbers use the complex_* functions).
enum class KeyClass : std::uint8_t { boolean, signed_int, unsigned_int, floating };

template <class U> COPPER_SORT_HD U encode_key(KeyClass c, U bits, bool canonical) {
  switch (c) {
    case KeyClass::boolean: return canonical ? U(bits != 0) : bits;
    case KeyClass::signed_int: return signed_key(bits);
    case KeyClass::unsigned_int: return bits;
    default: return canonical ? float_key_canonical(bits) : float_key_exact(bits);
  }
}
// The inverse of the exact encoding.
template <class U> COPPER_SORT_HD U decode_key(KeyClass c, U key) {
  switch (c) {
    case KeyClass::signed_int: return signed_key(key);
    case KeyClass::floating: return float_from_key_exact(key);
    default: return key;
  }
}

}  // namespace copper::ops::sort_keys
