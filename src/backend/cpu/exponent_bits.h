// ldexp and frexp of float32/float64 by exponent arithmetic on the bits, a block at a time.
// For a normal x whose result is normal, ldexp only adds k to the exponent field and frexp
// only reads and resets it: integer adds, shifts and ORs that GCC vectorizes at the baseline
// ISA, exact, where libm's ldexp/frexp cost a call per element (4-11x NumPy's time). Zeros,
// subnormals, infinities, NaN and results leaving the normal range make the block report
// itself; the caller then runs its general loop (libm) over that block instead.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace copper::backend::cpu::exponent_bits {

template <class T> struct Layout;
template <> struct Layout<float> {
  using U = std::uint32_t;
  static constexpr int mantissa_bits = 23;
  static constexpr int field_bits = 8;
  static constexpr std::uint64_t half_exponent = 126;  // the field of a value in [0.5, 1)
};
template <> struct Layout<double> {
  using U = std::uint64_t;
  static constexpr int mantissa_bits = 52;
  static constexpr int field_bits = 11;
  static constexpr std::uint64_t half_exponent = 1022;
};

// Nonzero unless the exponent field v (as an unsigned 64-bit value, wrapped if it came out
// negative) is in [1, 2**bits - 2], a normal number's: no compares, which SSE2 lacks for
// 64-bit lanes.
template <class T> inline std::uint64_t outside_normal(std::uint64_t v) {
  return ((v - 1) | (v + 1)) >> Layout<T>::field_bits;
}

// out[i] = x[i] * 2**k[i] for n elements (contiguous), unless some element is not the plain
// case: then false, and out is written anyway (a block buffer, not the caller's output).
template <class T>
bool ldexp_block(const T* x, const std::int64_t* k, T* out, std::int64_t n) {
  using L = Layout<T>;
  using U = typename L::U;
  std::uint64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    U bits;
    std::int64_t e;
    std::memcpy(&bits, x + i, sizeof(T));
    std::memcpy(&e, k + i, sizeof(e));
    const std::uint64_t field = (bits >> L::mantissa_bits) & ((1u << L::field_bits) - 1);
    bad |= outside_normal<T>(field) | outside_normal<T>(field + static_cast<std::uint64_t>(e));
    const U result = static_cast<U>(bits + (static_cast<U>(e) << L::mantissa_bits));
    std::memcpy(out + i, &result, sizeof(T));
  }
  return bad == 0;
}

// (mantissa in [0.5, 1), exponent) of n contiguous x, unless some element is zero,
// subnormal, infinite or NaN (then false, outputs written anyway).
template <class T>
bool frexp_block(const T* x, T* mantissa, std::int32_t* exponent, std::int64_t n) {
  using L = Layout<T>;
  using U = typename L::U;
  std::uint64_t bad = 0;
  constexpr U field_mask = (U{1} << L::field_bits) - 1;
  for (std::int64_t i = 0; i < n; ++i) {
    U bits;
    std::memcpy(&bits, x + i, sizeof(T));
    const U field = (bits >> L::mantissa_bits) & field_mask;
    bad |= outside_normal<T>(field);
    const U m = (bits & ~(field_mask << L::mantissa_bits)) | static_cast<U>(L::half_exponent << L::mantissa_bits);
    std::memcpy(mantissa + i, &m, sizeof(T));
    exponent[i] = static_cast<std::int32_t>(field) - static_cast<std::int32_t>(L::half_exponent);
  }
  return bad == 0;
}

}  // namespace copper::backend::cpu::exponent_bits
