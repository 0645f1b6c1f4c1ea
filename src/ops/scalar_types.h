// Element types shared by host code and NVRTC-compiled device code: fixed-width
// integers, float16 storage, complex numbers, and the traits the op functors use.
// Self-contained on purpose: NVRTC has no standard library, so this header must
// not include one when compiled there.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define COPPER_HD __host__ __device__ __forceinline__
#else
#define COPPER_HD inline
#endif

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <cmath>
#include <cstdint>
#include <cstring>
#endif

namespace copper::ops {

// ---- traits (no <type_traits> under NVRTC) ----
template <class A, class B> inline constexpr bool is_same_v = false;
template <class A> inline constexpr bool is_same_v<A, A> = true;

template <class T> inline constexpr bool is_signed_int_v =
    is_same_v<T, int8_t> || is_same_v<T, int16_t> || is_same_v<T, int32_t> || is_same_v<T, int64_t>;
template <class T> inline constexpr bool is_unsigned_int_v =
    is_same_v<T, uint8_t> || is_same_v<T, uint16_t> || is_same_v<T, uint32_t> || is_same_v<T, uint64_t>;
template <class T> inline constexpr bool is_int_v = is_signed_int_v<T> || is_unsigned_int_v<T>;
template <class T> inline constexpr bool is_float_v = is_same_v<T, float> || is_same_v<T, double>;

template <class R> struct complex;
template <class T> inline constexpr bool is_complex_v = false;
template <class R> inline constexpr bool is_complex_v<complex<R>> = true;

template <class T> concept Bool = is_same_v<T, bool>;
template <class T> concept SignedInt = is_signed_int_v<T>;
template <class T> concept UnsignedInt = is_unsigned_int_v<T>;
template <class T> concept Int = is_int_v<T>;
template <class T> concept Float = is_float_v<T>;
template <class T> concept Complex = is_complex_v<T>;
template <class T> concept Inexact = Float<T> || Complex<T>;
template <class T> concept Real = Int<T> || Float<T>;          // ordered, non-bool
template <class T> concept Number = Int<T> || Inexact<T>;       // everything but bool
template <class T> concept IntOrBool = Int<T> || Bool<T>;

template <class T> struct make_unsigned { using type = T; };
template <> struct make_unsigned<int8_t> { using type = uint8_t; };
template <> struct make_unsigned<int16_t> { using type = uint16_t; };
template <> struct make_unsigned<int32_t> { using type = uint32_t; };
template <> struct make_unsigned<int64_t> { using type = uint64_t; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;

// ---- float16 ----
// Storage only: arithmetic on float16 runs in float32 and rounds back, which is
// what NumPy's float16 loops do. The kernels convert at load and store.
struct half {
  uint16_t bits;
};

COPPER_HD uint32_t float_bits(float f) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}
COPPER_HD float bits_float(uint32_t u) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

COPPER_HD uint64_t double_bits(double d) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return static_cast<uint64_t>(__double_as_longlong(d));
#else
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
#endif
}
COPPER_HD double bits_double(uint64_t u) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __longlong_as_double(static_cast<long long>(u));
#else
  double d;
  std::memcpy(&d, &u, 8);
  return d;
#endif
}

// Round-to-nearest-even float32 -> float16, with overflow to inf and NaN kept quiet.
COPPER_HD half float_to_half(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {  // inf or NaN
    return half{static_cast<uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x0200u | ((ax >> 13) & 0x3ffu) : 0u))};
  }
  if (ax >= 0x477ff000u) return half{static_cast<uint16_t>(sign | 0x7c00u)};  // rounds past 65504
  if (ax < 0x38800000u) {  // subnormal half (or zero): shift the implicit-1 mantissa into place
    if (ax < 0x33000000u) return half{static_cast<uint16_t>(sign)};  // below half the smallest subnormal
    uint32_t e = ax >> 23;
    uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e;  // 14 + (112 - e) + ... : bits to drop to land on 2^-24 units
    uint32_t r = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
    return half{static_cast<uint16_t>(sign | r)};
  }
  uint32_t r = ax - 0x38000000u;  // rebias exponent 127 -> 15
  uint32_t mant_rem = r & 0x1fffu;
  r >>= 13;
  if (mant_rem > 0x1000u || (mant_rem == 0x1000u && (r & 1u))) ++r;
  return half{static_cast<uint16_t>(sign | r)};
}

COPPER_HD float half_to_float(half h) {
  uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
  uint32_t e = (h.bits >> 10) & 0x1fu;
  uint32_t m = h.bits & 0x3ffu;
  if (e == 0x1fu) return bits_float(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0) return bits_float(sign);
    float v = static_cast<float>(m) * (1.0f / 16777216.0f);  // m * 2^-24
    return sign ? -v : v;
  }
  return bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

// What a loop over T computes in: float16 runs in float32, everything else in itself.
template <class T> struct compute_type { using type = T; };
template <> struct compute_type<half> { using type = float; };
template <class T> using compute_t = typename compute_type<T>::type;

// ---- complex ----
// Arithmetic reproduces NumPy's loops bit for bit: multiply uses one fused
// multiply-add per part (NumPy's SIMD complex multiply does), division is
// Smith's algorithm with NumPy's branch for a zero divisor.
COPPER_HD float fused_mul_add(float a, float b, float c) { return ::fmaf(a, b, c); }
COPPER_HD double fused_mul_add(double a, double b, double c) { return ::fma(a, b, c); }
COPPER_HD float abs_value(float x) { return ::fabsf(x); }
COPPER_HD double abs_value(double x) { return ::fabs(x); }
// A product the compiler may not fuse into a following add or subtract, where
// NumPy's formula rounds both: NVRTC fuses by default (--fmad=true), and GCC
// fuses in vectorized code even with -ffp-contract=off once FMA is enabled
// (-march=native). The empty asm makes the product opaque on such hosts.
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
COPPER_HD float mul_rn(float a, float b) { return __fmul_rn(a, b); }
COPPER_HD double mul_rn(double a, double b) { return __dmul_rn(a, b); }
#else
template <class R> COPPER_HD R mul_rn(R a, R b) {
  R p = a * b;
#if defined(__GNUC__) && defined(__x86_64__) && defined(__FMA__)
  __asm__("" : "+v"(p));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(p));
#endif
  return p;
}
#endif

template <class R>
struct complex {
  R re, im;
  COPPER_HD constexpr complex() : re(0), im(0) {}
  COPPER_HD constexpr complex(R r, R i = R(0)) : re(r), im(i) {}
  template <class S>
  COPPER_HD constexpr explicit complex(const complex<S>& o) : re(static_cast<R>(o.re)), im(static_cast<R>(o.im)) {}
};
template <class R> COPPER_HD complex<R> operator+(complex<R> a, complex<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R> COPPER_HD complex<R> operator-(complex<R> a, complex<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R> COPPER_HD complex<R> operator+(complex<R> a) { return a; }
template <class R> COPPER_HD complex<R> operator-(complex<R> a) { return {-a.re, -a.im}; }
template <class R> COPPER_HD complex<R> operator*(complex<R> a, complex<R> b) {
  return {fused_mul_add(a.re, b.re, -(a.im * b.im)), fused_mul_add(a.re, b.im, a.im * b.re)};
}
template <class R> COPPER_HD complex<R> operator/(complex<R> a, complex<R> b) {
  R abr = abs_value(b.re), abi = abs_value(b.im);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {a.re / abr, a.im / abi};  // inf or nan parts, as NumPy
    R rat = b.im / b.re;
    R scl = R(1) / (b.re + mul_rn(b.im, rat));
    return {(a.re + mul_rn(a.im, rat)) * scl, (a.im - mul_rn(a.re, rat)) * scl};
  }
  R rat = b.re / b.im;  // also taken when a part of b is NaN
  R scl = R(1) / (b.im + mul_rn(b.re, rat));
  return {(mul_rn(a.re, rat) + a.im) * scl, (mul_rn(a.im, rat) - a.re) * scl};
}
template <class R> COPPER_HD complex<R>& operator+=(complex<R>& a, complex<R> b) { return a = a + b; }
template <class R> COPPER_HD complex<R>& operator-=(complex<R>& a, complex<R> b) { return a = a - b; }
template <class R> COPPER_HD complex<R>& operator*=(complex<R>& a, complex<R> b) { return a = a * b; }
template <class R> COPPER_HD complex<R>& operator/=(complex<R>& a, complex<R> b) { return a = a / b; }
template <class R> COPPER_HD bool operator==(complex<R> a, complex<R> b) { return a.re == b.re && a.im == b.im; }
template <class R> COPPER_HD bool operator!=(complex<R> a, complex<R> b) { return !(a == b); }
using complex64 = complex<float>;
using complex128 = complex<double>;

// ---- two-output ops ----
// divmod, modf and frexp return both results at once; each part is stored in its own array.
template <class A, class B> struct pair {
  A first;
  B second;
};
template <class T> inline constexpr bool is_pair_v = false;
template <class A, class B> inline constexpr bool is_pair_v<pair<A, B>> = true;
template <bool C, class A, class B> struct select_type { using type = A; };
template <class A, class B> struct select_type<false, A, B> { using type = B; };
template <bool C, class A, class B> using select_t = typename select_type<C, A, B>::type;
// An op that handles float16 itself (nextafter, spacing: NumPy steps in half precision)
// overloads call() for this concept; every other op sees float16 as float32.
template <class T> concept Half = is_same_v<T, half>;

}  // namespace copper::ops
