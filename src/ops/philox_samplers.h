// The distributions that need rejection (gamma, beta, binomial, poisson) and the
// per-element-parameter forms of the block distributions, shared by the CPU backend and
// NVRTC device code like ops/philox.h. Element i of a stream draw reads its own counter
// stream (philox::Stream), so its value depends only on (key, offset, i, parameters).
//
// Device code has no standard library: the math calls go through the wrappers below
// (CUDA's log, exp, pow, lgamma on the device, the C library on the host). Those may
// differ in the last bit, so continuous results agree to a few ulp and an integer result
// could differ only where a rejection test or floor lands within an ulp of its edge.
#pragma once
#include "ops/philox.h"

#if !defined(__CUDACC_RTC__)
#include <cmath>
#endif

namespace copper::ops::philox {

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
__device__ __forceinline__ double exp_(double x) { return ::exp(x); }
__device__ __forceinline__ double pow_(double x, double y) { return ::pow(x, y); }
__device__ __forceinline__ double floor_(double x) { return ::floor(x); }
__device__ __forceinline__ double fabs_(double x) { return ::fabs(x); }
__device__ __forceinline__ double lgamma_(double x) { return ::lgamma(x); }
__device__ __forceinline__ bool isnan_(double x) { return ::isnan(x); }
#else
inline double exp_(double x) { return std::exp(x); }
inline double pow_(double x, double y) { return std::pow(x, y); }
inline double floor_(double x) { return std::floor(x); }
inline double fabs_(double x) { return std::fabs(x); }
inline double lgamma_(double x) {
  int sign;
  return ::lgamma_r(x, &sign);  // lgamma_r: no shared signgam between threads
}
inline bool isnan_(double x) { return std::isnan(x); }
#endif

// log of a Gamma(shape) sample: Marsaglia-Tsang for shape >= 1; below 1 the boost
// G(shape) = G(shape + 1) * U^(1/shape), kept in logs so tiny shapes do not underflow.
COPPER_HD double log_standard_gamma(Stream& s, double shape) {
  double boost = 0.0;
  if (shape < 1.0) {
    boost = log_(s.open_uniform()) / shape;
    shape += 1.0;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / sqrt_(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x) || log_(u) < 0.5 * x * x + d * (1.0 - v + log_(v)))
      return log_(d * v) + boost;
  }
}

COPPER_HD double sample_standard_gamma(Stream& s, double shape) {
  if (shape == 0.0) return 0.0;
  if (isnan_(shape)) return shape;
  return exp_(log_standard_gamma(s, shape));
}

// X / (X + Y) for gammas X, Y, computed from their logarithms.
COPPER_HD double sample_beta(Stream& s, double a, double b) {
  const double lx = log_standard_gamma(s, a), ly = log_standard_gamma(s, b);
  return 1.0 / (1.0 + exp_(ly - lx));
}

// Inversion (sequential search) for small n * p, p <= 0.5.
COPPER_HD int64_t binomial_inversion(Stream& s, int64_t n, double p) {
  const double q = 1.0 - p, ratio = p / q, a = static_cast<double>(n + 1) * ratio;
  const double r0 = pow_(q, static_cast<double>(n));
  for (;;) {
    double u = s.uniform(), r = r0;
    int64_t x = 0;
    while (u > r) {
      u -= r;
      ++x;
      if (x > n) break;  // rounding left u unconsumed: draw again
      r *= a / static_cast<double>(x) - ratio;
    }
    if (x <= n) return x;
  }
}

// Knuth's order-statistic splitting: the a-th smallest of n uniforms is Beta(a, n + 1 - a);
// the count below p then recurses into one side with n halved. Inversion finishes.
COPPER_HD int64_t sample_binomial(Stream& s, int64_t n, double p) {
  int64_t result = 0;
  while (n > 64) {
    const int64_t a = 1 + n / 2, b = n + 1 - a;
    const double x = sample_beta(s, static_cast<double>(a), static_cast<double>(b));
    if (x >= p) {
      n = a - 1;
      p = p / x;
    } else {
      result += a;
      n = b - 1;
      p = (p - x) / (1.0 - x);
    }
  }
  if (n == 0 || p <= 0.0) return result;
  if (p >= 1.0) return result + n;
  if (p > 0.5) return result + n - binomial_inversion(s, n, 1.0 - p);
  return result + binomial_inversion(s, n, p);
}

// Multiplication for small lam; Hoermann's PTRS (transformed rejection) above 10.
COPPER_HD int64_t sample_poisson(Stream& s, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const double limit = exp_(-lam);
    double prod = 1.0;
    int64_t x = 0;
    for (;;) {
      prod *= s.uniform();
      if (prod <= limit) return x;
      ++x;
    }
  }
  const double slam = sqrt_(lam), loglam = log_(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = s.uniform() - 0.5, v = s.uniform();
    const double us = 0.5 - fabs_(u);
    const auto k = static_cast<int64_t>(floor_((2.0 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log_(v) + log_(inv_alpha) - log_(a / (us * us) + b) <=
        -lam + static_cast<double>(k) * loglam - lgamma_(static_cast<double>(k) + 1.0))
      return k;
  }
}

// One element of a stream kind (is_stream_kind): element i of the draw p, with its
// parameters a, b (binomial: n in `n`, p in `a`).
template <class T>
COPPER_HD T sample_element(Kind kind, const RandomParams& p, uint32_t i, double a, double b, int64_t n) {
  Stream s(p, i);
  if (kind == Kind::gamma) {
    return static_cast<T>(b * sample_standard_gamma(s, a));
  }
  if (kind == Kind::beta) return static_cast<T>(sample_beta(s, a, b));
  if (kind == Kind::binomial) return static_cast<T>(sample_binomial(s, n, a));
  return static_cast<T>(sample_poisson(s, a));
}

// A block kind (uniform, normal, exponential, integers) with per-element parameters: the
// same standard values generate_group makes, so equal parameters give equal results.
// Element k of group g gets (a[k], b[k]): uniform low + (high - low) * U, normal and
// exponential a + b * X (normal: X itself for (0, 1), as the scalar path); integers (lo, hi
// as 64-bit patterns, hi inclusive after subtracting p.low) low + bounded(hi - lo).
template <class T>
COPPER_HD void generate_group_with(Kind kind, const RandomParams& p, uint64_t g, T* out, int count, const double* pa,
                                   const double* pb, const uint64_t* lo, const uint64_t* hi) {
  if constexpr (is_float_v<T>) {
    if (kind == Kind::normal) {
      T z[kMaxGroupElements];
      normal_values<T>(p, g, z);
      for (int k = 0; k < count; ++k) {
        const double x = static_cast<double>(z[k]);
        out[k] = static_cast<T>(pa[k] == 0.0 && pb[k] == 1.0 ? x : affine(pa[k], pb[k], x));
      }
      return;
    }
  }
  const Block r = block_at(p, g);  // one block per group for the other kinds
  if constexpr (is_float_v<T>) {
    double z[2];
    for (int k = 0; k < count; ++k) {
      const uint64_t x = join(r.w[2 * k], r.w[2 * k + 1]);
      z[k] = kind == Kind::uniform ? to_unit_double(x) : -log_(to_open_unit_double(x));
    }
    for (int k = 0; k < count; ++k) {
      const double scale = kind == Kind::uniform ? pb[k] - pa[k] : pb[k];
      out[k] = static_cast<T>(affine(pa[k], scale, z[k]));
    }
  } else {
    if (p.range > 0xffffffffull) {
      const uint64_t range = hi[0] - p.low - lo[0];
      out[0] = static_cast<T>(lo[0] + bounded128(join(r.w[0], r.w[1]), join(r.w[2], r.w[3]), range));
    } else {
      for (int k = 0; k < count; ++k) {
        const uint64_t v = lo[k] + bounded64(join(r.w[2 * k], r.w[2 * k + 1]), hi[k] - p.low - lo[k]);
        if constexpr (is_same_v<T, bool>) out[k] = (v & 1u) != 0;
        else out[k] = static_cast<T>(v);
      }
    }
  }
}

}  // namespace copper::ops::philox
