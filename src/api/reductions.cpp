// sum, prod, min/max, all/any and their nan forms: dtype rules, then one backend call.
#include "copper/reductions.hpp"

#include "api/reduction_support.h"

namespace copper {

namespace {

using api::plan_reduction;
using api::run_reduce;
using ops::ReduceOp;

void reject_dtype(const ReduceOptions& opts, const char* fn) {
  if (opts.dtype) throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'dtype'");
}

ndarray sum_like(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc) {
  auto plan = plan_reduction(a, axis, opts.keepdims);
  DType acc = opts.dtype.value_or(api::default_sum_dtype(a.dtype()));
  // The nan forms only differ from the plain ones where NaN exists.
  if (!is_inexact(a.dtype())) op = op == ReduceOp::nansum ? ReduceOp::sum : op == ReduceOp::nanprod ? ReduceOp::prod : op;
  return run_reduce(op, a, plan, acc, opts.out, ufunc);
}

ndarray extremum(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc,
                 const char* fn) {
  reject_dtype(opts, fn);
  auto plan = plan_reduction(a, axis, opts.keepdims);
  api::check_nonempty(plan, ufunc);
  if (!is_inexact(a.dtype())) op = op == ReduceOp::nanmax ? ReduceOp::max : op == ReduceOp::nanmin ? ReduceOp::min : op;
  return run_reduce(op, a, plan, a.dtype(), opts.out, ufunc);
}

ndarray logical(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc,
                const char* fn) {
  reject_dtype(opts, fn);
  auto plan = plan_reduction(a, axis, opts.keepdims);
  return run_reduce(op, a, plan, bool_, opts.out, ufunc);
}

}  // namespace

ndarray sum(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::sum, a, axis, opts, "add");
}
ndarray prod(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::prod, a, axis, opts, "multiply");
}
ndarray nansum(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::nansum, a, axis, opts, "add");
}
ndarray nanprod(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::nanprod, a, axis, opts, "multiply");
}
ndarray amax(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return extremum(ReduceOp::max, a, axis, opts, "maximum", "max");
}
ndarray amin(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return extremum(ReduceOp::min, a, axis, opts, "minimum", "min");
}
ndarray nanmax(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return extremum(ReduceOp::nanmax, a, axis, opts, "fmax", "nanmax");
}
ndarray nanmin(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return extremum(ReduceOp::nanmin, a, axis, opts, "fmin", "nanmin");
}
ndarray all(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return logical(ReduceOp::all, a, axis, opts, "logical_and", "all");
}
ndarray any(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return logical(ReduceOp::any, a, axis, opts, "logical_or", "any");
}

}  // namespace copper
