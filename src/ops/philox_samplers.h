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
__device__ __forceinline__ double log1p_(double x) { return ::log1p(x); }
__device__ __forceinline__ double expm1_(double x) { return ::expm1(x); }
__device__ __forceinline__ double ceil_(double x) { return ::ceil(x); }
__device__ __forceinline__ double cos_(double x) { return ::cos(x); }
__device__ __forceinline__ double acos_(double x) { return ::acos(x); }
__device__ __forceinline__ double fmod_(double x, double y) { return ::fmod(x, y); }
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
inline double log1p_(double x) { return std::log1p(x); }
inline double expm1_(double x) { return std::expm1(x); }
inline double ceil_(double x) { return std::ceil(x); }
inline double cos_(double x) { return std::cos(x); }
inline double acos_(double x) { return std::acos(x); }
inline double fmod_(double x, double y) { return std::fmod(x, y); }
#endif

constexpr double kPi = 3.141592653589793;
COPPER_HD double nan_() { return bits_double(0x7ff8000000000000ull); }
COPPER_HD double inf_() { return bits_double(0x7ff0000000000000ull); }
// Integer results at or past 2^63 are clipped to the largest int64 (as NumPy's).
constexpr double kInt64Ceiling = 9.223372036854775807e18;
constexpr int64_t kInt64Max = 0x7fffffffffffffffLL;

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

// log Gamma(shape) with the edge cases: NaN for NaN, -inf for shape 0.
COPPER_HD double log_gamma_or_edge(Stream& s, double shape) {
  if (isnan_(shape)) return shape;
  if (shape == 0.0) return -inf_();
  return log_standard_gamma(s, shape);
}

// Chi-square(df) = 2 Gamma(df / 2).
COPPER_HD double sample_chisquare(Stream& s, double df) { return 2.0 * exp_(log_gamma_or_edge(s, 0.5 * df)); }

// Multiplication below lam 10 and PTRS above, after the edge values NumPy gives.
COPPER_HD double sample_noncentral_chisquare(Stream& s, double df, double nonc) {
  if (isnan_(nonc)) return nonc;
  if (nonc == 0.0) return sample_chisquare(s, df);
  if (df > 1.0) {  // Chi2(df - 1) plus a shifted normal squared
    const double chi = sample_chisquare(s, df - 1.0), z = s.normal() + sqrt_(nonc);
    return chi + z * z;
  }
  const int64_t i = sample_poisson(s, 0.5 * nonc);  // a Poisson mixture of central ones
  return sample_chisquare(s, df + 2.0 * static_cast<double>(i));
}

// Best and Fisher's wrapped-Cauchy envelope; a wrapped normal for huge kappa, a uniform
// angle for tiny kappa. The result lies in [-pi, pi].
COPPER_HD double sample_vonmises(Stream& s, double mu, double kappa) {
  if (isnan_(mu) || isnan_(kappa)) return nan_();
  if (kappa < 1e-8) return kPi * (2.0 * s.uniform() - 1.0);
  double result;
  if (kappa > 1e6) {
    result = mu + sqrt_(1.0 / kappa) * s.normal();
  } else {
    double rho;
    if (kappa < 1e-5) {
      rho = 1.0 / kappa + kappa;  // s of the envelope directly (second-order series)
    } else {
      const double r = 1.0 + sqrt_(1.0 + 4.0 * kappa * kappa);
      const double q = (r - sqrt_(2.0 * r)) / (2.0 * kappa);
      rho = (1.0 + q * q) / (2.0 * q);
    }
    double w;
    for (;;) {
      const double z = cos_(kPi * s.uniform());
      w = (1.0 + rho * z) / (rho + z);
      const double y = kappa * (rho - w), v = s.open_uniform();
      if (y * (2.0 - y) - v >= 0.0 || log_(y / v) + 1.0 - y >= 0.0) break;
    }
    const double angle = acos_(w < -1.0 ? -1.0 : (w > 1.0 ? 1.0 : w));
    result = mu + (s.uniform() < 0.5 ? -angle : angle);
  }
  // Wrap into [-pi, pi], symmetric in the sign as NumPy's.
  const bool negative = result < 0.0;
  double m = fmod_(fabs_(result) + kPi, 2.0 * kPi) - kPi;
  return negative ? -m : m;
}

// Michael, Schucany and Haas: a root of the normal's square, kept with probability
// mean / (mean + x), else its mirror mean^2 / x.
COPPER_HD double sample_wald(Stream& s, double mean, double scale) {
  const double half_ratio = mean / (2.0 * scale), z = s.normal();
  const double y = mean * z * z;
  const double x = mean + half_ratio * (y - sqrt_(4.0 * scale * y + y * y));
  return s.uniform() <= mean / (mean + x) ? x : mean * mean / x;
}

COPPER_HD double sample_triangular(Stream& s, double left, double mode, double right) {
  const double base = right - left, left_base = mode - left, ratio = left_base / base;
  const double u = s.uniform();
  if (u <= ratio) return left + sqrt_(u * left_base * base);
  return right - sqrt_((1.0 - u) * (right - mode) * base);
}

// Gamma-Poisson mixture; p == 1 gives 0. A NaN rate (n NaN, legacy API) gives 0 as NumPy.
COPPER_HD int64_t sample_negative_binomial(Stream& s, double n, double p) {
  if (p >= 1.0) return 0;
  const double lam = exp_(log_gamma_or_edge(s, n)) * ((1.0 - p) / p);
  if (isnan_(lam) || lam <= 0.0) return 0;
  return sample_poisson(s, lam);
}

// Inversion: ceil(E / -log(1 - p)) for E ~ Exp(1), at least 1, clipped to int64.
COPPER_HD int64_t sample_geometric(Stream& s, double p) {
  if (p >= 1.0) return 1;
  const double e = -log_(s.interior_uniform());
  const double k = ceil_(e / -log1p_(-p));
  if (!(k < kInt64Ceiling)) return kInt64Max;
  return k < 1.0 ? 1 : static_cast<int64_t>(k);
}

// Drawing without replacement one by one, for small samples (or their complement).
COPPER_HD int64_t hypergeometric_urn(Stream& s, int64_t good, int64_t bad, int64_t sample) {
  const int64_t total = good + bad;
  const int64_t draws = sample > total / 2 ? total - sample : sample;
  int64_t good_left = good, left = total;
  for (int64_t k = 0; k < draws && good_left > 0; ++k, --left)
    if (s.uniform() * static_cast<double>(left) < static_cast<double>(good_left)) --good_left;
  const int64_t taken = good - good_left;  // good ones among the `draws` drawn
  return sample > total / 2 ? good - taken : taken;
}

// Stadlober's ratio-of-uniforms (HRUA) around the mode, with the log-factorial test.
COPPER_HD int64_t hypergeometric_hrua(Stream& s, int64_t good, int64_t bad, int64_t sample) {
  const int64_t popsize = good + bad, min_gb = good < bad ? good : bad, max_gb = good < bad ? bad : good;
  const int64_t m = sample < popsize - sample ? sample : popsize - sample;
  const double dm = static_cast<double>(m), dmin = static_cast<double>(min_gb), dmax = static_cast<double>(max_gb);
  const double dpop = static_cast<double>(popsize);
  const double p = dmin / dpop, mean = dm * p + 0.5;
  const double sd = sqrt_((dpop - dm) * static_cast<double>(sample) * p * (1.0 - p) / (dpop - 1.0) + 0.5);
  constexpr double kD1 = 1.7155277699214135, kD2 = 0.8989161620588988;  // 2 sqrt(2/e), 3 - 2 sqrt(3/e)
  const double width = kD1 * sd + kD2;
  const double mode = floor_((dm + 1.0) * (dmin + 1.0) / (dpop + 2.0));
  auto log_weight = [&](double z) {
    return lgamma_(z + 1.0) + lgamma_(dmin - z + 1.0) + lgamma_(dm - z + 1.0) + lgamma_(dmax - dm + z + 1.0);
  };
  const double top = log_weight(mode);
  const double upper_a = (dm < dmin ? dm : dmin) + 1.0, upper_b = floor_(mean + 16.0 * sd);
  const double upper = upper_a < upper_b ? upper_a : upper_b;
  double z;
  for (;;) {
    const double x = s.open_uniform(), y = s.uniform();
    const double w = mean + width * (y - 0.5) / x;
    if (w < 0.0 || w >= upper) continue;
    z = floor_(w);
    const double t = top - log_weight(z);
    if (x * (4.0 - x) - 3.0 <= t) break;  // quick accept
    if (x * (x - t) >= 1.0) continue;     // quick reject
    if (2.0 * log_(x) <= t) break;
  }
  int64_t k = static_cast<int64_t>(z);
  if (good > bad) k = m - k;  // counted the smaller colour
  if (m < sample) k = good - k;  // sampled the complement
  return k;
}

COPPER_HD int64_t sample_hypergeometric(Stream& s, int64_t good, int64_t bad, int64_t sample) {
  const int64_t total = good + bad;
  if (sample <= 0 || good == 0) return 0;
  if (bad == 0) return sample < good ? sample : good;
  if (sample >= total) return good;
  const int64_t m = sample < total - sample ? sample : total - sample;
  return m < 10 ? hypergeometric_urn(s, good, bad, sample) : hypergeometric_hrua(s, good, bad, sample);
}

// Kemp's second accelerated generator (LK).
COPPER_HD int64_t sample_logseries(Stream& s, double p) {
  const double r = log1p_(-p);
  for (;;) {
    const double v = s.uniform();
    if (v >= p) return 1;
    const double q = -expm1_(r * s.uniform());
    if (v <= q * q) {
      const double k = floor_(1.0 + log_(v) / log_(q));
      if (k < 1.0 || v == 0.0) continue;
      return k < kInt64Ceiling ? static_cast<int64_t>(k) : kInt64Max;
    }
    return v >= q ? 1 : 2;
  }
}

// Devroye's rejection from the continuous Pareto envelope.
COPPER_HD int64_t sample_zipf(Stream& s, double a) {
  if (a >= 1025.0) return 1;  // P(X > 1) is below 2^-1024
  const double am1 = a - 1.0, b = pow_(2.0, am1);
  for (;;) {
    const double u = s.open_uniform(), v = s.uniform();
    const double x = floor_(pow_(u, -1.0 / am1));
    if (!(x < kInt64Ceiling) || x < 1.0) continue;
    const double t = pow_(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return static_cast<int64_t>(x);
  }
}

// The continuous stream kinds: element value in float64.
COPPER_HD double sample_continuous(Kind kind, Stream& s, const double* x) {
  switch (kind) {
    case Kind::gamma: return x[1] * sample_standard_gamma(s, x[0]);
    case Kind::beta: return sample_beta(s, x[0], x[1]);
    case Kind::chisquare: return sample_chisquare(s, x[0]);
    case Kind::f: return exp_(log_gamma_or_edge(s, 0.5 * x[0]) - log_gamma_or_edge(s, 0.5 * x[1])) * (x[1] / x[0]);
    case Kind::standard_t: {
      const double z = s.normal();
      return z * sqrt_(0.5 * x[0]) * exp_(-0.5 * log_gamma_or_edge(s, 0.5 * x[0]));
    }
    case Kind::noncentral_chisquare: return sample_noncentral_chisquare(s, x[0], x[1]);
    case Kind::noncentral_f: {
      const double t = sample_noncentral_chisquare(s, x[0], x[2]) * x[1];
      return t / (sample_chisquare(s, x[1]) * x[0]);
    }
    case Kind::vonmises: return sample_vonmises(s, x[0], x[1]);
    case Kind::wald: return sample_wald(s, x[0], x[1]);
    case Kind::gumbel: return x[0] - x[1] * log_(-log_(s.interior_uniform()));
    case Kind::laplace: {
      const double u = s.interior_uniform();
      return u >= 0.5 ? x[0] - x[1] * log_(2.0 - 2.0 * u) : x[0] + x[1] * log_(2.0 * u);
    }
    case Kind::logistic: {
      const double u = s.interior_uniform();
      return x[0] + x[1] * log_(u / (1.0 - u));
    }
    case Kind::lognormal: return exp_(x[0] + x[1] * s.normal());
    case Kind::pareto: return expm1_(s.exponential() / x[0]);
    case Kind::power: return pow_(-expm1_(-s.exponential()), 1.0 / x[0]);
    case Kind::weibull: return x[0] == 0.0 ? 0.0 : pow_(s.exponential(), 1.0 / x[0]);
    case Kind::rayleigh: return x[0] * sqrt_(2.0 * s.exponential());
    case Kind::standard_cauchy: {
      const double num = s.normal();
      return num / s.normal();
    }
    case Kind::triangular: return sample_triangular(s, x[0], x[1], x[2]);
    case Kind::log_gamma: return log_gamma_or_edge(s, x[0]);
    default: return nan_();
  }
}

COPPER_HD int64_t sample_discrete(Kind kind, Stream& s, const double* x, const int64_t* n) {
  switch (kind) {
    case Kind::binomial: return sample_binomial(s, n[0], x[1]);
    case Kind::poisson: return sample_poisson(s, x[0]);
    case Kind::negative_binomial: return sample_negative_binomial(s, x[0], x[1]);
    case Kind::geometric: return sample_geometric(s, x[0]);
    case Kind::hypergeometric: return sample_hypergeometric(s, n[0], n[1], n[2]);
    case Kind::logseries: return sample_logseries(s, x[0]);
    case Kind::zipf: return sample_zipf(s, x[0]);
    default: return 0;
  }
}

// One element of a stream kind (is_stream_kind): element i of the draw p. Parameter k is
// x[k] (float64) or n[k] (int64, where param_is_int).
template <class T>
COPPER_HD T sample_element(Kind kind, const RandomParams& p, uint32_t i, const double* x, const int64_t* n) {
  Stream s(p, i);
  if (kind_is_discrete(kind)) return static_cast<T>(sample_discrete(kind, s, x, n));
  return static_cast<T>(sample_continuous(kind, s, x));
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
