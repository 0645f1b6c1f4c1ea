// diagonal (a strided view), trace, diag, tril, triu.
#include "api/array_factory.h"
#include "copper/creation.hpp"
#include "api/linalg_support.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

using api::linalg_detail::named_axis;

// Keeps m where column - row <= k (lower) or >= k (upper) over the last two axes.
ndarray triangle(const ndarray& m, int k, bool lower) {
  if (m.ndim() == 0) throw TypeError("tri() missing 1 required positional argument: 'N'");
  const std::int64_t rows = m.ndim() >= 2 ? m.shape()[m.ndim() - 2] : m.shape()[0];
  const std::int64_t cols = m.shape().back();
  const Device device = m.device();
  const ndarray i = reshape(arange(Scalar(rows), DType::int64, device), {rows, 1});
  const ndarray j = reshape(arange(Scalar(cols), DType::int64, device), {1, cols});
  const ndarray diff = subtract(j, i);
  const ndarray keep = lower ? less_equal(diff, k) : greater_equal(diff, k);
  return where(keep, m, zeros(Shape{}, m.dtype(), device));
}

}  // namespace

ndarray diagonal(const ndarray& a, int offset, int axis1, int axis2) {
  if (a.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  axis1 = named_axis("axis1", axis1, a.ndim());
  axis2 = named_axis("axis2", axis2, a.ndim());
  if (axis1 == axis2) throw ValueError("axis1 and axis2 cannot be the same");
  const std::int64_t n1 = a.shape()[axis1], n2 = a.shape()[axis2];
  const std::int64_t s1 = a.strides()[axis1], s2 = a.strides()[axis2];
  std::int64_t length = offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2);
  length = std::max<std::int64_t>(length, 0);
  std::int64_t start = a.offset();
  if (length > 0) start += offset >= 0 ? offset * s2 : -static_cast<std::int64_t>(offset) * s1;
  Shape shape;
  Strides strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis1 || d == axis2) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  shape.push_back(length);
  strides.push_back(s1 + s2);
  return a.view_as(a.dtype(), shape, strides, start);
}

ndarray trace(const ndarray& a, int offset, int axis1, int axis2, std::optional<DType> dtype,
              std::optional<ndarray> out) {
  ReduceOptions opts;
  opts.dtype = dtype;
  opts.out = out;
  return sum(diagonal(a, offset, axis1, axis2), Axes(-1), opts);
}

ndarray diag(const ndarray& v, int k) {
  if (v.ndim() == 2) return diagonal(v, k);
  if (v.ndim() != 1) throw ValueError("Input must be 1- or 2-d.");
  const std::int64_t n = v.shape()[0] + (k >= 0 ? k : -static_cast<std::int64_t>(k));
  ndarray result = zeros({n, n}, v.dtype(), v.device());
  diagonal(result, k).assign(v);
  return result;
}

ndarray tril(const ndarray& m, int k) { return triangle(m, k, true); }
ndarray triu(const ndarray& m, int k) { return triangle(m, k, false); }

}  // namespace copper
