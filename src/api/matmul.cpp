// matmul: NumPy's gufunc (n?,k),(k,m?)->(n?,m?) rules (1-d promotion, stacked
// broadcasting, out= with same_kind casting, dtype=, casting=, axes=), then one batched GEMM
// in the backend.
#include <algorithm>

#include "api/array_factory.h"
#include "api/promotion.h"
#include "api/ufunc.h"
#include "backend/matmul_precision.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"

namespace copper {
namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

std::string remapped(const Shape& shape, int batch_dims) {
  std::string s = "(";
  for (int d = 0; d < batch_dims; ++d) s += std::to_string(shape[d]) + ",";
  s += "newaxis,newaxis)";
  return shape_str(shape) + "->" + s;
}

// A view of `a` (already 2-d or more) over batch shape `batch` + its own two core
// dimensions: stride 0 along broadcast batch dimensions.
backend::ArrayView broadcast_view(const ndarray& a, const Shape& batch) {
  backend::ArrayView v = backend::view_of(a);
  const int nb = static_cast<int>(batch.size()), own = a.ndim() - 2;
  v.shape = batch;
  v.strides.assign(nb, 0);
  for (int d = 0; d < own; ++d)
    if (a.shape()[d] != 1) v.strides[nb - own + d] = a.strides()[d];
  for (int d = own; d < own + 2; ++d) {
    v.shape.push_back(a.shape()[d]);
    v.strides.push_back(a.strides()[d]);
  }
  return v;
}

// Where an operand's `core` dimensions go (its last axes), after checking the axes= entry
// that says where they are.
std::vector<int> core_tail(const std::vector<int>& axes, std::size_t core, int entry) {
  if (axes.size() != core)
    throw AxisError("matmul: operand " + std::to_string(entry) + " has " + std::to_string(core) +
                    " core dimensions, but " + std::to_string(axes.size()) +
                    " dimensions are specified by axes tuple.");
  std::vector<int> tail;
  for (std::size_t c = 0; c < core; ++c) tail.push_back(static_cast<int>(c) - static_cast<int>(core));
  return tail;
}

ndarray matmul_impl(const ndarray& a_in, const ndarray& b_in, std::optional<ndarray> out,
                    std::optional<DType> loop, Casting casting, bool conjugate_a = false);

}  // namespace

ndarray matmul(const ndarray& a_in, const ndarray& b_in, std::optional<ndarray> out) {
  return matmul_impl(a_in, b_in, std::move(out), std::nullopt, Casting::same_kind);
}

ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out, const MatmulOptions& options) {
  if (options.dtype)
    for (int i = 0; i < 2; ++i) {
      const DType from = (i == 0 ? a : b).dtype();
      if (!can_cast(from, *options.dtype, options.casting))
        throw TypeError("Cannot cast ufunc 'matmul' input " + std::to_string(i) + " from " + api::dtype_repr(from) +
                        " to " + api::dtype_repr(*options.dtype) + " with casting rule '" +
                        std::string(name(options.casting)) + "'");
    }
  if (!options.axes) return matmul_impl(a, b, std::move(out), options.dtype, options.casting, options.conjugate_a);
  // axes=: move each operand's core dimensions last, multiply, move the result's back.
  const auto& axes = *options.axes;
  const std::size_t core_a = a.ndim() == 1 ? 1 : 2, core_b = b.ndim() == 1 ? 1 : 2;
  const std::size_t core_out = (a.ndim() != 1) + (b.ndim() != 1);
  if (axes.size() != 3)  // NumPy counts the result's core dimensions from the signature: 2, so always 3
    throw ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs can "
                     "only be omitted if none of them has core axes.");
  const ndarray a_moved = moveaxis(a, axes[0], core_tail(axes[0], core_a, 0));
  const ndarray b_moved = moveaxis(b, axes[1], core_tail(axes[1], core_b, 1));
  const std::vector<int>& out_axes = axes[2];
  const std::vector<int> tail = core_tail(out_axes, core_out, 2);
  if (out) {
    matmul_impl(a_moved, b_moved, moveaxis(*out, out_axes, tail), options.dtype, options.casting, options.conjugate_a);
    return *out;
  }
  return moveaxis(matmul_impl(a_moved, b_moved, std::nullopt, options.dtype, options.casting, options.conjugate_a),
                  tail, out_axes);
}

namespace {

ndarray matmul_impl(const ndarray& a_in, const ndarray& b_in, std::optional<ndarray> out,
                    std::optional<DType> loop, Casting casting, bool conjugate_a) {
  for (int i = 0; i < 2; ++i)
    if ((i == 0 ? a_in : b_in).ndim() == 0)
      throw ValueError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " + kSignature +
                       " requires 1)");
  const Device device = api::common_device({&a_in, &b_in, out ? &*out : nullptr}, a_in.device());
  const bool a_vec = a_in.ndim() == 1, b_vec = b_in.ndim() == 1;
  const ndarray a = a_vec ? a_in.view_as(a_in.dtype(), {1, a_in.shape()[0]}, {0, a_in.strides()[0]}, a_in.offset()) : a_in;
  const ndarray b = b_vec ? b_in.view_as(b_in.dtype(), {b_in.shape()[0], 1}, {b_in.strides()[0], 0}, b_in.offset()) : b_in;
  const std::int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const std::int64_t kb = b.shape()[b.ndim() - 2], n = b.shape()[b.ndim() - 1];
  if (k != kb)
    throw ValueError(std::string("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature ") +
                     kSignature + " (size " + std::to_string(kb) + " is different from " + std::to_string(k) + ")");
  Shape core;  // the result's own trailing dimensions
  if (!a_vec) core.push_back(m);
  if (!b_vec) core.push_back(n);

  // Batch dimensions: a's, b's and out='s broadcast together; out's must already be the result.
  const int na = a.ndim() - 2, nb = b.ndim() - 2;
  const int nout = out ? std::max(out->ndim() - static_cast<int>(core.size()), 0) : 0;
  const int nbatch = std::max({na, nb, nout});
  Shape batch(nbatch, 1);
  bool mismatch = false;
  auto merge = [&](const Shape& s, int count) {
    for (int d = 0; d < count; ++d) {
      std::int64_t& target = batch[nbatch - count + d];
      if (s[d] == 1) continue;
      if (target != 1 && target != s[d]) mismatch = true;
      target = s[d];
    }
  };
  merge(a.shape(), na);
  merge(b.shape(), nb);
  if (out && !mismatch) merge(out->shape(), nout);  // the inputs broadcast over out's extra batch dims
  if (mismatch)
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     remapped(a_in.shape(), na) + " " + remapped(b_in.shape(), nb) + "  and requested shape " +
                     shape_str(Shape{m, n}));
  const DType type = loop ? *loop : api::result_type({operand(a_in), operand(b_in)}, false);
  Shape result_shape = batch;
  result_shape.insert(result_shape.end(), core.begin(), core.end());
  if (out) {
    if (out->ndim() < static_cast<int>(core.size()))
      throw ValueError("matmul: Output operand 0 does not have enough dimensions (has " + std::to_string(out->ndim()) +
                       ", gufunc core with signature " + kSignature + " requires " + std::to_string(core.size()) + ")");
    for (std::size_t c = 0; c < core.size(); ++c) {
      const std::int64_t got = out->shape()[nout + c];
      if (got != core[c])
        throw ValueError(std::string("matmul: Output operand 0 has a mismatch in its core dimension ") +
                         std::to_string(c) + ", with gufunc signature " + kSignature + " (size " + std::to_string(got) +
                         " is different from " + std::to_string(core[c]) + ")");
    }
    if (out->shape() != result_shape)
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       remapped(a_in.shape(), na) + " " + remapped(b_in.shape(), nb) + " " +
                       shape_str(out->shape()) + "->" + shape_str(out->shape()) + "  and requested shape " +
                       shape_str(Shape{m, n}));
    if (!can_cast(type, out->dtype(), casting))
      throw TypeError("Cannot cast ufunc 'matmul' output from " + api::dtype_repr(type) + " to " +
                      api::dtype_repr(out->dtype()) + " with casting rule '" + std::string(name(casting)) + "'");
  }

  const ndarray a_cast = a.dtype() == type ? a : astype(a, type);
  const ndarray b_cast = b.dtype() == type ? b : astype(b, type);
  Shape full = batch;
  full.push_back(m);
  full.push_back(n);
  // Straight into out= when it is a compact result of the right dtype that no input reads.
  const bool direct = out && out->dtype() == type && out->is_c_contiguous() && !api::overlaps(*out, a_cast) &&
                      !api::overlaps(*out, b_cast);
  ndarray dst = direct ? out->view_as(type, full, c_strides(full, itemsize(type)), out->offset())
                       : api::allocate(full, type, device);
  auto& be = api::backend_of(dst);
  const backend::ArrayView a_view = broadcast_view(a_cast, batch), b_view = broadcast_view(b_cast, batch);
  const backend::ArrayView dst_view = backend::view_of(dst);
  if (!(conjugate_a && is_complex(type))) be.matmul(a_view, b_view, dst_view);
  else if (!be.matmul_conjugate_a(a_view, b_view, dst_view))
    be.matmul(broadcast_view(conjugate(a_cast), batch), b_view, dst_view);
  if (!out) return ndarray(dst.buffer(), type, result_shape, c_strides(result_shape, itemsize(type)), 0);
  ndarray result = dst.view_as(type, result_shape, c_strides(result_shape, itemsize(type)), dst.offset());
  if (!direct) copyto(*out, result, Casting::unsafe);
  return *out;
}

}  // namespace

void set_matmul_precision(const std::string& precision) {
  if (precision == "highest") backend::matmul_allows_tf32() = false;
  else if (precision == "tf32") backend::matmul_allows_tf32() = true;
  else throw ValueError("matmul precision must be 'highest' or 'tf32', got '" + precision + "'");
}

std::string get_matmul_precision() { return backend::matmul_allows_tf32() ? "tf32" : "highest"; }

}  // namespace copper
