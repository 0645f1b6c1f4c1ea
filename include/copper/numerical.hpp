// NumPy's numerical routines built from copper's own operations (src/api/numerical_*.cpp):
// differences and gradients, convolution and correlation, interpolation, integration,
// phase unwrapping, and the matrix-vector products matvec/vecmat.
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// ary flattened, differences of neighbours, to_begin/to_end (cast 'same_kind' to ary's dtype) around them.
ndarray ediff1d(const ndarray& ary, const std::optional<ndarray>& to_end = std::nullopt,
                const std::optional<ndarray>& to_begin = std::nullopt);
// A gradient spacing: a scalar (weak, as a Python number) or an array (0-d: one spacing,
// 1-d: the coordinates along that axis).
using Spacing = std::variant<Scalar, ndarray>;
// Second-order central differences inside, one-sided (edge_order 1 or 2) at the ends.
// spacing: none (1.0), one scalar for every axis, or one per axis. axis none: every axis.
// One array per axis.
std::vector<ndarray> gradient(const ndarray& f, const std::vector<Spacing>& spacing = {},
                              std::optional<std::vector<int>> axis = std::nullopt, int edge_order = 1);
// mode: "full", "same" or "valid". correlate conjugates v (NumPy's correlate).
ndarray convolve(const ndarray& a, const ndarray& v, const std::string& mode = "full");
ndarray correlate(const ndarray& a, const ndarray& v, const std::string& mode = "valid");
// Piecewise-linear interpolation of (xp, fp) at x (float64, or complex128 for complex fp).
ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, std::optional<Scalar> left = std::nullopt,
               std::optional<Scalar> right = std::nullopt, std::optional<double> period = std::nullopt);
// The trapezoidal rule along axis, with sample points x (1-d, or shaped like y) or spacing dx.
ndarray trapezoid(const ndarray& y, const std::optional<ndarray>& x = std::nullopt, const Scalar& dx = Scalar(1.0),
                  int axis = -1);
// Adds multiples of period to steps larger than discont (default period/2) along axis.
ndarray unwrap(const ndarray& p, std::optional<Scalar> discont = std::nullopt, int axis = -1,
               const Scalar& period = Scalar(6.283185307179586));
// (..., m, n) x (..., n) -> (..., m) and conj((..., n)) x (..., n, m) -> (..., m), stacks broadcast.
ndarray matvec(const ndarray& x1, const ndarray& x2);
ndarray vecmat(const ndarray& x1, const ndarray& x2);

}  // namespace copper
