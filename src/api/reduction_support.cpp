// Axis parsing, shapes, out= checks and the backend call shared by every reduction.
#include "api/reduction_support.h"

#include <string>

#include "api/fusion_deferred.h"
#include "api/ufunc.h"
#include "copper/manipulation.hpp"

namespace copper::api {

ReducePlan plan_reduction(const ndarray& a, const Axes& axes, bool keepdims) {
  const int nd = a.ndim();
  ReducePlan p;
  p.keepdims = keepdims;
  p.reduced.assign(nd, axes.all());
  // NumPy lets a 0-d array take one axis 0 or -1 (there is nothing to reduce).
  bool scalar_axis = nd == 0 && !axes.all() && axes.list().size() == 1 &&
                     (axes.list()[0] == 0 || axes.list()[0] == -1);
  if (!axes.all() && !scalar_axis) {
    for (int ax : axes.list()) {
      int d = normalize_axis(ax, nd);
      if (p.reduced[d]) throw ValueError("duplicate value in 'axis'");
      p.reduced[d] = true;
    }
  }
  for (int d = 0; d < nd; ++d) {
    if (p.reduced[d]) {
      ++p.nreduce;
      p.count *= a.shape()[d];
      if (keepdims) p.result_shape.push_back(1);
    } else {
      p.kept_shape.push_back(a.shape()[d]);
      p.result_shape.push_back(a.shape()[d]);
    }
  }
  return p;
}

ndarray reduced_axes_last(const ndarray& a, const ReducePlan& plan) {
  Shape shape;
  Strides strides;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < a.ndim(); ++d)
      if (plan.reduced[d] == (pass == 1)) {
        shape.push_back(a.shape()[d]);
        strides.push_back(a.strides()[d]);
      }
  return ndarray(a.buffer(), a.dtype(), shape, strides, a.offset());
}

DType default_sum_dtype(DType t) {
  switch (t) {
    case DType::bool_:
    case DType::int8:
    case DType::int16:
    case DType::int32: return DType::int64;
    case DType::uint8:
    case DType::uint16:
    case DType::uint32: return DType::uint64;
    default: return t;
  }
}

namespace {
std::string join_dims(const std::vector<std::string>& dims) {
  std::string s = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + dims[i];
  return s + ")";
}
}  // namespace

void check_reduce_out(const ndarray& out, const ndarray& a, const ReducePlan& plan, std::string_view ufunc) {
  common_device({&a, &out}, a.device());
  const Shape& want = plan.result_shape;
  if (out.ndim() != static_cast<int>(want.size())) {
    throw ValueError("output parameter for reduction operation " + std::string(ufunc) +
                     " has the wrong number of dimensions: Found " + std::to_string(out.ndim()) + " but expected " +
                     std::to_string(want.size()));
  }
  for (int i = 0; i < out.ndim(); ++i) {
    if (out.shape()[i] == want[i]) continue;
    if (out.shape()[i] == 1) {
      throw ValueError("output operand requires a reduction along dimension " + std::to_string(i) +
                       ", but the reduction is not enabled. The dimension size of 1 does not match the expected "
                       "output shape.");
    }
    // NumPy prints out's shape remapped onto the input's axes (newaxis where reduced).
    std::vector<std::string> remapped;
    int k = 0;
    for (int d = 0; d < a.ndim(); ++d) {
      if (plan.reduced[d] && !plan.keepdims) {
        if (k > 0) remapped.push_back("newaxis");
      } else {
        remapped.push_back(std::to_string(out.shape()[k++]));
      }
    }
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_str(out.shape()) + "->" + join_dims(remapped) + " " + shape_str(a.shape()) + " ");
  }
}

void check_nonempty(const ReducePlan& plan, std::string_view ufunc) {
  if (plan.count == 0)
    throw ValueError("zero-size array to reduction operation " + std::string(ufunc) + " which has no identity");
}

ndarray where_mask(const ndarray& where, const ndarray& a) {
  common_device({&a, &where}, a.device());
  if (!can_cast(where.dtype(), bool_, Casting::safe))
    throw TypeError("Cannot cast array data from " + dtype_repr(where.dtype()) +
                    " to dtype('bool') according to the rule 'safe'");
  return broadcast_to(where.astype(bool_, Casting::unsafe, false), a.shape());
}

void deliver(const ndarray& result, const ndarray& out) {
  if (out.size()) backend_of(out).copy(backend::view_of(result), backend::view_of(out));
}

ndarray run_reduce(ops::ReduceOp op, const ndarray& a, const ReducePlan& plan, DType acc,
                   const std::optional<ndarray>& out, std::string_view ufunc) {
  if (out) check_reduce_out(*out, a, plan, ufunc);
  ndarray in = reduced_axes_last(a, plan);
  // Straight into out when it has the accumulation dtype and does not overlap the input.
  if (out && out->dtype() == acc && !may_share_memory(*out, a)) {
    Strides kept_strides;
    for (int d = 0, k = 0; d < a.ndim(); ++d) {
      if (!plan.reduced[d]) kept_strides.push_back(out->strides()[k]);
      if (!plan.reduced[d] || plan.keepdims) ++k;
    }
    ndarray target(out->buffer(), acc, plan.kept_shape, kept_strides, out->offset());
    if (target.size() && !defer_reduce(op, in, plan.nreduce, target))
      backend_of(a).reduce(op, backend::view_of(in), plan.nreduce, backend::view_of(target));
    return *out;
  }
  ndarray result = allocate(plan.kept_shape, acc, a.device());
  if (result.size() && !defer_reduce(op, in, plan.nreduce, result))
    backend_of(a).reduce(op, backend::view_of(in), plan.nreduce, backend::view_of(result));
  if (plan.keepdims) result = ndarray(result.buffer(), acc, plan.result_shape, c_strides(plan.result_shape, itemsize(acc)), 0);
  if (!out) return result;
  deliver(result, *out);
  return *out;
}

}  // namespace copper::api
