// sum, prod, min/max, all/any and their nan forms: dtype rules, then one backend call.
// With where= or initial= they are their ufunc's reduce, as in NumPy (np.sum is
// np.add.reduce), whose masked path fills left-out elements with the identity and runs
// the same reduction kernels.
#include "copper/reductions.hpp"

#include "api/reduction_support.h"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

using api::plan_reduction;
using api::run_reduce;
using ops::ReduceOp;

void reject_dtype(const ReduceOptions& opts, const char* fn) {
  if (opts.dtype) throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'dtype'");
}

bool masked_or_started(const ReduceOptions& opts) { return opts.where || opts.initial || !opts.use_identity; }

void reject_mean(const ReduceOptions& opts, const char* fn) {
  if (opts.mean) throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'mean'");
}

ndarray ufunc_reduce(UfuncId op, const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return ufunc(op).reduce(a, axis, UfuncReduceOptions{opts.dtype, opts.out, opts.keepdims, opts.initial, opts.where, opts.use_identity});
}

// NaNs count as absent in the nan forms: zero for sums, one for products (NumPy's _replace_nan).
ndarray nan_replaced(const ndarray& a, double value) { return is_inexact(a.dtype()) ? where(isnan(a), value, a) : a; }

ndarray sum_like(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc,
                 const char* fn) {
  reject_mean(opts, fn);
  if (masked_or_started(opts)) {
    const bool is_sum = op == ReduceOp::sum || op == ReduceOp::nansum;
    const bool skip_nan = op == ReduceOp::nansum || op == ReduceOp::nanprod;
    const ndarray values = skip_nan ? nan_replaced(a, is_sum ? 0.0 : 1.0) : a;
    return ufunc_reduce(is_sum ? UfuncId::add : UfuncId::multiply, values, axis, opts);
  }
  auto plan = plan_reduction(a, axis, opts.keepdims);
  DType acc = opts.dtype.value_or(api::default_sum_dtype(a.dtype()));
  // The nan forms only differ from the plain ones where NaN exists.
  if (!is_inexact(a.dtype())) op = op == ReduceOp::nansum ? ReduceOp::sum : op == ReduceOp::nanprod ? ReduceOp::prod : op;
  return run_reduce(op, a, plan, acc, opts.out, ufunc);
}

ndarray extremum(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc,
                 const char* fn) {
  reject_dtype(opts, fn);
  reject_mean(opts, fn);
  if (masked_or_started(opts)) {
    // fmax and fmin skip NaNs, as nanmax and nanmin do.
    const UfuncId id = op == ReduceOp::max ? UfuncId::maximum : op == ReduceOp::min ? UfuncId::minimum
                       : op == ReduceOp::nanmax                   ? UfuncId::fmax
                                                                  : UfuncId::fmin;
    return ufunc_reduce(id, a, axis, opts);
  }
  auto plan = plan_reduction(a, axis, opts.keepdims);
  api::check_nonempty(plan, ufunc);
  if (!is_inexact(a.dtype())) op = op == ReduceOp::nanmax ? ReduceOp::max : op == ReduceOp::nanmin ? ReduceOp::min : op;
  return run_reduce(op, a, plan, a.dtype(), opts.out, ufunc);
}

ndarray logical(ReduceOp op, const ndarray& a, const Axes& axis, const ReduceOptions& opts, const char* ufunc,
                const char* fn) {
  reject_dtype(opts, fn);
  reject_mean(opts, fn);
  if (opts.initial || !opts.use_identity)
    throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'initial'");
  if (opts.where) return ufunc_reduce(op == ReduceOp::all ? UfuncId::logical_and : UfuncId::logical_or, a, axis, opts);
  auto plan = plan_reduction(a, axis, opts.keepdims);
  return run_reduce(op, a, plan, bool_, opts.out, ufunc);
}

}  // namespace

ndarray sum(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::sum, a, axis, opts, "add", "sum");
}
ndarray prod(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::prod, a, axis, opts, "multiply", "prod");
}
ndarray nansum(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::nansum, a, axis, opts, "add", "nansum");
}
ndarray nanprod(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return sum_like(ReduceOp::nanprod, a, axis, opts, "multiply", "nanprod");
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
