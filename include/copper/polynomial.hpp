// NumPy's legacy polynomial functions (coefficients highest power first), composed from
// convolve, lstsq, eigvals and elementwise operations (src/api/polynomial*.cpp).
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "copper/ndarray.hpp"

namespace copper {

// Coefficients of the monic polynomial with these roots (1-d), or of a square matrix's
// characteristic polynomial (2-d). No roots: the 0-d array 1.0.
ndarray poly(const ndarray& seq_of_zeros);
ndarray polyadd(const ndarray& a1, const ndarray& a2);
ndarray polysub(const ndarray& a1, const ndarray& a2);
ndarray polymul(const ndarray& a1, const ndarray& a2);
ndarray polyder(const ndarray& p, int m = 1);
// k: integration constants, one scalar for every order or at least m values (none: zeros).
ndarray polyint(const ndarray& p, int m = 1, const std::optional<ndarray>& k = std::nullopt);
ndarray polyval(const ndarray& p, const ndarray& x);  // Horner's scheme, x's shape
std::pair<ndarray, ndarray> polydiv(const ndarray& u, const ndarray& v);  // quotient, remainder
// Least-squares fit of degree deg; w: weights; rcond default len(x) * eps.
struct PolyfitResult {
  ndarray coefficients, residuals;
  std::int64_t rank = 0;
  ndarray singular_values;
  double rcond = 0;
  ndarray covariance;  // only when asked for (cov "scaled" or "unscaled")
};
// cov: "" (none), "scaled" (NumPy's cov=True) or "unscaled".
PolyfitResult polyfit(const ndarray& x, const ndarray& y, std::int64_t deg, std::optional<double> rcond = std::nullopt,
                      const std::optional<ndarray>& w = std::nullopt, const std::string& cov = "");
ndarray roots(const ndarray& p);  // the companion matrix's eigenvalues

}  // namespace copper
