// Floating-point ufuncs over float16/32/64 (scalar_ops.h includes this file; the same
// conventions apply): sign and bit manipulation, unit conversion, log-sum-exp, and the
// two-output modf and frexp. nextafter and spacing overload call() on Half, because
// NumPy steps float16 in half precision where widening to float32 would not move.
#pragma once
#include "ops/scalar_invoke.h"
#include "ops/scalar_math.h"

namespace copper::ops {

namespace detail {
template <class R> COPPER_HD R smallest_subnormal() {
  if constexpr (is_same_v<R, float>) return bits_float(1u);
  else return bits_double(1ull);
}
COPPER_HD half half_from_float(float f) { return float_to_half(f); }
COPPER_HD bool half_isnan(half h) { return (h.bits & 0x7fffu) > 0x7c00u; }
}  // namespace detail

struct fabs {
  template <Float T> COPPER_HD static T call(T x) { return math::fabs(x); }
};

struct signbit {
  template <Float T> COPPER_HD static bool call(T x) { return math::signbit(x); }
};

struct copysign {
  template <Float T> COPPER_HD static T call(T a, T b) { return math::copysign(a, b); }
};

struct nextafter {
  template <Float T> COPPER_HD static T call(T a, T b) { return math::nextafter(a, b); }
  // float16: one step of the 16-bit pattern; equal inputs return the second, as C99's
  // nextafter and NumPy 2.5's half loop do (so nextafter(0, -0) is -0).
  template <Half T> COPPER_HD static T call(T a, T b) {
    if (detail::half_isnan(a) || detail::half_isnan(b)) return T{0x7e00u};
    const float x = half_to_float(a), y = half_to_float(b);
    if (x == y) return b;
    if (x == 0) return T{static_cast<uint16_t>((b.bits & 0x8000u) | 1u)};
    const bool away = (x < y) == (x > 0);  // the magnitude grows
    return T{static_cast<uint16_t>(away ? a.bits + 1u : a.bits - 1u)};
  }
};

// The gap from x to the next value away from zero, with x's sign; +-0 give the smallest
// positive subnormal; inf and NaN give NaN.
struct spacing {
  template <Float T> COPPER_HD static T call(T x) {
    if (!math::isfinite(x)) return math::fp<T>::nan();
    if (x == 0) return detail::smallest_subnormal<T>();
    return math::nextafter(x, math::copysign(math::fp<T>::inf(), x)) - x;
  }
  // NumPy's float16 spacing is always positive: away from zero for positive values, the
  // gap towards zero for negative ones (and the smallest subnormal for -0).
  template <Half T> COPPER_HD static T call(T h) {
    const uint16_t mag = h.bits & 0x7fffu;
    if (mag >= 0x7c00u) return T{0x7e00u};
    if (h.bits & 0x8000u) {
      if (mag == 0) return T{1u};
      return detail::half_from_float(half_to_float(T{mag}) - half_to_float(T{static_cast<uint16_t>(mag - 1u)}));
    }
    return detail::half_from_float(half_to_float(T{static_cast<uint16_t>(mag + 1u)}) - half_to_float(h));
  }
};

// x * 2**e; the exponent is int64 in every loop (NumPy also lists int32-exponent loops,
// which give the same results), clamped to int as NumPy's int64 loops do.
struct ldexp {
  template <class T, int K> using input = select_t<K == 0, T, int64_t>;
  template <Float T> COPPER_HD static T call(T x, int64_t e) {
    const int k = e > 2147483647 ? 2147483647 : e < -2147483647 - 1 ? -2147483647 - 1 : static_cast<int>(e);
    return math::ldexp(x, k);
  }
};

// (mantissa in [0.5, 1), exponent): x == mantissa * 2**exponent; 0, inf and NaN give (x, 0).
struct frexp {
  template <Float T> COPPER_HD static pair<T, int32_t> call(T x) {
    if (x == 0 || !math::isfinite(x)) return {x, 0};
    int e = 0;
    const T m = math::frexp(x, &e);
    return {m, e};
  }
};

// (fractional part, integral part), both with x's sign.
struct modf {
  template <Float T> COPPER_HD static pair<T, T> call(T x) {
    T ip = 0;
    const T f = math::modf(x, &ip);
    return {f, ip};
  }
};

// 0 below zero, 1 above, h0 at zero, NaN for NaN.
struct heaviside {
  template <Float T> COPPER_HD static T call(T x, T h0) {
    if (math::isnan(x)) return x;
    return x < 0 ? T(0) : x > 0 ? T(1) : h0;
  }
};

// One multiplication by NumPy's constants: float32 rad2deg uses 180f / float(pi).
struct deg2rad {
  template <Float T> COPPER_HD static T call(T x) { return x * T(math::pi / 180.0); }
};
struct rad2deg {
  template <Float T> COPPER_HD static T call(T x) {
    if constexpr (is_same_v<T, float>) return x * (180.0f / static_cast<float>(math::pi));
    else return x * (180.0 / math::pi);
  }
};
struct radians : deg2rad {};
struct degrees : rad2deg {};

// log(exp(x) + exp(y)) without overflow; equal inputs (the infinities among them) short-cut.
struct logaddexp {
  template <Float T> COPPER_HD static T call(T x, T y) {
    if (x == y) return x + T(math::ln2);
    const T d = x - y;
    if (d > 0) return x + math::log1p(math::exp(-d));
    if (d <= 0) return y + math::log1p(math::exp(d));
    return d;  // NaN
  }
};
struct logaddexp2 {
  template <Float T> COPPER_HD static T call(T x, T y) {
    if (x == y) return x + T(1);
    const T d = x - y;
    if (d > 0) return x + T(math::log2e) * math::log1p(math::exp2(-d));
    if (d <= 0) return y + T(math::log2e) * math::log1p(math::exp2(d));
    return d;
  }
};

// The modified Bessel function of the first kind, order 0 (NumPy's i0 is a Python
// function; copper::i0 runs this op): the Cephes Chebyshev expansions on [0, 8] and
// (8, inf), evaluated in T as NumPy's does (so float32 stays float32).
struct bessel_i0 {
  template <Float T> COPPER_HD static T call(T x) {
    // Local arrays, not static members: device code may index them too.
    const double a[30] = {
        -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
        -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
        -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
        -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
        -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
        -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
        -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
        -0.3046826723431984, 0.6767952744094761};
    const double b[25] = {
        -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
        -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
        -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
        1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
        2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
        0.8044904110141088};
    x = math::fabs(x);
    if (x <= T(8)) return math::exp(x) * chebyshev(x / T(2) - T(2), a, 30);
    return math::exp(x) * chebyshev(T(32) / x - T(2), b, 25) / math::sqrt(x);
  }

 private:
  template <class T> COPPER_HD static T chebyshev(T x, const double* c, int n) {
    T b0 = T(c[0]), b1 = 0, b2 = 0;
    for (int i = 1; i < n; ++i) {
      b2 = b1;
      b1 = b0;
      b0 = mul_rn(x, b1) - b2 + T(c[i]);
    }
    return T(0.5) * (b0 - b2);
  }
};

}  // namespace copper::ops
