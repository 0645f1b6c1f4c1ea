// numpy.linalg's general eigenproblem (LAPACK ?geev on the CPU, cusolverDnXgeev on a GPU)
// and the tensor/chain helpers composed from solve, inv and matmul
// (src/api/linalg_eig.cpp, linalg_tensor.cpp).
#pragma once
#include <optional>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper::linalg {

// Results are complex, also for real input whose eigenvalues are all real (NumPy 2.5's rule,
// and CuPy's; the Python module casts them to real when an older NumPy is installed, as it
// would); eigenvectors are the columns, normalized to unit length.
struct EigResult {
  ndarray eigenvalues, eigenvectors;
};
EigResult eig(const ndarray& a);
ndarray eigvals(const ndarray& a);
// The chained product in the cheapest multiplication order (the first array may be 1-d:
// a row; the last may be 1-d: a column; the others 2-d).
ndarray multi_dot(const std::vector<ndarray>& arrays, const std::optional<ndarray>& out = std::nullopt);
// The inverse of a reshaped to (prod(shape[ind:]), prod(shape[:ind])).
ndarray tensorinv(const ndarray& a, int ind = 2);
// x with tensordot(a, x, x.ndim) == b; axes: those of a moved to the end first.
ndarray tensorsolve(const ndarray& a, const ndarray& b, const std::optional<std::vector<int>>& axes = std::nullopt);

}  // namespace copper::linalg
