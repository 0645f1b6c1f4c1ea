// copper._core._random: the distributions that copper.random's Python classes reach
// through one entry point, `_dist(name, params, size, dtype)` (their NumPy signatures,
// with CuPy's dtype on RandomState, live in python/copper/random.py), and the vector
// distributions (dirichlet, multinomial, multivariate_normal).
#include <functional>
#include <string>
#include <unordered_map>

#include "api/random_internal.h"
#include "bind_random_util.h"

namespace copper::python {

namespace {

using random::CovCheck;
using random::CovFactor;
using random::Generator;
using random::OptShape;
using random::Param;
using random::RandomState;

using Params = std::vector<Param>;
struct Dist {
  int nparams;
  bool discrete;  // default dtype int64, else float64
  std::function<ndarray(Generator&, const Params&, const OptShape&, DType, bool legacy)> draw;
};

// Every distribution `_dist` knows, by NumPy's name. `legacy`: RandomState's checks.
const std::unordered_map<std::string, Dist>& distributions() {
  using G = Generator;
  static const std::unordered_map<std::string, Dist> table = {
      {"chisquare", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.chisquare(p[0], s, t); }}},
      {"f", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.f(p[0], p[1], s, t); }}},
      {"standard_t", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.standard_t(p[0], s, t); }}},
      {"noncentral_chisquare",
       {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.noncentral_chisquare(p[0], p[1], s, t); }}},
      {"noncentral_f",
       {3, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.noncentral_f(p[0], p[1], p[2], s, t); }}},
      {"vonmises", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.vonmises(p[0], p[1], s, t); }}},
      {"wald", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.wald(p[0], p[1], s, t); }}},
      {"gumbel", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.gumbel(p[0], p[1], s, t); }}},
      {"laplace", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.laplace(p[0], p[1], s, t); }}},
      {"logistic", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.logistic(p[0], p[1], s, t); }}},
      {"lognormal", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.lognormal(p[0], p[1], s, t); }}},
      {"pareto", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.pareto(p[0], s, t); }}},
      {"power", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.power(p[0], s, t); }}},
      {"weibull", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.weibull(p[0], s, t); }}},
      {"rayleigh", {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.rayleigh(p[0], s, t); }}},
      {"standard_cauchy", {0, false, [](G& g, const Params&, const OptShape& s, DType t, bool) { return g.standard_cauchy(s, t); }}},
      {"triangular",
       {3, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.triangular(p[0], p[1], p[2], s, t); }}},
      {"geometric", {1, true, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.geometric(p[0], s, t); }}},
      {"logseries", {1, true, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.logseries(p[0], s, t); }}},
      {"zipf", {1, true, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.zipf(p[0], s, t); }}},
      {"negative_binomial",
       {2, true, [](G& g, const Params& p, const OptShape& s, DType t, bool legacy) {
          return random::negative_binomial_draw(g, p[0], p[1], s, t, legacy);
        }}},
      {"hypergeometric",
       {3, true, [](G& g, const Params& p, const OptShape& s, DType t, bool legacy) {
          return random::hypergeometric_draw(g, p[0], p[1], p[2], s, t, legacy);
        }}},
      // The legacy API's forms of the distributions Generator binds directly.
      {"exponential",
       {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.exponential(p[0], s).astype(t); }}},
      {"gamma", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.gamma(p[0], p[1], s).astype(t); }}},
      {"standard_gamma",
       {1, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) {
          return g.standard_gamma(p[0], s, t == float32 ? float32 : float64).astype(t);
        }}},
      {"beta", {2, false, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.beta(p[0], p[1], s).astype(t); }}},
      {"binomial",
       {2, true, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.binomial(p[0], p[1], s).astype(t); }}},
      {"poisson", {1, true, [](G& g, const Params& p, const OptShape& s, DType t, bool) { return g.poisson(p[0], s).astype(t); }}},
      {"standard_exponential",
       {0, false, [](G& g, const Params&, const OptShape& s, DType t, bool) {
          return g.standard_exponential(s ? *s : Shape{}, t == float32 ? float32 : float64).astype(t);
        }}},
  };
  return table;
}

// A binomial `n` given as a Python int stays exact (int64), as the Generator binding does.
Param dist_param(const std::string& name, std::size_t k, nb::handle v) {
  if (name == "binomial" && k == 0 && !is_array_param(v) && !PyFloat_Check(v.ptr()) && nb::hasattr(v, "__index__"))
    return Param(int_param_of(v).astype(int64));
  return param_of(v);
}

ndarray run_dist(Generator& g, const std::string& name, nb::handle params, nb::handle size, nb::handle dtype,
                 bool legacy) {
  const auto& table = distributions();
  const auto it = table.find(name);
  if (it == table.end()) throw ValueError("copper.random: unknown distribution " + name);
  const nb::tuple t = nb::borrow<nb::tuple>(params);
  Params p;
  for (std::size_t k = 0; k < t.size(); ++k) p.push_back(dist_param(name, k, t[k]));
  const DType out = dtype_or(dtype, it->second.discrete ? int64 : float64);
  ndarray r = it->second.draw(g, p, opt_size(size), out, legacy);
  return r.dtype() == out ? r : r.astype(out);
}

CovCheck cov_check(const std::string& s) {
  if (s == "warn") return CovCheck::warn;
  if (s == "raise") return CovCheck::raise;
  if (s == "ignore") return CovCheck::ignore;
  throw ValueError("check_valid must equal 'warn', 'raise', or 'ignore'");
}

CovFactor cov_factor(const std::string& s) {
  if (s == "svd") return CovFactor::svd;
  if (s == "eigh") return CovFactor::eigh;
  if (s == "cholesky") return CovFactor::cholesky;
  throw ValueError("method must be one of {'eigh', 'svd', 'cholesky'}");
}

ndarray float_array(nb::handle v) { return array_from_py(v, std::nullopt, default_device()); }

}  // namespace

void bind_random_distributions(nb::class_<Generator>& gen, nb::class_<RandomState>& legacy) {
  gen.def(
      "_dist",
      [](Generator& g, const std::string& name, nb::handle params, nb::handle size, nb::handle dtype) {
        return run_dist(g, name, params, size, dtype, false);
      },
      nb::arg("name"), nb::arg("params"), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none());
  legacy.def(
      "_dist",
      [](RandomState& s, const std::string& name, nb::handle params, nb::handle size, nb::handle dtype) {
        return run_dist(s.generator(), name, params, size, dtype, true);
      },
      nb::arg("name"), nb::arg("params"), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none());

  gen.def(
         "dirichlet",
         [](Generator& g, nb::handle alpha, nb::handle size) { return g.dirichlet(float_array(alpha), opt_size(size)); },
         nb::arg("alpha"), nb::arg("size") = nb::none())
      .def(
          "multinomial",
          [](Generator& g, nb::handle n, nb::handle pvals, nb::handle size) {
            const Param np = is_array_param(n) ? Param(array_from_py(n, std::nullopt, default_device()))
                                               : Param(int_param_of(n).astype(int64));
            return g.multinomial(np, float_array(pvals), opt_size(size));
          },
          nb::arg("n"), nb::arg("pvals"), nb::arg("size") = nb::none())
      .def(
          "multivariate_normal",
          [](Generator& g, nb::handle mean, nb::handle cov, nb::handle size, const std::string& check_valid, double tol,
             const std::string& method) {
            return g.multivariate_normal(float_array(mean), float_array(cov), opt_size(size), cov_check(check_valid), tol,
                                         cov_factor(method));
          },
          nb::arg("mean"), nb::arg("cov"), nb::arg("size") = nb::none(), nb::arg("check_valid") = "warn",
          nb::arg("tol") = 1e-8, nb::kw_only(), nb::arg("method") = "svd");

  legacy
      .def(
          "dirichlet",
          [](RandomState& s, nb::handle alpha, nb::handle size, nb::handle dtype) {
            return s.dirichlet(float_array(alpha), opt_size(size), dtype_or(dtype, float64));
          },
          nb::arg("alpha"), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "multinomial",
          [](RandomState& s, std::int64_t n, nb::handle pvals, nb::handle size) {
            if (is_array_param(pvals) || nb::isinstance<ndarray>(pvals)) return s.multinomial(n, float_array(pvals), opt_size(size));
            throw TypeError("pvals must be a 1-d sequence");
          },
          nb::arg("n"), nb::arg("pvals"), nb::arg("size") = nb::none())
      .def(
          "multivariate_normal",
          [](RandomState& s, nb::handle mean, nb::handle cov, nb::handle size, const std::string& check_valid, double tol,
             const std::string& method, nb::handle dtype) {
            return s.multivariate_normal(float_array(mean), float_array(cov), opt_size(size), cov_check(check_valid), tol,
                                         cov_factor(method), dtype_or(dtype, float64));
          },
          nb::arg("mean"), nb::arg("cov"), nb::arg("size") = nb::none(), nb::arg("check_valid") = "warn",
          nb::arg("tol") = 1e-8, nb::arg("method") = "svd", nb::arg("dtype") = nb::none());
}

}  // namespace copper::python
