// mean, var, std, their nan forms and count_nonzero: sums from the reduction kernels, the
// elementwise steps (divide, subtract, square) through the public ufunc API.
#include <limits>

#include "api/reduction_support.h"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

using api::plan_reduction;
using api::run_reduce;
using ops::ReduceOp;

// NumPy's mean/var: ints and bool compute in float64; float16 accumulates in float32.
DType stat_compute_dtype(DType t, const std::optional<DType>& requested) {
  if (requested) return *requested;
  if (!is_inexact(t)) return float64;
  if (t == float16) return float32;
  return t;
}
DType mean_result_dtype(DType t, const std::optional<DType>& requested) {
  if (requested) return *requested;
  if (!is_inexact(t)) return float64;
  return t;
}

// x / n in place (NumPy: true_divide(ret, rcount, out=ret, casting='unsafe')).
void divide_in_place(const ndarray& x, double n) {
  UfuncOptions o;
  o.out = x;
  o.casting = Casting::unsafe;
  true_divide(x, n, o);
}

// The result in NumPy's dtype, or written into out (cast 'unsafe').
ndarray finish(const ndarray& result, DType dtype, const std::optional<ndarray>& out) {
  if (out) {
    api::deliver(result, *out);
    return *out;
  }
  return result.dtype() == dtype ? result : result.astype(dtype);
}

// NumPy's TypeError for options the function does not take (initial=; mean= outside var and std).
void reject_unexpected(const ReduceOptions& opts, const char* fn, bool takes_mean) {
  if (opts.initial || !opts.use_identity)
    throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'initial'");
  if (opts.mean && !takes_mean) throw TypeError(std::string(fn) + "() got an unexpected keyword argument 'mean'");
}

// The elements a statistic leaves out: NaNs in the nan forms, and where where= is false.
// Invalid when there are none (every slice then counts all its elements).
ndarray absent_elements(const ndarray& a, bool skip_nan, const std::optional<ndarray>& where_arg) {
  ndarray absent = skip_nan ? isnan(a) : ndarray();
  if (where_arg) {
    ndarray left_out = logical_not(api::where_mask(*where_arg, a));
    absent = absent.valid() ? logical_or(absent, left_out) : left_out;
  }
  return absent;
}

// mean and nanmean over the elements not absent: their sum over their count, per slice.
ndarray mean_of_present(const ndarray& a, const ndarray& absent, const Axes& axis, const ReduceOptions& opts) {
  auto plan = plan_reduction(a, axis, opts.keepdims);
  if (opts.out) api::check_reduce_out(*opts.out, a, plan, "add");
  ndarray total =
      run_reduce(ReduceOp::sum, where(absent, 0, a), plan, stat_compute_dtype(a.dtype(), opts.dtype), std::nullopt, "add");
  ndarray count = run_reduce(ReduceOp::sum, logical_not(absent), plan, int64, std::nullopt, "add");
  UfuncOptions o;
  o.out = total;
  o.casting = Casting::unsafe;
  true_divide(total, count, o);
  return finish(total, mean_result_dtype(a.dtype(), opts.dtype), opts.out);
}

// var/std, and with skip_nan nanvar/nanstd: absent elements (NaNs; where= false) are
// zeroed before the sums and left out of the counts. The nan forms give NaN for slices
// with no degrees of freedom left; the others divide by max(count - ddof, 0), as NumPy.
ndarray variance(const ndarray& a, const Axes& axis, const ReduceOptions& opts, bool take_sqrt, bool skip_nan) {
  reject_unexpected(opts, take_sqrt ? (skip_nan ? "nanstd" : "std") : (skip_nan ? "nanvar" : "var"), true);
  skip_nan = skip_nan && is_inexact(a.dtype());
  if (skip_nan && opts.dtype && !is_inexact(*opts.dtype)) throw TypeError("If a is inexact, then dtype must be inexact");
  auto plan = plan_reduction(a, axis, opts.keepdims);
  if (opts.out) api::check_reduce_out(*opts.out, a, plan, "add");
  DType compute = stat_compute_dtype(a.dtype(), opts.dtype);
  // A requested dtype is kept even when complex (the value is real all the same).
  DType result_dtype = opts.dtype ? *opts.dtype : real_dtype(mean_result_dtype(a.dtype(), std::nullopt));
  // NumPy takes std's square root in out's dtype, which an integer out cannot hold.
  if (take_sqrt && opts.out && !can_cast(real_dtype(compute), opts.out->dtype(), Casting::same_kind))
    throw TypeError("Cannot cast ufunc 'sqrt' output from dtype('" + std::string(name(real_dtype(compute))) +
                    "') to dtype('" + std::string(name(opts.out->dtype())) + "') with casting rule 'same_kind'");
  auto keep_plan = plan_reduction(a, axis, true);
  const ndarray absent = absent_elements(a, skip_nan, opts.where);
  const bool per_slice = absent.valid();
  ndarray values = per_slice ? where(absent, 0, a) : a;
  ndarray count;  // per slice, when absent elements make the counts differ
  if (per_slice) count = run_reduce(ReduceOp::sum, logical_not(absent), keep_plan, int64, std::nullopt, "add");
  ndarray m;
  if (opts.mean) {
    m = *opts.mean;  // the caller's (NumPy 2's mean=), broadcast against the input below
  } else {
    m = run_reduce(ReduceOp::sum, values, keep_plan, compute, std::nullopt, "add");
    UfuncOptions o;
    o.out = m;
    o.casting = Casting::unsafe;
    if (per_slice) true_divide(m, count, o);
    else divide_in_place(m, static_cast<double>(plan.count));
  }
  ndarray x = subtract(values, m);
  if (per_slice) x = where(absent, 0, x);
  ndarray sq;
  if (is_complex(x.dtype())) {
    ndarray re = real(x), im = imag(x);
    sq = add(multiply(re, re), multiply(im, im));
  } else {
    UfuncOptions o;
    o.out = x;
    sq = multiply(x, x, o);
  }
  ndarray v = run_reduce(ReduceOp::sum, sq, plan, real_dtype(compute), std::nullopt, "add");
  if (per_slice) {
    ndarray dof = subtract(count.reshape(v.shape()), opts.ddof);
    if (!skip_nan) dof = maximum(dof, 0);
    UfuncOptions o;
    o.out = v;
    o.casting = Casting::unsafe;
    true_divide(v, dof, o);
    if (skip_nan) v = where(greater(dof, 0), v, std::numeric_limits<double>::quiet_NaN());
  } else {
    divide_in_place(v, std::max(static_cast<double>(plan.count) - opts.ddof, 0.0));
  }
  if (take_sqrt) {
    UfuncOptions o;
    o.out = v;
    o.casting = Casting::unsafe;
    sqrt(v, o);
  }
  return finish(v, result_dtype, opts.out);
}

}  // namespace

ndarray mean(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  reject_unexpected(opts, "mean", false);
  if (opts.where) return mean_of_present(a, absent_elements(a, false, opts.where), axis, opts);
  auto plan = plan_reduction(a, axis, opts.keepdims);
  if (opts.out) api::check_reduce_out(*opts.out, a, plan, "add");
  ndarray s = run_reduce(ReduceOp::sum, a, plan, stat_compute_dtype(a.dtype(), opts.dtype), std::nullopt, "add");
  divide_in_place(s, plan.count);
  return finish(s, mean_result_dtype(a.dtype(), opts.dtype), opts.out);
}

ndarray var(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return variance(a, axis, opts, false, false);
}
ndarray std(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return variance(a, axis, opts, true, false);
}
ndarray nanvar(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return variance(a, axis, opts, false, true);
}
ndarray nanstd(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  return variance(a, axis, opts, true, true);
}

ndarray nanmean(const ndarray& a, const Axes& axis, const ReduceOptions& opts) {
  reject_unexpected(opts, "nanmean", false);
  if (!is_inexact(a.dtype())) return mean(a, axis, opts);
  if (opts.where) return mean_of_present(a, absent_elements(a, true, opts.where), axis, opts);
  auto plan = plan_reduction(a, axis, opts.keepdims);
  if (opts.out) api::check_reduce_out(*opts.out, a, plan, "add");
  ndarray total = run_reduce(ReduceOp::nansum, a, plan, stat_compute_dtype(a.dtype(), opts.dtype), std::nullopt, "add");
  ndarray count = run_reduce(ReduceOp::sum, logical_not(isnan(a)), plan, int64, std::nullopt, "add");
  UfuncOptions o;
  o.out = total;
  o.casting = Casting::unsafe;
  true_divide(total, count, o);
  return finish(total, mean_result_dtype(a.dtype(), opts.dtype), opts.out);
}

ndarray count_nonzero(const ndarray& a, const Axes& axis, bool keepdims) {
  auto plan = plan_reduction(a, axis, keepdims);
  // A one-byte integer is nonzero exactly when its byte is, which is how a bool reads
  // (load_element): the count needs no comparison array.
  const bool one_byte_int = a.dtype() == int8 || a.dtype() == uint8;
  const ndarray truth = a.dtype() == bool_ ? a : one_byte_int ? a.view(bool_) : not_equal(a, 0);
  return run_reduce(ReduceOp::sum, truth, plan, int64, std::nullopt, "add");
}

}  // namespace copper
