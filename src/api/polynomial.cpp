// The legacy polynomial functions: sums, products and derivatives as array arithmetic,
// Horner's scheme for polyval, least squares for polyfit, companion-matrix eigenvalues
// for roots. Each follows NumPy's own formulation so dtypes and rounding match.
#include <cmath>
#include <limits>

#include "copper/creation.hpp"
#include "copper/creation_matrices.hpp"
#include "copper/indexing.hpp"
#include "copper/linalg.hpp"
#include "copper/linalg_extra.hpp"
#include "copper/manipulation.hpp"
#include "copper/numerical.hpp"
#include "copper/polynomial.hpp"
#include "copper/reductions.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

ndarray head(const ndarray& p, std::int64_t stop) { return p[{Slice(std::nullopt, stop)}]; }

// The shorter of a1, a2 zero-extended at the front to the other's length.
std::pair<ndarray, ndarray> aligned(const ndarray& a1, const ndarray& a2) {
  const ndarray x = atleast_1d(a1), y = atleast_1d(a2);
  const std::int64_t d = y.shape()[0] - x.shape()[0];
  if (d > 0) return {concatenate({zeros({d}, x.dtype(), x.device()), x}, 0), y};
  if (d < 0) return {x, concatenate({zeros({-d}, y.dtype(), y.device()), y}, 0)};
  return {x, y};
}

// NumPy's mintypecode over 'GDFgdf': float32/complex64 stay, everything else goes to 64 bits.
DType min_inexact(DType t) {
  if (t == float32 || t == complex64 || t == complex128) return t;
  return float64;
}

// NumPy's polyder and polyint take len(p): a 0-d p is Python's TypeError.
void require_sized(const ndarray& p) {
  if (p.ndim() == 0) throw TypeError("len() of unsized object");
}

}  // namespace

ndarray poly(const ndarray& seq_of_zeros) {
  ndarray z = atleast_1d(seq_of_zeros);
  const Shape& sh = z.shape();
  if (sh.size() == 2 && sh[0] == sh[1] && sh[0] != 0) {
    z = linalg::eigvals(z);
  } else if (sh.size() == 1) {
    z = z.astype(min_inexact(z.dtype()));
  } else {
    throw ValueError("input must be 1d or non-empty square 2d array.");
  }
  if (z.shape()[0] == 0) return full({}, 1.0, float64, z.device());
  const DType t = z.dtype();
  ndarray a = ones({1}, t, z.device());
  for (std::int64_t i = 0; i < z.shape()[0]; ++i) {
    const ndarray factor = concatenate({ones({1}, t, z.device()), reshape(negative(z[{i}]), {1})}, 0);
    a = convolve(a, factor, "full");
  }
  if (is_complex(a.dtype())) {
    // Roots in conjugate pairs give real coefficients.
    const ndarray r = z.astype(complex128);
    if (all(equal(sort(r), sort(conjugate(r)))).item().to_bool()) a = copy(real(a));
  }
  return a;
}

ndarray polyadd(const ndarray& a1, const ndarray& a2) {
  auto [x, y] = aligned(a1, a2);
  return add(x, y);
}

ndarray polysub(const ndarray& a1, const ndarray& a2) {
  auto [x, y] = aligned(a1, a2);
  return subtract(x, y);
}

ndarray polymul(const ndarray& a1, const ndarray& a2) { return convolve(atleast_1d(a1), atleast_1d(a2)); }

ndarray polyder(const ndarray& p, int m) {
  require_sized(p);
  if (m < 0) throw ValueError("Order of derivative must be positive (see polyint)");
  ndarray val = p;
  for (int i = 0; i < m; ++i) {
    const std::int64_t n = val.shape()[0] - 1;
    val = multiply(head(val, std::max<std::int64_t>(n, 0)), arange(Scalar(n), Scalar(0), Scalar(-1), int64, p.device()));
  }
  return val;
}

ndarray polyint(const ndarray& p, int m, const std::optional<ndarray>& k) {
  require_sized(p);
  if (m < 0) throw ValueError("Order of integral must be positive (see polyder)");
  ndarray ks = k ? atleast_1d(*k) : zeros({m}, float64, p.device());
  if (ks.shape()[0] == 1 && m > 1) ks = multiply(ks[{std::int64_t{0}}], ones({m}, float64, p.device()));
  if (ks.shape()[0] < m) throw ValueError("k must be a scalar or a rank-1 array of length 1 or >m.");
  ndarray val = p;
  for (int i = 0; i < m; ++i) {
    const std::int64_t n = val.shape()[0];
    const ndarray integrated = divide(val, arange(Scalar(n), Scalar(0), Scalar(-1), int64, p.device()));
    val = concatenate({integrated, asarray(ks[{Slice(i, i + 1)}], std::nullopt, p.device())}, 0);
  }
  return val;
}

ndarray polyval(const ndarray& p, const ndarray& x) {
  ndarray y = zeros_like(x);
  for (std::int64_t i = 0; i < (p.ndim() == 0 ? 0 : p.shape()[0]); ++i) y = add(multiply(y, x), p[{i}]);
  return y;
}

std::pair<ndarray, ndarray> polydiv(const ndarray& u_in, const ndarray& v_in) {
  const ndarray u = add(atleast_1d(u_in), 0.0), v = add(atleast_1d(v_in), 0.0);
  const DType t = promote_types(u.dtype(), v.dtype());
  const std::int64_t m = u.shape()[0] - 1, n = v.shape()[0] - 1;
  const ndarray scale = divide(1.0, v[{std::int64_t{0}}]);
  ndarray q = zeros({std::max<std::int64_t>(m - n + 1, 1)}, t, u.device());
  ndarray r = u.astype(t);
  for (std::int64_t k = 0; k < m - n + 1; ++k) {
    const ndarray d = multiply(scale, r[{k}]);
    q.assign({k}, d);
    ndarray part = r[{Slice(k, k + n + 1)}];
    part.assign(subtract(part, multiply(d, v)));
  }
  // Leading remainder terms within 1e-8 of zero go (NumPy's allclose(r[0], 0, rtol=1e-14)).
  const ndarray near_zero = less_equal(absolute(r), 1e-8);
  const auto flags = near_zero.to_vector<bool>();
  std::int64_t drop = 0;
  while (drop + 1 < static_cast<std::int64_t>(flags.size()) && flags[drop]) ++drop;
  return {q, r[{Slice(drop, std::nullopt)}]};
}

PolyfitResult polyfit(const ndarray& x_in, const ndarray& y_in, std::int64_t deg, std::optional<double> rcond,
                      const std::optional<ndarray>& w_in, const std::string& cov) {
  const std::int64_t order = deg + 1;
  const ndarray x = add(x_in, 0.0), y = add(y_in, 0.0);
  if (deg < 0) throw ValueError("expected deg >= 0");
  if (x.ndim() != 1) throw TypeError("expected 1D vector for x");
  if (x.size() == 0) throw TypeError("expected non-empty vector for x");
  if (y.ndim() < 1 || y.ndim() > 2) throw TypeError("expected 1D or 2D array for y");
  if (x.shape()[0] != y.shape()[0]) throw TypeError("expected x and y to have same length");
  const double eps = real_dtype(x.dtype()) == float32 ? std::numeric_limits<float>::epsilon()
                                                      : std::numeric_limits<double>::epsilon();
  const double rc = rcond.value_or(static_cast<double>(x.shape()[0]) * eps);
  ndarray lhs = vander(x, order);
  ndarray rhs = y;
  if (w_in) {
    const ndarray w = add(*w_in, 0.0);
    if (w.ndim() != 1) throw TypeError("expected a 1-d array for weights");
    if (w.shape()[0] != y.shape()[0]) throw TypeError("expected w and y to have the same length");
    const ndarray wcol = expand_dims(w, {1});
    lhs = multiply(lhs, wcol);
    rhs = rhs.ndim() == 2 ? multiply(rhs, wcol) : multiply(rhs, w);
  }
  const ndarray scale = sqrt(sum(multiply(lhs, lhs), 0));
  lhs = divide(lhs, scale);
  linalg::LstsqResult fit = linalg::lstsq(lhs, rhs, rc);
  PolyfitResult out;
  out.coefficients = transpose(divide(transpose(fit.x), scale));
  out.residuals = fit.residuals;
  out.rank = fit.rank;
  out.singular_values = fit.s;
  out.rcond = rc;
  if (!cov.empty()) {
    ndarray vbase = divide(linalg::inv(matmul(transpose(lhs), lhs)), outer(scale, scale));
    ndarray fac = full({}, 1.0, float64, x.device());
    if (cov != "unscaled") {
      if (x.shape()[0] <= order)
        throw ValueError("the number of data points must exceed order to scale the covariance matrix");
      fac = divide(fit.residuals, static_cast<double>(x.shape()[0] - order));
    }
    out.covariance = y.ndim() == 1 ? multiply(vbase, fac) : multiply(expand_dims(vbase, {2}), fac);
  }
  return out;
}

ndarray roots(const ndarray& p_in) {
  ndarray p = atleast_1d(p_in);
  if (p.ndim() != 1) throw ValueError("Input must be a rank-1 array.");
  const ndarray nz = flatnonzero(p);
  if (nz.size() == 0) return empty({0}, float64, p.device());
  const auto idx = nz.to_vector<std::int64_t>();
  const std::int64_t trailing = p.shape()[0] - idx.back() - 1;
  p = p[{Slice(idx.front(), idx.back() + 1)}];
  if (!is_inexact(p.dtype())) p = p.astype(float64);
  const std::int64_t N = p.shape()[0];
  ndarray r;
  if (N > 1) {
    ndarray A = diag(ones({N - 2}, p.dtype(), p.device()), -1);
    A.assign({std::int64_t{0}}, divide(negative(p[{Slice(1, std::nullopt)}]), p[{std::int64_t{0}}]));
    r = linalg::eigvals(A);
    // eigvals is always complex (NumPy 2.5); roots of a real polynomial stay real when every
    // root is, as NumPy's roots does.
    if (!is_complex(p.dtype()) && !any(not_equal(imag(r), 0)).item().to_bool()) r = copy(real(r));
  } else {
    r = empty({0}, float64, p.device());
  }
  return concatenate({r, zeros({trailing}, r.dtype(), p.device())}, 0);
}

}  // namespace copper
