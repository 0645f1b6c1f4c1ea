// dot, vdot, inner, outer, tensordot, kron: each reshaped into one matmul (or one
// broadcast multiply), so both backends only need the batched GEMM.
#include <numeric>

#include "api/array_factory.h"
#include "api/promotion.h"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

[[noreturn]] void not_aligned(const ndarray& a, const Shape& b_shape, int b_dim) {
  throw ValueError("shapes " + shape_str(a.shape()) + " and " + shape_str(b_shape) + " not aligned: " +
                   std::to_string(a.shape().back()) + " (dim " + std::to_string(a.ndim() - 1) + ") != " +
                   std::to_string(b_shape[b_dim]) + " (dim " + std::to_string(b_dim) + ")");
}

Shape take(const Shape& s, const std::vector<int>& axes) {
  Shape r;
  for (int ax : axes) r.push_back(s[ax]);
  return r;
}

UfuncOptions with_out(const std::optional<ndarray>& out) {
  UfuncOptions o;
  o.out = out;
  return o;
}

}  // namespace

ndarray tensordot(const ndarray& a, const ndarray& b, const std::vector<int>& axes_a_in,
                  const std::vector<int>& axes_b_in) {
  if (axes_a_in.size() != axes_b_in.size()) throw ValueError("shape-mismatch for sum");
  std::vector<int> axes_a, axes_b;
  for (std::size_t i = 0; i < axes_a_in.size(); ++i) {
    axes_a.push_back(normalize_axis(axes_a_in[i], a.ndim()));
    axes_b.push_back(normalize_axis(axes_b_in[i], b.ndim()));
    if (a.shape()[axes_a.back()] != b.shape()[axes_b.back()]) throw ValueError("shape-mismatch for sum");
  }
  std::vector<int> free_a, free_b;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(axes_a.begin(), axes_a.end(), d) == axes_a.end()) free_a.push_back(d);
  for (int d = 0; d < b.ndim(); ++d)
    if (std::find(axes_b.begin(), axes_b.end(), d) == axes_b.end()) free_b.push_back(d);
  const Shape fa = take(a.shape(), free_a), fb = take(b.shape(), free_b);
  const std::int64_t k = shape_size(take(a.shape(), axes_a));
  std::vector<int> perm_a = free_a, perm_b = axes_b;
  perm_a.insert(perm_a.end(), axes_a.begin(), axes_a.end());
  perm_b.insert(perm_b.end(), free_b.begin(), free_b.end());
  const ndarray a2 = reshape(transpose(a, perm_a), {shape_size(fa), k});
  const ndarray b2 = reshape(transpose(b, perm_b), {k, shape_size(fb)});
  Shape result_shape = fa;
  result_shape.insert(result_shape.end(), fb.begin(), fb.end());
  return reshape(matmul(a2, b2), result_shape);
}

ndarray tensordot(const ndarray& a, const ndarray& b, int axes) {
  if (axes < 0 || axes > a.ndim() || axes > b.ndim()) throw ValueError("shape-mismatch for sum");
  std::vector<int> axes_a, axes_b;
  for (int i = 0; i < axes; ++i) {
    axes_a.push_back(a.ndim() - axes + i);
    axes_b.push_back(i);
  }
  return tensordot(a, b, axes_a, axes_b);
}

ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b, with_out(out));
  const int b_dim = b.ndim() >= 2 ? b.ndim() - 2 : 0;
  if (a.shape().back() != b.shape()[b_dim]) not_aligned(a, b.shape(), b_dim);
  if (out) {
    Shape expected(a.shape().begin(), a.shape().end() - 1);
    for (int d = 0; d < b.ndim(); ++d)
      if (d != b_dim) expected.push_back(b.shape()[d]);
    const DType type = api::result_type({operand(a), operand(b)}, false);
    if (out->dtype() != type || out->ndim() != static_cast<int>(expected.size()) || !out->is_c_contiguous())
      throw ValueError("output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
    if (out->shape() != expected) throw ValueError("output array has wrong dimensions");
  }
  // matmul already has dot's result layout unless b is a stack (then dot pairs every
  // row of a with every matrix of b: a tensordot).
  ndarray result = b.ndim() <= 2 ? matmul(a, b) : tensordot(a, b, {a.ndim() - 1}, {b_dim});
  if (!out) return result;
  copyto(*out, result, Casting::unsafe);
  return *out;
}

ndarray vdot(const ndarray& a, const ndarray& b) {
  if (a.size() != b.size())
    throw ValueError("cannot reshape array of size " + std::to_string(b.size()) + " into shape (" +
                     std::to_string(a.size()) + ",)");
  MatmulOptions conjugated;
  conjugated.conjugate_a = true;
  return matmul(ravel(a), ravel(b), std::nullopt, conjugated);
}

ndarray inner(const ndarray& a, const ndarray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape().back() != b.shape().back()) {
    // NumPy reports b with its last axis moved next-to-last, the layout it multiplies.
    Shape bt = b.shape();
    if (b.ndim() >= 2) std::swap(bt[b.ndim() - 1], bt[b.ndim() - 2]);
    not_aligned(a, bt, b.ndim() >= 2 ? b.ndim() - 2 : 0);
  }
  return tensordot(a, b, {-1}, {-1});
}

ndarray outer(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  const ndarray x = ravel(a), y = ravel(b);
  return multiply(reshape(x, {x.size(), 1}), reshape(y, {1, y.size()}), with_out(out));
}

ndarray kron(const ndarray& a, const ndarray& b) {
  const int nd = std::max(a.ndim(), b.ndim());
  Shape sa(nd - a.ndim(), 1), sb(nd - b.ndim(), 1);
  sa.insert(sa.end(), a.shape().begin(), a.shape().end());
  sb.insert(sb.end(), b.shape().begin(), b.shape().end());
  // (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...) -> (a0*b0, a1*b1, ...)
  Shape ea, eb, result_shape;
  for (int d = 0; d < nd; ++d) {
    ea.insert(ea.end(), {sa[d], 1});
    eb.insert(eb.end(), {1, sb[d]});
    result_shape.push_back(sa[d] * sb[d]);
  }
  return reshape(multiply(reshape(a, ea), reshape(b, eb)), result_shape);
}

}  // namespace copper
