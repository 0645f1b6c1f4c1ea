// Distributions that need rejection or recursion, sampled on the host from per-element
// counter streams (the same values whatever device the result goes to).
#include <cmath>

#include "api/random_internal.h"

namespace copper::random {

using ops::philox::Stream;

namespace {

// log(Gamma(shape)) sample: Marsaglia-Tsang for shape >= 1; below 1 the boost
// G(shape) = G(shape + 1) * U^(1/shape), kept in logs so tiny shapes do not underflow.
double log_standard_gamma(Stream& s, double shape) {
  if (shape < 1.0) {
    const double log_u = std::log(s.open_uniform());
    return log_standard_gamma(s, shape + 1.0) + log_u / shape;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return std::log(d * v);
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return std::log(d * v);
  }
}

double log_factorial(std::int64_t k) {
  int sign;
  return ::lgamma_r(static_cast<double>(k) + 1.0, &sign);  // lgamma_r: no shared signgam
}

// Inversion (sequential search) for small n * p, p <= 0.5.
std::int64_t binomial_inversion(Stream& s, std::int64_t n, double p) {
  const double q = 1.0 - p, ratio = p / q, a = static_cast<double>(n + 1) * ratio;
  const double r0 = std::pow(q, static_cast<double>(n));
  for (;;) {
    double u = s.uniform(), r = r0;
    std::int64_t x = 0;
    while (u > r) {
      u -= r;
      ++x;
      if (x > n) break;  // rounding left u unconsumed: draw again
      r *= a / static_cast<double>(x) - ratio;
    }
    if (x <= n) return x;
  }
}

}  // namespace

double sample_standard_gamma(Stream& s, double shape) {
  if (shape == 0.0) return 0.0;
  if (std::isnan(shape)) return shape;
  return std::exp(log_standard_gamma(s, shape));
}

// X / (X + Y) for gammas X, Y, computed from their logarithms.
double sample_beta(Stream& s, double a, double b) {
  const double lx = log_standard_gamma(s, a), ly = log_standard_gamma(s, b);
  return 1.0 / (1.0 + std::exp(ly - lx));
}

// Knuth's order-statistic splitting: the a-th smallest of n uniforms is Beta(a, n + 1 - a);
// the count below p then recurses into one side with n halved. Inversion finishes.
std::int64_t sample_binomial(Stream& s, std::int64_t n, double p) {
  std::int64_t result = 0;
  while (n > 64) {
    const std::int64_t a = 1 + n / 2, b = n + 1 - a;
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
std::int64_t sample_poisson(Stream& s, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const double limit = std::exp(-lam);
    double prod = 1.0;
    std::int64_t x = 0;
    for (;;) {
      prod *= s.uniform();
      if (prod <= limit) return x;
      ++x;
    }
  }
  const double slam = std::sqrt(lam), loglam = std::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = s.uniform() - 0.5, v = s.uniform();
    const double us = 0.5 - std::fabs(u);
    const auto k = static_cast<std::int64_t>(std::floor((2.0 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
        -lam + static_cast<double>(k) * loglam - log_factorial(k))
      return k;
  }
}

ndarray Generator::standard_gamma(double shape, const Shape& size, DType dtype) {
  if (dtype != float64 && dtype != float32)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for standard_gamma");
  if (shape < 0) throw ValueError("shape < 0");
  return host_draw_double(*this, size, dtype, [shape](Stream& s) { return sample_standard_gamma(s, shape); });
}

ndarray Generator::gamma(double shape, double scale, const Shape& size) {
  if (shape < 0) throw ValueError("shape < 0");
  if (scale < 0) throw ValueError("scale < 0");
  return host_draw_double(*this, size, float64,
                          [shape, scale](Stream& s) { return scale * sample_standard_gamma(s, shape); });
}

ndarray Generator::beta(double a, double b, const Shape& size) {
  if (!(a > 0)) throw ValueError("a <= 0");
  if (!(b > 0)) throw ValueError("b <= 0");
  return host_draw_double(*this, size, float64, [a, b](Stream& s) { return sample_beta(s, a, b); });
}

ndarray Generator::binomial(std::int64_t n, double p, const Shape& size) {
  if (n < 0) throw ValueError("n < 0");
  if (!(p >= 0 && p <= 1)) throw ValueError("p < 0, p > 1 or p is NaN");
  return host_draw_int64(*this, size, [n, p](Stream& s) { return sample_binomial(s, n, p); });
}

ndarray Generator::poisson(double lam, const Shape& size) {
  if (!(lam >= 0)) throw ValueError("lam < 0 or lam is NaN");
  // NumPy's limit: the largest lam whose samples stay well inside int64.
  if (lam >= 9.223372006484771e18) throw ValueError("lam value too large");
  return host_draw_int64(*this, size, [lam](Stream& s) { return sample_poisson(s, lam); });
}

}  // namespace copper::random
