// Vector-valued distributions composed from the scalar samplers on the default device:
// dirichlet (normalized log-gammas), multinomial (a chain of conditional binomials),
// multivariate_normal (standard normals times a factor of cov from copper.linalg), and
// bytes (raw words).
#include <cmath>

#include "api/random_internal.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::random {

using RKind = ops::philox::Kind;

namespace {

WarningHandler warning_handler = nullptr;

Shape with_last(const OptShape& size, const Shape& fallback, std::int64_t k) {  // size + (k,)
  Shape s = size ? *size : fallback;
  s.push_back(k);
  return s;
}

}  // namespace

void set_warning_handler(WarningHandler handler) { warning_handler = handler; }

void warn(const std::string& message) {
  if (warning_handler) warning_handler(message.c_str());
}

ndarray dirichlet_draw(Generator& g, const ndarray& alpha, const OptShape& size, DType dtype, bool legacy) {
  if (alpha.ndim() == 0) throw TypeError("object of type 'float' has no len()");
  if (alpha.ndim() > 1)
    throw ValueError(
        "setting an array element with a sequence. The requested array would exceed the maximum number of dimension "
        "of 1.");
  const std::vector<double> a = alpha.astype(float64).to_vector<double>();
  for (double v : a)
    if (legacy ? v <= 0 : v < 0) throw ValueError(legacy ? "alpha <= 0" : "alpha < 0");
  if (size) check_size(*size);
  const Shape shape = with_last(size, {}, alpha.shape()[0]);
  // Gammas kept in logs and normalized with the largest subtracted: tiny alphas whose
  // gammas underflow to 0 still give a point of the simplex.
  const Param alpha_param(alpha.astype(float64));
  ndarray logs = param_draw(g, RKind::log_gamma, {{alpha_param, "alpha", Constraint::none}}, shape, float64);
  if (logs.size() == 0) return logs.astype(dtype);
  const ndarray top = amax(logs, -1, {.keepdims = true});
  const ndarray e = exp(subtract(logs, top));
  const ndarray out = true_divide(e, sum(e, -1, {.keepdims = true}));
  return out.astype(dtype);
}

ndarray Generator::dirichlet(const ndarray& alpha, const OptShape& size, DType dtype) {
  return dirichlet_draw(*this, alpha, size, dtype, false);
}

namespace {

// Multinomial counts: binomial(remaining, p_j / (1 - p_0 - ... - p_{j-1})) category by
// category, the last category taking what remains. `pvals` holds `rows` rows of k
// probabilities: one row shared by the whole batch, or one per batch element (C order).
ndarray multinomial_chain(Generator& g, const ndarray& n, const std::vector<double>& pvals, std::int64_t k,
                          const Shape& batch) {
  const std::size_t rows = pvals.size() / static_cast<std::size_t>(k);
  std::vector<ndarray> counts;
  ndarray remaining = broadcast_to(n, batch).copy();
  std::vector<double> rest(rows, 1.0), q(rows);
  for (std::int64_t j = 0; j + 1 < k; ++j) {
    for (std::size_t r = 0; r < rows; ++r) {
      const double p = pvals[r * static_cast<std::size_t>(k) + static_cast<std::size_t>(j)];
      const double c = rest[r] > 0 ? p / rest[r] : 0.0;
      q[r] = std::isnan(c) ? 0.0 : std::min(std::max(c, 0.0), 1.0);
      rest[r] -= p;
    }
    const Param qp = rows == 1 ? Param(q[0]) : Param(array(q.data(), batch, float64, default_device()));
    ndarray x = g.binomial(Param(remaining), qp, batch);
    remaining = subtract(remaining, x);
    counts.push_back(x);
  }
  counts.push_back(remaining);
  return stack(counts, -1);
}

void check_pvals(const std::vector<double>& pvals, std::int64_t k) {
  for (double v : pvals)
    if (!(v >= 0 && v <= 1)) throw ValueError("pvals < 0, pvals > 1 or pvals contains NaNs");
  for (std::size_t r = 0; r < pvals.size() / static_cast<std::size_t>(k); ++r) {
    double head = 0;
    for (std::int64_t j = 0; j + 1 < k; ++j) head += pvals[r * static_cast<std::size_t>(k) + static_cast<std::size_t>(j)];
    if (head > 1.0 + 1e-12) throw ValueError("sum(pvals[:-1]) > 1.0");
  }
}

}  // namespace

ndarray multinomial_draw(Generator& g, const ndarray& n, const ndarray& pvals, const OptShape& size) {
  const std::int64_t k = pvals.shape().back();
  const ndarray narr = n.astype(int64);
  for (std::int64_t v : narr.to_vector<std::int64_t>())
    if (v < 0) throw ValueError("n < 0");
  const Shape pbatch(pvals.shape().begin(), pvals.shape().end() - 1);
  const Shape batch = draw_shape({narr.shape(), pbatch}, size);
  if (k == 0) return zeros(with_last(batch, {}, 0), int64, default_device());  // no categories (legacy NumPy)
  const std::vector<double> pv = pvals.astype(float64).to_vector<double>();
  check_pvals(pv, k);
  if (shape_size(batch) == 0 || k == 1) {
    if (k == 1) return broadcast_to(narr, batch).reshape(with_last(batch, {}, 1)).copy();
    return zeros(with_last(batch, {}, k), int64, default_device());
  }
  if (pbatch.empty()) return multinomial_chain(g, narr, pv, k, batch);
  const std::vector<double> rows = broadcast_to(pvals.astype(float64), with_last(batch, {}, k)).to_vector<double>();
  return multinomial_chain(g, narr, rows, k, batch);
}

ndarray Generator::multinomial(const Param& n, const ndarray& pvals, const OptShape& size) {
  if (pvals.ndim() == 0 || pvals.shape().back() == 0)
    throw ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
  const ndarray narr = n.is_array() ? n.array()
                                    : full({}, Scalar(static_cast<std::int64_t>(n.value())), int64, default_device());
  return multinomial_draw(*this, narr, pvals, size);
}

namespace {

// NumPy's allclose(a, b, rtol, atol) on host values.
bool all_close(const std::vector<double>& a, const std::vector<double>& b, double rtol, double atol) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::fabs(a[i] - b[i]) <= atol + rtol * std::fabs(b[i]))) return false;
  return true;
}

}  // namespace

ndarray multivariate_normal_draw(Generator& g, const ndarray& mean_in, const ndarray& cov_in, const OptShape& size,
                                 CovCheck check_valid, double tol, CovFactor method, DType dtype) {
  if (mean_in.ndim() != 1) throw ValueError("mean must be 1 dimensional");
  if (cov_in.ndim() != 2 || cov_in.shape()[0] != cov_in.shape()[1])
    throw ValueError("cov must be 2 dimensional and square");
  if (mean_in.shape()[0] != cov_in.shape()[0]) throw ValueError("mean and cov must have same length");
  if (size) check_size(*size);
  const ndarray mean = asarray(mean_in, float64, default_device()), cov = asarray(cov_in, float64, default_device());
  const std::int64_t n = mean.shape()[0];
  ndarray factor;  // x @ factor.T has covariance cov
  if (method == CovFactor::cholesky) {
    factor = linalg::cholesky(cov);
  } else {
    bool psd = true;
    if (method == CovFactor::svd) {
      const linalg::SVDResult r = linalg::svd(cov);
      if (check_valid != CovCheck::ignore) {
        const ndarray rebuilt = matmul(multiply(r.Vh.T(), r.S), r.Vh);
        psd = all_close(rebuilt.to_vector<double>(), cov.to_vector<double>(), tol, tol);
      }
      factor = multiply(r.U, sqrt(r.S));
    } else {
      const linalg::EighResult r = linalg::eigh(cov);
      if (check_valid != CovCheck::ignore)
        for (double v : r.eigenvalues.to_vector<double>()) psd = psd && !(v < -tol);
      factor = multiply(r.eigenvectors, sqrt(absolute(r.eigenvalues)));
    }
    if (!psd) {
      const char* message = "covariance is not symmetric positive-semidefinite.";
      if (check_valid == CovCheck::raise) throw ValueError(message);
      warn(message);
    }
  }
  const ndarray x = g.standard_normal(with_last(size, {}, n));
  return add(matmul(x, factor.T()), mean).astype(dtype);
}

ndarray Generator::multivariate_normal(const ndarray& mean, const ndarray& cov, const OptShape& size,
                                       CovCheck check_valid, double tol, CovFactor method, DType dtype) {
  return multivariate_normal_draw(*this, mean, cov, size, check_valid, tol, method, dtype);
}

std::string Generator::bytes(std::int64_t length) {
  if (length < 0) throw ValueError("negative dimensions are not allowed");
  const std::vector<std::uint64_t> words = random_raw({(length + 7) / 8}).to_vector<std::uint64_t>();
  std::string out(static_cast<std::size_t>(length), '\0');
  for (std::int64_t i = 0; i < length; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<char>(words[static_cast<std::size_t>(i / 8)] >> (8 * (i % 8)));
  return out;
}

}  // namespace copper::random
