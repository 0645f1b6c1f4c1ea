// gamma, standard_gamma, beta, binomial, poisson: rejection samplers (ops/philox_samplers.h)
// run by the backend of the default device, element i from its own counter stream, with
// scalar or array parameters (the same values on every device).
#include <cmath>

#include "api/random_internal.h"

namespace copper::random {

using RKind = ops::philox::Kind;

namespace {

bool is_float_dtype(DType t) { return t == float32 || t == float64; }

// The scalar methods keep NumPy's scalar semantics: size {} is a 0-d result.
OptShape scalar_size(const Shape& size) { return size; }

}  // namespace

ndarray Generator::standard_gamma(const Param& shape, const OptShape& size, DType dtype) {
  if (!is_float_dtype(dtype)) throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for standard_gamma");
  const Param one(1.0);
  return param_draw(*this, RKind::gamma, {{shape, "shape", Constraint::non_negative}, {one, "scale", Constraint::none}},
                    size, dtype);
}

ndarray Generator::gamma(const Param& shape, const Param& scale, const OptShape& size) {
  return param_draw(*this, RKind::gamma,
                    {{shape, "shape", Constraint::non_negative}, {scale, "scale", Constraint::non_negative}}, size,
                    float64);
}

ndarray Generator::beta(const Param& a, const Param& b, const OptShape& size) {
  return param_draw(*this, RKind::beta, {{a, "a", Constraint::positive}, {b, "b", Constraint::positive}}, size,
                    float64);
}

ndarray Generator::binomial(const Param& n, const Param& p, const OptShape& size) {
  return param_draw(*this, RKind::binomial, {{n, "n", Constraint::non_negative}, {p, "p", Constraint::unit_interval}},
                    size, int64);
}

ndarray Generator::poisson(const Param& lam, const OptShape& size) {
  return param_draw(*this, RKind::poisson, {{lam, "lam", Constraint::poisson_lam}}, size, int64);
}

ndarray Generator::standard_gamma(double shape, const Shape& size, DType dtype) {
  return standard_gamma(Param(shape), scalar_size(size), dtype);
}
ndarray Generator::gamma(double shape, double scale, const Shape& size) {
  return gamma(Param(shape), Param(scale), scalar_size(size));
}
ndarray Generator::beta(double a, double b, const Shape& size) { return beta(Param(a), Param(b), scalar_size(size)); }
ndarray Generator::binomial(std::int64_t n, double p, const Shape& size) {
  if (n < 0) throw ValueError("n < 0");
  return binomial(Param(ndarray(full({}, Scalar(n), int64, default_device()))), Param(p), scalar_size(size));
}
ndarray Generator::poisson(double lam, const Shape& size) { return poisson(Param(lam), scalar_size(size)); }

}  // namespace copper::random
