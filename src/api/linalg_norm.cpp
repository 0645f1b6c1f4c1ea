// linalg.norm: NumPy's vector and matrix norms composed from ufuncs and reductions (so
// they run on the array's device); only ord=2, -2 and 'nuc' need singular values.
#include <cmath>
#include <limits>

#include "api/linalg_support.h"
#include "api/reduction_support.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::linalg {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// sqrt of the sum of |x|^2 over `axes`, in x's real type: one reduction kernel (no |x|^2
// temporary, the square root taken as each output is written).
ndarray two_norm(const ndarray& x, const Axes& axes, bool keepdims = false) {
  const api::ReducePlan plan = api::plan_reduction(x, axes, keepdims);
  return api::run_reduce(ops::ReduceOp::l2norm, x, plan, real_dtype(x.dtype()), std::nullopt, "add");
}

std::string order_text(const NormOrder& ord) {
  if (const auto* s = std::get_if<std::string>(&ord)) return *s;
  return "";
}

ndarray vector_norm(const ndarray& x, const NormOrder& ord, int axis, bool keepdims) {
  ReduceOptions keep;
  keep.keepdims = keepdims;
  if (std::holds_alternative<std::string>(ord))
    throw ValueError("Invalid norm order '" + order_text(ord) + "' for vectors");
  const double p = std::holds_alternative<std::monostate>(ord) ? 2.0 : std::get<double>(ord);
  if (p == inf) return amax(absolute(x), Axes(axis), keep);
  if (p == -inf) return amin(absolute(x), Axes(axis), keep);
  if (p == 0) return sum(astype(not_equal(x, 0), real_dtype(x.dtype())), Axes(axis), keep);
  if (p == 1) return sum(absolute(x), Axes(axis), keep);
  if (p == 2) return two_norm(x, Axes(axis), keepdims);
  const ndarray total = sum(power(absolute(x), p), Axes(axis), keep);
  return power(total, 1.0 / p);
}

ndarray matrix_norm(const ndarray& x, const NormOrder& ord, int row_axis, int col_axis) {
  // Singular values of the (row_axis, col_axis) matrices, moved to the end.
  auto singular_values = [&] { return svdvals(moveaxis(x, {row_axis, col_axis}, {-2, -1})); };
  if (std::holds_alternative<std::monostate>(ord) || order_text(ord) == "fro" || order_text(ord) == "f")
    return two_norm(x, Axes({row_axis, col_axis}));
  if (order_text(ord) == "nuc") return sum(singular_values(), Axes(-1));
  if (std::holds_alternative<std::string>(ord)) throw ValueError("Invalid norm order for matrices.");
  const double p = std::get<double>(ord);
  if (p == 2) return amax(singular_values(), Axes(-1));
  if (p == -2) return amin(singular_values(), Axes(-1));
  if (p == 1 || p == -1) {  // largest (smallest) column sum
    const ndarray sums = sum(absolute(x), Axes(row_axis));
    const int col = col_axis > row_axis ? col_axis - 1 : col_axis;
    return p == 1 ? amax(sums, Axes(col)) : amin(sums, Axes(col));
  }
  if (p == inf || p == -inf) {  // largest (smallest) row sum
    const ndarray sums = sum(absolute(x), Axes(col_axis));
    const int row = row_axis > col_axis ? row_axis - 1 : row_axis;
    return p == inf ? amax(sums, Axes(row)) : amin(sums, Axes(row));
  }
  throw ValueError("Invalid norm order for matrices.");
}

}  // namespace

ndarray norm(const ndarray& x_in, const NormOrder& ord, std::optional<std::vector<int>> axis, bool keepdims) {
  const ndarray x = is_inexact(x_in.dtype()) ? x_in : astype(x_in, float64);
  const int nd = x.ndim();
  if (!axis) {
    const std::string text = order_text(ord);
    const auto* p = std::get_if<double>(&ord);
    const bool frobenius = std::holds_alternative<std::monostate>(ord) || ((text == "f" || text == "fro") && nd == 2) ||
                           (p && *p == 2 && nd == 1);
    if (frobenius) {  // the 2-norm of all elements, whatever the shape
      ndarray r = two_norm(x, Axes());
      return keepdims ? reshape(r, Shape(nd, 1)) : r;
    }
    axis = std::vector<int>();
    for (int d = 0; d < nd; ++d) axis->push_back(d);
  }
  std::vector<int> axes = *axis;
  for (int& a : axes) a = normalize_axis(a, nd);
  ndarray r;
  if (axes.size() == 1) {
    return vector_norm(x, ord, axes[0], keepdims);
  } else if (axes.size() == 2) {
    if (axes[0] == axes[1]) throw ValueError("Duplicate axes given.");
    r = matrix_norm(x, ord, axes[0], axes[1]);
  } else {
    throw ValueError("Improper number of dimensions to norm.");
  }
  if (!keepdims) return r;
  Shape kept = x.shape();
  for (int a : axes) kept[a] = 1;
  return reshape(r, kept);
}

}  // namespace copper::linalg
