// Math functions over float, double and complex, usable on host and device.
// Host code maps to the C library, device code to CUDA's math builtins; both
// spell them the same (::sqrt, ::sqrtf), which keeps this header small.
//
// Complex functions follow C99 Annex G for special values (NumPy on glibc uses
// the C library's), and are written for accuracy: complex64 ones run in double
// and round once. Power keeps NumPy's own structure (small integer exponents
// by repeated multiplication) so results agree with NumPy bit for bit there.
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops::math {

// ---------------- constants ----------------
template <class R> struct fp;
template <> struct fp<float> {
  COPPER_HD static float inf() { return bits_float(0x7f800000u); }
  COPPER_HD static float nan() { return bits_float(0x7fc00000u); }
};
template <> struct fp<double> {
  COPPER_HD static double inf() { return bits_double(0x7ff0000000000000ull); }
  COPPER_HD static double nan() { return bits_double(0x7ff8000000000000ull); }
};

inline constexpr double pi = 3.141592653589793116;
inline constexpr double pi_2 = 1.570796326794896558;
inline constexpr double pi_4 = 0.7853981633974482790;
inline constexpr double pi_3_4 = 2.356194490192344837;
inline constexpr double ln2 = 0.6931471805599452862;
inline constexpr double ln2_lo = 2.319046813846299558e-17;  // ln2 - (double)ln2
inline constexpr double log2e = 1.442695040888963387;
inline constexpr double log10e = 0.4342944819032518167;
inline constexpr double log10_2 = 0.3010299956639811980;

// ---------------- classification (bit tests: immune to fast-math) ----------------
COPPER_HD bool isnan(float x) { return (float_bits(x) & 0x7fffffffu) > 0x7f800000u; }
COPPER_HD bool isnan(double x) { return (double_bits(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
COPPER_HD bool isinf(float x) { return (float_bits(x) & 0x7fffffffu) == 0x7f800000u; }
COPPER_HD bool isinf(double x) { return (double_bits(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull; }
COPPER_HD bool isfinite(float x) { return (float_bits(x) & 0x7fffffffu) < 0x7f800000u; }
COPPER_HD bool isfinite(double x) { return (double_bits(x) & 0x7fffffffffffffffull) < 0x7ff0000000000000ull; }
// isnan for the selects of maximum, minimum, fmax, fmin and clip. On the host x != x: copper
// builds without fast-math, and the compare vectorizes where the double bit test cannot
// (SSE2 has no 64-bit integer compare): minimum of 1e7 float64 ran at half NumPy's speed
// per thread. Devices keep the bit test.
template <class T> COPPER_HD bool isnan_for_select(T x) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return isnan(x);
#else
  return x != x;
#endif
}
COPPER_HD bool signbit(float x) { return (float_bits(x) >> 31) != 0; }
COPPER_HD bool signbit(double x) { return (double_bits(x) >> 63) != 0; }

// ---------------- real functions ----------------
#define COPPER_REAL_FN1(name, c)                            \
  COPPER_HD float name(float x) { return ::c##f(x); }   \
  COPPER_HD double name(double x) { return ::c(x); }
#define COPPER_REAL_FN2(name, c)                                       \
  COPPER_HD float name(float x, float y) { return ::c##f(x, y); }  \
  COPPER_HD double name(double x, double y) { return ::c(x, y); }
COPPER_REAL_FN1(sqrt, sqrt) COPPER_REAL_FN1(cbrt, cbrt) COPPER_REAL_FN1(exp, exp) COPPER_REAL_FN1(exp2, exp2)
COPPER_REAL_FN1(expm1, expm1) COPPER_REAL_FN1(log, log) COPPER_REAL_FN1(log2, log2) COPPER_REAL_FN1(log10, log10)
COPPER_REAL_FN1(log1p, log1p) COPPER_REAL_FN1(sin, sin) COPPER_REAL_FN1(cos, cos) COPPER_REAL_FN1(tan, tan)
COPPER_REAL_FN1(asin, asin) COPPER_REAL_FN1(acos, acos) COPPER_REAL_FN1(atan, atan) COPPER_REAL_FN1(sinh, sinh)
COPPER_REAL_FN1(cosh, cosh) COPPER_REAL_FN1(tanh, tanh) COPPER_REAL_FN1(asinh, asinh) COPPER_REAL_FN1(acosh, acosh)
COPPER_REAL_FN1(atanh, atanh) COPPER_REAL_FN1(floor, floor) COPPER_REAL_FN1(ceil, ceil) COPPER_REAL_FN1(trunc, trunc)
COPPER_REAL_FN1(rint, rint) COPPER_REAL_FN1(fabs, fabs)
COPPER_REAL_FN2(atan2, atan2) COPPER_REAL_FN2(fmod, fmod) COPPER_REAL_FN2(pow, pow)
COPPER_REAL_FN2(copysign, copysign) COPPER_REAL_FN2(nextafter, nextafter)
#undef COPPER_REAL_FN1
#undef COPPER_REAL_FN2
COPPER_HD float ldexp(float x, int e) { return ::ldexpf(x, e); }
COPPER_HD double ldexp(double x, int e) { return ::ldexp(x, e); }
COPPER_HD float frexp(float x, int* e) { return ::frexpf(x, e); }
COPPER_HD double frexp(double x, int* e) { return ::frexp(x, e); }
COPPER_HD float modf(float x, float* ip) { return ::modff(x, ip); }
COPPER_HD double modf(double x, double* ip) { return ::modf(x, ip); }
COPPER_HD float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
COPPER_HD double fma(double a, double b, double c) { return ::fma(a, b, c); }
// CUDA's hypot (not correctly rounded) can overflow where the result rounds to
// the largest finite value; redo those with the ratio form, exact when one
// operand dominates.
template <class R> COPPER_HD R hypot_near_max(R x, R y) {
  R ax = fabs(x), ay = fabs(y);
  if (ax < ay) {
    R t = ax;
    ax = ay;
    ay = t;
  }
  R r = ay / ax;
  return ax * sqrt(R(1) + r * r);
}
COPPER_HD float hypot(float x, float y) {
  float h = ::hypotf(x, y);
  if (isinf(h) && isfinite(x) && isfinite(y)) h = hypot_near_max(x, y);
  return h;
}
COPPER_HD double hypot(double x, double y) {
  double h = ::hypot(x, y);
  if (isinf(h) && isfinite(x) && isfinite(y)) h = hypot_near_max(x, y);
  return h;
}

// Complex math. Generated kernels whose dtypes are all real define COPPER_REAL_MATH_ONLY
// and leave it out: NVRTC would parse it for nothing (3-4 ms of a four-op chain kernel's
// 46 ms on a 2-core CPU; the 590 distinct cubins of the compile checks are byte-identical
// either way). So nothing for real types may call what follows.
#ifndef COPPER_REAL_MATH_ONLY
// ---------------- complex helpers ----------------
COPPER_HD float cabs(complex64 z) { return hypot(z.re, z.im); }
COPPER_HD double cabs(complex128 z) { return hypot(z.re, z.im); }
COPPER_HD float carg(complex64 z) { return ::atan2f(z.im, z.re); }
COPPER_HD double carg(complex128 z) { return ::atan2(z.im, z.re); }

// The textbook product, without fused operations: NumPy's power uses it.
template <class R> COPPER_HD complex<R> mul_plain(complex<R> a, complex<R> b) {
  return {mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re)};
}

// C99 Annex G multiplication: the textbook product, but where both parts come
// out NaN from infinite operands, the infinities are recovered. glibc's cpow
// multiplies b * log(a) this way, which fixes NumPy's special values of power.
COPPER_HD complex128 mul_c99(complex128 z, complex128 w) {
  double a = z.re, b = z.im, c = w.re, d = w.im;
  double ac = mul_rn(a, c), bd = mul_rn(b, d), ad = mul_rn(a, d), bc = mul_rn(b, c);  // unfused: inf - inf stays NaN
  double x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool recalc = false;
    if (isinf(a) || isinf(b)) {
      a = ::copysign(isinf(a) ? 1.0 : 0.0, a);
      b = ::copysign(isinf(b) ? 1.0 : 0.0, b);
      if (isnan(c)) c = ::copysign(0.0, c);
      if (isnan(d)) d = ::copysign(0.0, d);
      recalc = true;
    }
    if (isinf(c) || isinf(d)) {
      c = ::copysign(isinf(c) ? 1.0 : 0.0, c);
      d = ::copysign(isinf(d) ? 1.0 : 0.0, d);
      if (isnan(a)) a = ::copysign(0.0, a);
      if (isnan(b)) b = ::copysign(0.0, b);
      recalc = true;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(a)) a = ::copysign(0.0, a);
      if (isnan(b)) b = ::copysign(0.0, b);
      if (isnan(c)) c = ::copysign(0.0, c);
      if (isnan(d)) d = ::copysign(0.0, d);
      recalc = true;
    }
    if (recalc) {
      x = fp<double>::inf() * (a * c - b * d);
      y = fp<double>::inf() * (a * d + b * c);
    }
  }
  return {x, y};
}

namespace detail {
// s + e == a + b exactly.
COPPER_HD void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// c + x*x + y*y with the squares' rounding errors kept (c = -1 or 2x), which
// avoids cancellation near the unit circle; used for log and log1p.
COPPER_HD double sum_sq(double c, double x, double y) {
  double p1 = mul_rn(x, x), e1 = ::fma(x, x, -p1);  // p1 + e1 == x*x exactly, if p1 is not fused
  double p2 = mul_rn(y, y), e2 = ::fma(y, y, -p2);
  double s1, t1, s2, t2;
  two_sum(c, p1, s1, t1);
  two_sum(s1, p2, s2, t2);
  return s2 + (t1 + t2 + e1 + e2);
}

// log_b |x + iy| for finite x, y not both 0; kind 0: ln, 1: log2, 2: log10.
COPPER_HD double base_log(double h, int kind) { return kind == 0 ? ::log(h) : kind == 1 ? ::log2(h) : ::log10(h); }
COPPER_HD double base_ln2(int kind) { return kind == 0 ? ln2 : kind == 1 ? 1.0 : log10_2; }
COPPER_HD double base_scale(int kind) { return kind == 0 ? 1.0 : kind == 1 ? log2e : log10e; }
COPPER_HD double log_abs(double x, double y, int kind) {
  double ax = ::fabs(x), ay = ::fabs(y);
  if (ax < ay) {
    double t = ax;
    ax = ay;
    ay = t;
  }
  if (ax > 0x1p1020) return base_log(hypot(ax * 0.25, ay * 0.25), kind) + 2 * base_ln2(kind);
  if (ax < 0x1p-1000) return base_log(hypot(ax * 0x1p600, ay * 0x1p600), kind) - 600 * base_ln2(kind);
  double h = hypot(ax, ay);
  if (h >= 0.71 && h <= 1.73) return 0.5 * ::log1p(sum_sq(-1.0, ax, ay)) * base_scale(kind);
  return base_log(h, kind);
}

COPPER_HD complex128 log_base(complex128 z, int kind) {
  double x = z.re, y = z.im, re;
  if (isinf(x) || isinf(y)) re = fp<double>::inf();
  else if (isnan(x) || isnan(y)) re = fp<double>::nan();
  else if (x == 0 && y == 0) re = -fp<double>::inf();
  else re = log_abs(x, y, kind);
  return {re, ::atan2(y, x) * base_scale(kind)};
}

// For x, y >= 0 finite: asin(x+iy) = rs + i*im and acos(x+iy) = rc - i*im.
// Hull, Fairgrieve & Tang, "Implementing the complex arcsine and arccosine
// functions using exception handling" (1997): every branch avoids cancellation.
COPPER_HD void asin_acos_parts(double x, double y, double& rs, double& rc, double& im) {
  if (x > 0x1p500 || y > 0x1p500) {  // asin z ~ -i log(2iz); the error is O(1/|z|^2)
    rs = ::atan2(x, y);
    rc = ::atan2(y, x);
    im = log_abs(x, y, 0) + ln2;
    return;
  }
  const double a_cross = 1.5, b_cross = 0.6417;
  double xp1 = x + 1, xm1 = x - 1;
  double r = hypot(xp1, y), s = hypot(xm1, y);
  double a = 0.5 * (r + s);
  double b = x / a;
  double y2 = y * y;
  if (b <= b_cross) {
    rs = ::asin(b);
    rc = ::acos(b);
  } else if (x <= 1) {
    double d = ::sqrt(0.5 * (a + x) * (y2 / (r + xp1) + (s + (1 - x))));
    rs = ::atan(x / d);
    rc = ::atan(d / x);
  } else {
    double apx = a + x;
    double d = y * ::sqrt(0.5 * (apx / (r + xp1) + apx / (s + xm1)));
    rs = ::atan(x / d);
    rc = ::atan(d / x);
  }
  if (a <= a_cross) {
    double am1;
    if (x < 1) {
      if (y < 0x1p-500) {  // y*y would underflow; next term is O(y^2)
        im = y / ::sqrt((1 - x) * xp1);
        return;
      }
      am1 = 0.5 * (y2 / (r + xp1) + y2 / (s + (1 - x)));
    } else {
      if (x == 1 && y < 0x1p-500) {  // am1 ~ y/2 would lose bits to underflow
        im = ::sqrt(y);
        return;
      }
      am1 = 0.5 * (y2 / (r + xp1) + (s + xm1));
    }
    im = ::log1p(am1 + ::sqrt(am1 * (a + 1)));
  } else {
    im = ::log(a + ::sqrt(a * a - 1));
  }
}

// k * b^x * (c + i s) for finite x (b = e or 2, k = 1 or 1/2), also past the
// overflow threshold of b^x where the product is finite.
COPPER_HD complex128 scaled_cis(double x, double c, double s, bool base2, double k = 1) {
  if (x > (base2 ? 1000.0 : 700.0)) {
    double e = base2 ? ::exp2(0.5 * x) : ::exp(0.5 * x);
    double ke = k * e;  // exact: e >= 1
    return {(ke * c) * e, (ke * s) * e};
  }
  double e = base2 ? ::exp2(x) : ::exp(x);
  return {k * e * c, k * e * s};
}
}  // namespace detail

// ---------------- complex128 functions ----------------
COPPER_HD complex128 exp(complex128 z) {
  double x = z.re, y = z.im;
  const double nan = fp<double>::nan();
  if (isfinite(x)) {
    if (y == 0) return {::exp(x), y};
    if (!isfinite(y)) return {nan, nan};
    return detail::scaled_cis(x, ::cos(y), ::sin(y), false);
  }
  if (isnan(x)) return {x, y == 0 ? y : nan};
  if (x > 0) {
    if (y == 0) return {x, y};
    if (!isfinite(y)) return {x, nan};
    return {x * ::cos(y), x * ::sin(y)};
  }
  if (!isfinite(y)) return {0.0, ::copysign(0.0, y)};
  return {0.0 * ::cos(y), 0.0 * ::sin(y)};
}

COPPER_HD complex128 exp2(complex128 z) {
  double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) return exp(complex128{x * ln2, y * ln2});  // same special values
  if (y == 0) return {::exp2(x), y};
  // The phase y*ln2 is rotated by its rounding error, so large y keeps full
  // accuracy (up to 2^50, past which ln2's bits run out: NumPy's plain product).
  double th = y * ln2, c = ::cos(th), s = ::sin(th);
  if (::fabs(y) < 0x1p50) {
    double err = ::fma(y, ln2, -th) + y * ln2_lo;
    double ce = ::cos(err), se = ::sin(err), c2 = c * ce - s * se;
    s = s * ce + c * se;
    c = c2;
  }
  return detail::scaled_cis(x, c, s, true);
}

COPPER_HD complex128 expm1(complex128 z) {
  double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {  // NumPy's special values come from this formula
    double h = ::sin(0.5 * y);
    return {::expm1(x) * ::cos(y) - 2 * h * h, ::exp(x) * ::sin(y)};
  }
  if (x > 700) {  // the -1 cannot matter
    complex128 w = exp(z);
    return {w.re - 1, w.im};
  }
  if (y == 0) return {::expm1(x), y};
  double h = ::sin(0.5 * y);  // cos y - 1 = -2 sin^2(y/2), without cancellation
  return {::fma(::expm1(x), ::cos(y), -2 * h * h), ::exp(x) * ::sin(y)};
}

COPPER_HD complex128 log(complex128 z) { return detail::log_base(z, 0); }
COPPER_HD complex128 log2(complex128 z) { return detail::log_base(z, 1); }
COPPER_HD complex128 log10(complex128 z) { return detail::log_base(z, 2); }

COPPER_HD complex128 log1p(complex128 z) {
  double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) return log(complex128{1 + x, y});
  if (y == 0 && x >= -1) return {x == 0 ? 0.0 : ::log1p(x), y};  // +0 for -0, as NumPy
  double xp1 = 1 + x;
  if (::fabs(x) < 2.75 && ::fabs(y) < 2.75) {
    double h = hypot(xp1, y);
    if (h >= 0.71 && h <= 1.73)  // |1+z|^2 - 1 = 2x + x^2 + y^2, summed without cancellation
      return {0.5 * ::log1p(detail::sum_sq(2 * x, x, y)), ::atan2(y, xp1)};
  }
  return log(complex128{xp1, y});
}

COPPER_HD complex128 sqrt(complex128 z) {
  double a = z.re, b = z.im;
  const double inf = fp<double>::inf(), nan = fp<double>::nan();
  if (a == 0 && b == 0) return {0.0, b};
  if (isinf(b)) return {inf, b};
  if (isnan(a)) return {a, nan};
  if (isinf(a)) {
    if (signbit(a)) return {isnan(b) ? b : 0.0, ::copysign(inf, b)};
    return {a, isnan(b) ? b : ::copysign(0.0, b)};
  }
  if (isnan(b)) return {nan, nan};
  double scale = 1;
  if (::fabs(a) >= 0x1p1020 || ::fabs(b) >= 0x1p1020) {  // keep |a| + hypot finite
    a *= 0.25;
    b *= 0.25;
    scale = 2;
  } else if (::fabs(a) < 0x1p-1000 && ::fabs(b) < 0x1p-1000) {  // keep full precision in hypot
    a *= 0x1p600;
    b *= 0x1p600;
    scale = 0x1p-300;
  }
  double t = ::sqrt((::fabs(a) + hypot(a, b)) * 0.5);
  if (a >= 0) return {t * scale, b / (2 * t) * scale};
  return {::fabs(b) / (2 * t) * scale, ::copysign(t, b) * scale};
}

COPPER_HD complex128 cosh(complex128 z) {
  double x = z.re, y = z.im;
  const double inf = fp<double>::inf(), nan = fp<double>::nan();
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return {::cosh(x), ::copysign(0.0, x) * y};
    if (::fabs(x) > 700) {  // cosh x ~ sinh |x| ~ e^|x| / 2
      complex128 w = detail::scaled_cis(::fabs(x), ::cos(y), ::sin(y), false, 0.5);
      return {w.re, ::copysign(1.0, x) * w.im};
    }
    return {::cosh(x) * ::cos(y), ::sinh(x) * ::sin(y)};
  }
  // Where C99 leaves a sign unspecified, the choice is glibc's (NumPy's on Linux).
  if (x == 0) return {nan, 0.0};
  if (isinf(x)) {
    if (y == 0) return {inf, ::copysign(0.0, x) * y};
    if (isfinite(y)) return {inf * ::cos(y), x * ::sin(y)};
    return {inf, nan};
  }
  if (isnan(x) && y == 0) return {nan, y};
  return {nan, nan};
}

COPPER_HD complex128 sinh(complex128 z) {
  double x = z.re, y = z.im;
  const double nan = fp<double>::nan();
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return {::sinh(x), y};
    if (::fabs(x) > 700) {
      complex128 w = detail::scaled_cis(::fabs(x), ::cos(y), ::sin(y), false, 0.5);
      return {::copysign(1.0, x) * w.re, w.im};
    }
    return {::sinh(x) * ::cos(y), ::cosh(x) * ::sin(y)};
  }
  if (x == 0) return {x, nan};
  if (isinf(x)) {
    if (y == 0) return {x, y};
    if (isfinite(y)) return {x * ::cos(y), fp<double>::inf() * ::sin(y)};
    return {::fabs(x), nan};
  }
  if (isnan(x) && y == 0) return {x, y};
  return {nan, nan};
}

COPPER_HD complex128 tanh(complex128 z) {
  double x = z.re, y = z.im;
  const double nan = fp<double>::nan();
  if (isnan(x)) return {x, y == 0 ? y : nan};
  if (isinf(x)) return {::copysign(1.0, x), isfinite(y) ? ::copysign(0.0, ::sin(y) * ::cos(y)) : ::copysign(0.0, y)};
  if (!isfinite(y)) return {x == 0 ? x : nan, nan};
  if (::fabs(x) > 22) {  // tanh(x) rounds to +-1; Im = 4 sin y cos y e^(-2|x|)
    return {::copysign(1.0, x), 4 * ::sin(y) * ::cos(y) * ::exp(-2 * ::fabs(x))};
  }
  // Kahan, "Branch cuts for complex elementary functions" (1987)
  double t = ::tan(y), beta = 1 + t * t, s = ::sinh(x), rho = ::sqrt(1 + s * s);
  double den = 1 + beta * s * s;
  return {beta * rho * s / den, t / den};
}

// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz)
COPPER_HD complex128 sin(complex128 z) {
  if (isinf(z.im) && !isfinite(z.re)) return {fp<double>::nan(), ::fabs(z.im)};
  complex128 w = sinh(complex128{-z.im, z.re});
  return {w.im, -w.re};
}
COPPER_HD complex128 cos(complex128 z) { return cosh(complex128{-z.im, z.re}); }
COPPER_HD complex128 tan(complex128 z) {
  complex128 w = tanh(complex128{-z.im, z.re});
  return {w.im, -w.re};
}

COPPER_HD complex128 asinh(complex128 z) {
  double x = z.re, y = z.im;
  const double inf = fp<double>::inf(), nan = fp<double>::nan();
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) {
      if (isnan(x)) return {inf, x};
      return {::copysign(inf, x), ::copysign(isinf(x) ? pi_4 : pi_2, y)};
    }
    if (isinf(x)) return {x, isnan(y) ? y : ::copysign(0.0, y)};
    if (isnan(x)) return {x, y == 0 ? y : nan};
    return {nan, nan};
  }
  double rs, rc, im;
  detail::asin_acos_parts(::fabs(y), ::fabs(x), rs, rc, im);
  return {::copysign(im, x), ::copysign(rs, y)};
}

// asin z = -i asinh(iz)
COPPER_HD complex128 asin(complex128 z) {
  if (isnan(z.re) || isnan(z.im)) {
    if (z.re == 0) return z;
    if (isinf(z.re) || isinf(z.im)) return {fp<double>::nan(), ::copysign(fp<double>::inf(), z.im)};
    return {fp<double>::nan(), fp<double>::nan()};
  }
  complex128 w = asinh(complex128{-z.im, z.re});
  return {w.im, -w.re};
}

COPPER_HD complex128 acos(complex128 z) {
  double x = z.re, y = z.im;
  const double nan = fp<double>::nan();
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) return {isnan(x) ? x : isinf(x) ? (x > 0 ? pi_4 : pi_3_4) : pi_2, -y};
    if (isinf(x)) {
      if (isnan(y)) return {y, -fp<double>::inf()};
      return {x > 0 ? 0.0 : pi, -::copysign(fp<double>::inf(), y)};
    }
    if (isnan(x)) return {nan, nan};
    return {x == 0 ? pi_2 : nan, nan};
  }
  double rs, rc, im;
  detail::asin_acos_parts(::fabs(x), ::fabs(y), rs, rc, im);
  return {signbit(x) ? pi - rc : rc, -::copysign(im, y)};
}

// acosh z = +-i acos z, the sign chosen so the real part is >= 0
COPPER_HD complex128 acosh(complex128 z) {
  complex128 w = acos(z);
  return {::fabs(w.im), ::copysign(w.re, z.im)};
}

COPPER_HD complex128 atanh(complex128 z) {
  double x = z.re, y = z.im;
  const double nan = fp<double>::nan();
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) return {::copysign(0.0, x), ::copysign(pi_2, y)};
    if (isinf(x)) return {::copysign(0.0, x), isnan(y) ? y : ::copysign(pi_2, y)};
    if (isnan(x)) return {x, nan};
    return {x == 0 ? x : nan, nan};
  }
  double ax = ::fabs(x), ay = ::fabs(y), re, im;
  if (ax > 0x1p500 || ay > 0x1p500) {  // atanh z ~ 1/z + i pi/2
    double h = hypot(0.5 * ax, 0.5 * ay);
    re = (0.25 * ax / h) / h;
    im = pi_2;
  } else {
    if (ax == 1 && ay < 0x1p-500) re = 0.5 * (ln2 - ::log(ay));  // 4/y^2 would overflow
    else re = 0.25 * ::log1p(4 * ax / ((1 - ax) * (1 - ax) + ay * ay));
    im = 0.5 * ::atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay);
  }
  return {::copysign(re, x), ::copysign(im, y)};
}

// atan z = -i atanh(iz)
COPPER_HD complex128 atan(complex128 z) {
  // glibc's zero follows the sign of the NaN; the device may not keep it through -z.im
  if (isinf(z.re) && isnan(z.im)) return {::copysign(pi_2, z.re), ::copysign(0.0, z.im)};
  complex128 w = atanh(complex128{-z.im, z.re});
  return {w.im, -w.re};
}

// ---------------- complex64: computed in double, rounded once ----------------
#define COPPER_C64_VIA_C128(name) \
  COPPER_HD complex64 name(complex64 z) { return complex64(name(complex128(z))); }
COPPER_C64_VIA_C128(exp) COPPER_C64_VIA_C128(exp2) COPPER_C64_VIA_C128(expm1) COPPER_C64_VIA_C128(log)
COPPER_C64_VIA_C128(log2) COPPER_C64_VIA_C128(log10) COPPER_C64_VIA_C128(log1p) COPPER_C64_VIA_C128(sqrt)
COPPER_C64_VIA_C128(sin) COPPER_C64_VIA_C128(cos) COPPER_C64_VIA_C128(tan) COPPER_C64_VIA_C128(asin)
COPPER_C64_VIA_C128(acos) COPPER_C64_VIA_C128(atan) COPPER_C64_VIA_C128(sinh) COPPER_C64_VIA_C128(cosh)
COPPER_C64_VIA_C128(tanh) COPPER_C64_VIA_C128(asinh) COPPER_C64_VIA_C128(acosh) COPPER_C64_VIA_C128(atanh)
#undef COPPER_C64_VIA_C128

// ---------------- power ----------------
// NumPy's npy_cpow: a**0 = 1, 0**b = 0 for Re b > 0 else NaN, small integer
// exponents by repeated (plain) multiplication, otherwise exp(b log a).
template <class R>
COPPER_HD complex<R> pow(complex<R> a, complex<R> b) {
  if (b.re == 0 && b.im == 0) return {R(1), R(0)};
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return {R(0), R(0)};
    return {fp<R>::nan(), fp<R>::nan()};
  }
  if (b.im == 0 && b.re > -100 && b.re < 100) {
    int n = static_cast<int>(b.re);
    if (static_cast<R>(n) == b.re) {
      if (n == 1) return a;
      if (n == 2) return mul_plain(a, a);
      if (n == 3) return mul_plain(a, mul_plain(a, a));
      int m = n < 0 ? -n : n, mask = 1;
      complex<R> acc{R(1), R(0)}, p = a;
      while (true) {
        if (m & mask) acc = mul_plain(acc, p);
        mask <<= 1;
        if (m < mask) break;
        p = mul_plain(p, p);
      }
      if (b.re < 0) acc = complex<R>{R(1), R(0)} / acc;
      return acc;
    }
  }
  return complex<R>(exp(mul_c99(complex128(b), log(complex128(a)))));
}

// ---------------- complex sign: z/|z| (NumPy 2) ----------------
template <class R>
COPPER_HD complex<R> csign(complex<R> z) {
  const R nan = fp<R>::nan();
  R h = cabs(z);
  if (isnan(h)) return {nan, nan};
  if (isinf(h)) {
    if (isinf(z.re)) return isinf(z.im) ? complex<R>{nan, nan} : complex<R>{copysign(R(1), z.re), R(0)};
    return {R(0), copysign(R(1), z.im)};
  }
  if (h == 0) return {R(0), R(0)};
  R tiny, big;
  if constexpr (is_same_v<R, float>) tiny = 0x1p-100f, big = 0x1p60f;
  else tiny = 0x1p-1000, big = 0x1p600;
  if (h < tiny) {  // |z| near subnormal would lose precision: rescale by a power of two
    complex<R> s{z.re * big, z.im * big};
    h = cabs(s);
    return {s.re / h, s.im / h};
  }
  return {z.re / h, z.im / h};
}

#endif  // COPPER_REAL_MATH_ONLY
}  // namespace copper::ops::math
