// tri, diagflat, vander and geomspace, composed from arange/outer comparisons, diag,
// cumprod and logspace so that both devices run them unchanged.
#include "copper/creation.hpp"
#include "copper/creation_matrices.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

ndarray tri(std::int64_t N, std::optional<std::int64_t> M, std::int64_t k, DType dtype, Device device) {
  const std::int64_t m = M.value_or(N);
  if (N < 0 || m < 0) throw ValueError("negative dimensions are not allowed");
  const ndarray rows = reshape(arange(Scalar(N), int64, device), {N, 1});
  const ndarray cols = arange(Scalar(-k), Scalar(m - k), Scalar(1), int64, device);
  return greater_equal(rows, cols).astype(dtype, Casting::unsafe, false);
}

ndarray diagflat(const ndarray& v, std::int64_t k) { return diag(ravel(v), static_cast<int>(k)); }

ndarray vander(const ndarray& x, std::optional<std::int64_t> N, bool increasing) {
  if (x.ndim() != 1) throw ValueError("x must be a one-dimensional array or sequence.");
  const std::int64_t n = N.value_or(x.shape()[0]);
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  const DType t = promote_types(x.dtype(), int64);
  const std::int64_t rows = x.shape()[0];
  ndarray v;
  if (n == 0) {
    v = empty({rows, 0}, t, x.device());
  } else {
    // [1, x, x, ...] then running products along the row: 1, x, x*x, ... as NumPy's accumulate.
    const ndarray first = ones({rows, 1}, t, x.device());
    const ndarray xs = broadcast_to(reshape(x.astype(t), {rows, 1}), {rows, n - 1});
    v = cumprod(concatenate({first, xs}, 1), 1);
  }
  return increasing ? v : ascontiguousarray(flip(v, std::vector<int>{1}));
}

ndarray geomspace(const operand& start, const operand& stop, std::int64_t num, bool endpoint,
                  std::optional<DType> dtype, int axis, Device device) {
  auto as_array = [&](const operand& v) {
    return v.is_array() ? v.array() : full({}, v.scalar(), std::nullopt, device);
  };
  const ndarray lo = as_array(start), hi = as_array(stop);
  if (any(equal(lo, 0)).item().to_bool() || any(equal(hi, 0)).item().to_bool())
    throw ValueError("Geometric sequence cannot include zero");
  // NumPy's result_type(start, stop, float(num), zeros((), dtype)): inexact, at least
  // the requested dtype's precision.
  DType t = promote_types(promote_types(lo.dtype(), hi.dtype()), dtype.value_or(float64));
  if (!is_inexact(t)) t = float64;
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const ndarray a = lo.astype(t), b = hi.astype(t);
  const ndarray out_sign = sign(a);
  const ndarray a1 = divide(a, out_sign), b1 = divide(b, out_sign);
  ndarray result = logspace(operand(log10(a1)), operand(log10(b1)), num, endpoint, operand(10.0), t, 0, device);
  // Exact end points (exp(log(x)) need not give x back).
  if (num > 0) {
    result.assign({std::int64_t{0}}, a1);
    if (num > 1 && endpoint) result.assign({std::int64_t{-1}}, b1);
  }
  result = multiply(result, out_sign).astype(t);
  if (axis != 0) result = moveaxis(result, {0}, {axis});
  return dtype ? result.astype(*dtype, Casting::unsafe, false) : result;
}

}  // namespace copper
