// The distributions drawn by the stream samplers of ops/philox_samplers.h beyond gamma,
// beta, binomial and poisson: NumPy's parameter checks (Generator's; negative_binomial and
// hypergeometric also RandomState's, which differ), then one Backend::random_params call
// on the default device.
#include <cmath>

#include "api/random_internal.h"
#include "copper/manipulation.hpp"

namespace copper::random {

using RKind = ops::philox::Kind;
using C = Constraint;

namespace {

Shape param_shape(const Param& p) { return p.is_array() ? p.array().shape() : Shape{}; }

// A parameter's values broadcast to `shape`, in C order, on the host.
std::vector<double> broadcast_values(const Param& p, const Shape& shape) {
  if (!p.is_array()) return std::vector<double>(static_cast<std::size_t>(shape_size(shape)), p.value());
  return broadcast_to(p.array(), shape).to_vector<double>();
}

}  // namespace

ndarray Generator::chisquare(const Param& df, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::chisquare, {{df, "df", C::positive}}, size, dtype);
}

ndarray Generator::f(const Param& dfnum, const Param& dfden, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::f, {{dfnum, "dfnum", C::positive}, {dfden, "dfden", C::positive}}, size, dtype);
}

ndarray Generator::standard_t(const Param& df, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::standard_t, {{df, "df", C::positive}}, size, dtype);
}

ndarray Generator::noncentral_chisquare(const Param& df, const Param& nonc, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::noncentral_chisquare, {{df, "df", C::positive}, {nonc, "nonc", C::non_negative}},
                    size, dtype);
}

ndarray Generator::noncentral_f(const Param& dfnum, const Param& dfden, const Param& nonc, const OptShape& size,
                                DType dtype) {
  return param_draw(*this, RKind::noncentral_f,
                    {{dfnum, "dfnum", C::positive}, {dfden, "dfden", C::positive}, {nonc, "nonc", C::non_negative}},
                    size, dtype);
}

ndarray Generator::vonmises(const Param& mu, const Param& kappa, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::vonmises, {{mu, "mu", C::none}, {kappa, "kappa", C::non_negative}}, size, dtype);
}

ndarray Generator::wald(const Param& mean, const Param& scale, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::wald, {{mean, "mean", C::positive}, {scale, "scale", C::positive}}, size, dtype);
}

ndarray Generator::gumbel(const Param& loc, const Param& scale, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::gumbel, {{loc, "loc", C::none}, {scale, "scale", C::non_negative}}, size, dtype);
}

ndarray Generator::laplace(const Param& loc, const Param& scale, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::laplace, {{loc, "loc", C::none}, {scale, "scale", C::non_negative}}, size, dtype);
}

ndarray Generator::logistic(const Param& loc, const Param& scale, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::logistic, {{loc, "loc", C::none}, {scale, "scale", C::non_negative}}, size, dtype);
}

ndarray Generator::lognormal(const Param& mean, const Param& sigma, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::lognormal, {{mean, "mean", C::none}, {sigma, "sigma", C::non_negative}}, size,
                    dtype);
}

ndarray Generator::pareto(const Param& a, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::pareto, {{a, "a", C::positive}}, size, dtype);
}

ndarray Generator::power(const Param& a, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::power, {{a, "a", C::positive}}, size, dtype);
}

ndarray Generator::weibull(const Param& a, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::weibull, {{a, "a", C::non_negative}}, size, dtype);
}

ndarray Generator::rayleigh(const Param& scale, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::rayleigh, {{scale, "scale", C::non_negative}}, size, dtype);
}

ndarray Generator::standard_cauchy(const OptShape& size, DType dtype) {
  const Param unused(0.0);
  return param_draw(*this, RKind::standard_cauchy, {{unused, "", C::none}}, size ? size : OptShape(Shape{}), dtype);
}

ndarray Generator::triangular(const Param& left, const Param& mode, const Param& right, const OptShape& size,
                              DType dtype) {
  // NumPy compares the parameters after broadcasting them against each other.
  const Shape shape = draw_shape({param_shape(left), param_shape(mode), param_shape(right)}, std::nullopt);
  const std::vector<double> lv = broadcast_values(left, shape), mv = broadcast_values(mode, shape),
                            rv = broadcast_values(right, shape);
  for (std::size_t i = 0; i < lv.size(); ++i)
    if (lv[i] > mv[i]) throw ValueError("left > mode");
  for (std::size_t i = 0; i < lv.size(); ++i)
    if (mv[i] > rv[i]) throw ValueError("mode > right");
  for (std::size_t i = 0; i < lv.size(); ++i)
    if (lv[i] == rv[i]) throw ValueError("left == right");
  return param_draw(*this, RKind::triangular,
                    {{left, "left", C::none}, {mode, "mode", C::none}, {right, "right", C::none}}, size, dtype);
}

ndarray Generator::geometric(const Param& p, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::geometric, {{p, "p", C::open_unit}}, size, dtype);
}

ndarray Generator::logseries(const Param& p, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::logseries, {{p, "p", C::logseries_p}}, size, dtype);
}

ndarray Generator::zipf(const Param& a, const OptShape& size, DType dtype) {
  return param_draw(*this, RKind::zipf, {{a, "a", C::above_one}}, size, dtype);
}

ndarray negative_binomial_draw(Generator& g, const Param& n, const Param& p, const OptShape& size, DType dtype,
                               bool legacy) {
  if (legacy)
    return param_draw(g, RKind::negative_binomial, {{n, "n", C::positive}, {p, "p", C::unit_interval}}, size, dtype);
  const std::vector<double> nv = host_values(n), pv = host_values(p);
  for (double v : nv)
    if (v <= 0) throw ValueError("n <= 0");
  for (double v : pv)
    if (!(v > 0 && v <= 1)) throw ValueError("p <= 0, p > 1 or p contains NaNs");
  for (double v : nv)
    if (std::isnan(v)) throw ValueError("n must not be NaN");
  // NumPy's bound: the Poisson rate (1 - p) / p * Gamma(n) must stay far inside int64.
  constexpr double kMaxLam = 9.223372006484771e18;
  double max_n = 0, min_p = 1;
  for (double v : nv) max_n = std::max(max_n, v);
  for (double v : pv) min_p = std::min(min_p, v);
  if ((1 - min_p) / min_p * (max_n + 10 * std::sqrt(max_n)) > kMaxLam)
    throw ValueError("n too large or p too small, see Generator.negative_binomial Notes");
  return param_draw(g, RKind::negative_binomial, {{n, "n", C::none}, {p, "p", C::none}}, size, dtype);
}

ndarray Generator::negative_binomial(const Param& n, const Param& p, const OptShape& size, DType dtype) {
  return negative_binomial_draw(*this, n, p, size, dtype, false);
}

namespace {

// An integer parameter as int64 values (floats truncate, as NumPy's conversion does).
Param as_int_param(const Param& p) {
  if (p.is_array()) return Param(p.array().astype(int64));
  return Param(full({}, Scalar(static_cast<std::int64_t>(p.value())), int64, default_device()));
}

}  // namespace

ndarray hypergeometric_draw(Generator& g, const Param& ngood_in, const Param& nbad_in, const Param& nsample_in,
                            const OptShape& size, DType dtype, bool legacy) {
  const Param ngood = as_int_param(ngood_in), nbad = as_int_param(nbad_in), nsample = as_int_param(nsample_in);
  const std::vector<ParamSpec> specs = {
      {ngood, "ngood", C::none}, {nbad, "nbad", C::none}, {nsample, "nsample", C::none}};
  const Shape shape = draw_shape({ngood.array().shape(), nbad.array().shape(), nsample.array().shape()}, std::nullopt);
  const std::vector<std::int64_t> gv = broadcast_to(ngood.array(), shape).to_vector<std::int64_t>();
  const std::vector<std::int64_t> bv = broadcast_to(nbad.array(), shape).to_vector<std::int64_t>();
  const std::vector<std::int64_t> sv = broadcast_to(nsample.array(), shape).to_vector<std::int64_t>();
  constexpr std::int64_t kMax = 1000000000;  // NumPy's Generator limit
  if (!legacy)
    for (std::size_t i = 0; i < gv.size(); ++i)
      if (gv[i] >= kMax || bv[i] >= kMax) throw ValueError("both ngood and nbad must be less than 1000000000");
  for (std::size_t i = 0; i < gv.size(); ++i)
    if (gv[i] + bv[i] < sv[i]) throw ValueError("ngood + nbad < nsample");
  for (std::int64_t v : gv)
    if (v < 0) throw ValueError("ngood < 0");
  for (std::int64_t v : bv)
    if (v < 0) throw ValueError("nbad < 0");
  for (std::int64_t v : sv)
    if (legacy ? v < 1 : v < 0) throw ValueError(legacy ? "nsample < 1 or nsample is NaN" : "nsample < 0");
  return param_draw(g, RKind::hypergeometric, specs, size, dtype);
}

ndarray Generator::hypergeometric(const Param& ngood, const Param& nbad, const Param& nsample, const OptShape& size,
                                  DType dtype) {
  return hypergeometric_draw(*this, ngood, nbad, nsample, size, dtype, false);
}

}  // namespace copper::random
