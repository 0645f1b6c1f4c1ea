// multi_dot (NumPy's matrix-chain order), tensorinv and tensorsolve: reshapes and
// transposes around dot, inv and solve.
#include <limits>
#include <numeric>
#include <string>

#include "copper/linalg.hpp"
#include "copper/linalg_extra.hpp"
#include "copper/manipulation.hpp"

namespace copper::linalg {
namespace {

using Order2 = std::vector<std::vector<std::size_t>>;

// The split points s[i][j] of the cheapest parenthesization (dynamic programming; the
// first of equally cheap splits, as NumPy).
Order2 chain_order(const std::vector<ndarray>& arrays) {
  const std::size_t n = arrays.size();
  std::vector<double> p;
  for (const ndarray& a : arrays) p.push_back(static_cast<double>(a.shape()[0]));
  p.push_back(static_cast<double>(arrays.back().shape()[1]));
  std::vector<std::vector<double>> m(n, std::vector<double>(n, 0.0));
  Order2 s(n, std::vector<std::size_t>(n, 0));
  for (std::size_t l = 1; l < n; ++l) {
    for (std::size_t i = 0; i + l < n; ++i) {
      const std::size_t j = i + l;
      m[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t k = i; k < j; ++k) {
        const double cost = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (cost < m[i][j]) {
          m[i][j] = cost;
          s[i][j] = k;
        }
      }
    }
  }
  return s;
}

ndarray chain(const std::vector<ndarray>& arrays, const Order2& s, std::size_t i, std::size_t j,
              const std::optional<ndarray>& out) {
  if (i == j) return arrays[i];
  return dot(chain(arrays, s, i, s[i][j], std::nullopt), chain(arrays, s, s[i][j] + 1, j, std::nullopt), out);
}

}  // namespace

ndarray multi_dot(const std::vector<ndarray>& in, const std::optional<ndarray>& out) {
  const std::size_t n = in.size();
  if (n < 2) throw ValueError("Expecting at least two arrays.");
  if (n == 2) return dot(in[0], in[1], out);
  std::vector<ndarray> arrays = in;
  const int first_nd = arrays.front().ndim(), last_nd = arrays.back().ndim();
  if (first_nd == 1) arrays.front() = atleast_2d(arrays.front());
  if (last_nd == 1) arrays.back() = transpose(atleast_2d(arrays.back()));
  for (const ndarray& a : arrays)
    if (a.ndim() != 2)
      throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be two-dimensional");
  ndarray result;
  if (n == 3) {
    const ndarray &A = arrays[0], &B = arrays[1], &C = arrays[2];
    const double a0 = static_cast<double>(A.shape()[0]), a1b0 = static_cast<double>(A.shape()[1]);
    const double b1c0 = static_cast<double>(C.shape()[0]), c1 = static_cast<double>(C.shape()[1]);
    const double cost1 = a0 * b1c0 * (a1b0 + c1), cost2 = a1b0 * c1 * (a0 + b1c0);
    result = cost1 < cost2 ? dot(dot(A, B), C, out) : dot(A, dot(B, C), out);
  } else {
    result = chain(arrays, chain_order(arrays), 0, n - 1, out);
  }
  if (first_nd == 1 && last_nd == 1) return result[{std::int64_t{0}, std::int64_t{0}}];
  if (first_nd == 1 || last_nd == 1) return ravel(result);
  return result;
}

ndarray tensorinv(const ndarray& a, int ind) {
  if (ind <= 0) throw ValueError("Invalid ind argument.");
  const Shape& old = a.shape();
  const std::size_t split = std::min<std::size_t>(static_cast<std::size_t>(ind), old.size());
  std::int64_t prod = 1;
  for (std::size_t i = split; i < old.size(); ++i) prod *= old[i];
  Shape inv_shape(old.begin() + static_cast<std::ptrdiff_t>(split), old.end());
  inv_shape.insert(inv_shape.end(), old.begin(), old.begin() + static_cast<std::ptrdiff_t>(split));
  const ndarray ia = inv(reshape(a, {prod, -1}));
  return reshape(ia, inv_shape);
}

ndarray tensorsolve(const ndarray& a_in, const ndarray& b, const std::optional<std::vector<int>>& axes) {
  ndarray a = a_in;
  const int an = a.ndim();
  if (axes) {
    std::vector<int> all(static_cast<std::size_t>(an));
    std::iota(all.begin(), all.end(), 0);
    for (int k : *axes) {
      auto it = std::find(all.begin(), all.end(), k < 0 ? k + an : k);
      if (it == all.end()) throw ValueError("list.remove(x): x not in list");
      all.erase(it);
      all.push_back(k < 0 ? k + an : k);
    }
    a = transpose(a, all);
  }
  const int keep = an - b.ndim();
  Shape old_shape(a.shape().end() - std::max(keep, 0), a.shape().end());
  if (keep <= 0) old_shape = a.shape();
  std::int64_t prod = 1;
  for (std::int64_t d : old_shape) prod *= d;
  if (a.size() != prod * prod)
    // NumPy's message keeps the indentation of its source line.
    throw LinAlgError("Input arrays must satisfy the requirement             "
                      "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  const ndarray x = solve(reshape(a, {prod, prod}), ravel(b));
  return reshape(x, old_shape);
}

}  // namespace copper::linalg
