// quantile, percentile and their NaN-skipping forms. The reduced axes become rows,
// the rows are sorted on the device (copper::sort), quantile_methods.cpp says which
// sorted positions each quantile reads, one gather per position reads them for every
// row at once, and NumPy's _lerp combines them. Weighted quantiles (inverted_cdf) take
// each row's first position whose normalized cumulative weight reaches q.
#include <array>
#include <limits>
#include <string>

#include "api/quantile_methods.h"
#include "api/statistics_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

using api::QuantilePick;

constexpr std::array<const char*, 13> kMethodNames = {
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
    "weibull",      "linear",                "median_unbiased",     "normal_unbiased",           "lower",
    "higher",       "midpoint",              "nearest"};

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The positions of a pick, (Q..., R), read from every row: (Q..., R).
ndarray read_positions(const ndarray& sorted, const ndarray& pos, const Shape& shape) {
  Shape with_k = shape;
  with_k.push_back(1);
  return api::gather_in_rows(sorted, broadcast_to(pos, shape).reshape(with_k)).reshape(shape);
}

// NumPy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5. With a weak q
// (a Python number) t joins as a weak scalar would: in a's float dtype.
ndarray lerp(const ndarray& a, const ndarray& b, const ndarray& t, bool weak_q) {
  ndarray upper_half = greater_equal(t, 0.5);
  ndarray t_use = t, one_minus = subtract(1, t);
  if (weak_q) {
    const DType weak = result_type({a, Scalar(0.5)});
    t_use = t.astype(weak);
    one_minus = one_minus.astype(weak);
  }
  ndarray diff = subtract(b, a);
  ndarray low = add(a, multiply(diff, t_use));
  ndarray high = subtract(b, multiply(diff, one_minus));
  return where(upper_half, high.astype(low.dtype(), Casting::unsafe, false), low);
}

// The quantiles as an array on a's device (a weak Python number becomes NumPy's
// asanyarray of it: int64 or float64), divided by 100 for percentiles, and checked.
ndarray quantiles_array(const operand& q, const ndarray& a, bool percent) {
  ndarray qa;
  if (q.is_array()) {
    qa = q.array();
    api::common_device({&a, &qa}, a.device());
  } else {
    qa = full(Shape{}, q.scalar(), q.scalar().dtype(), a.device());
  }
  if (is_complex(qa.dtype())) throw TypeError("q must be real");
  if (percent) qa = true_divide(qa, 100);
  // One host read: the quantiles are few, and NumPy checks them all.
  for (double v : qa.astype(float64).to_vector<double>())
    if (!(v >= 0.0 && v <= 1.0))
      throw ValueError(percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
  if (qa.ndim() > 2) throw ValueError("q must be a scalar or 1d");
  return qa;
}

// The weighted quantile of each row (method inverted_cdf): NumPy sorts values and
// weights together and takes the first position whose cumulative weight share reaches q.
ndarray weighted_positions(const ndarray& rows, const ndarray& weight_rows, const ndarray& q_col,
                           const std::optional<ndarray>& valid, ndarray& sorted) {
  const std::int64_t n = rows.shape()[1];
  ndarray order = argsort(rows, -1);
  sorted = api::gather_in_rows(rows, order);
  ndarray w = api::gather_in_rows(weight_rows, order);
  if (valid) w = where(isnan(sorted), 0, w);  // NaN values carry no weight
  ndarray cdf = cumsum(w, -1, float64);
  ndarray total = cdf[Index{Slice(), Slice(n - 1, n)}];
  if (valid) total = where(equal(valid->reshape({valid->size(), 1}), 0), 1, total);  // all-NaN rows: NaN later
  cdf = true_divide(cdf, total);
  if (any(isnan(cdf[Index{Slice(), n - 1}])).item().to_bool())
    throw ValueError("Weights included NaN, inf or were all zero.");
  if (is_floating(q_col.dtype())) cdf = cdf.astype(q_col.dtype());
  // NumPy marks zero shares -1 when some row starts at zero; with no such row there are none.
  cdf = where(equal(cdf, 0), -1, cdf);
  // searchsorted(cdf, q, 'left'): the count of shares below q.
  Shape q_shape(q_col.shape().begin(), q_col.shape().end() - 1);
  Shape qn = q_shape;
  qn.push_back(1);
  qn.push_back(1);
  ndarray below = less(cdf, q_col.reshape(qn));
  ndarray count = sum(below, -1, {.dtype = int64});
  return minimum(count, n - 1);
}

ndarray quantile_impl(const ndarray& a, const operand& q, const Axes& axis, const QuantileOptions& opts,
                      bool skip_nan, bool percent) {
  if (is_complex(a.dtype())) throw TypeError("a must be an array of real numbers");
  const bool weak_q = !q.is_array() && q.scalar().weak();
  ndarray qa = quantiles_array(q, a, percent);
  std::optional<ndarray> weights;
  if (opts.weights) {
    if (opts.method != QuantileMethod::inverted_cdf)
      throw ValueError(std::string("Only method 'inverted_cdf' supports weights. Got: ") +
                       kMethodNames[static_cast<int>(opts.method)] + ".");
    api::common_device({&a, &*opts.weights}, a.device());
    weights = api::weights_for_axes(a, axis, *opts.weights);
    if (any(less(*weights, 0)).item().to_bool()) throw ValueError("Weights must be non-negative.");
  }
  const bool inexact = is_inexact(a.dtype());
  skip_nan = skip_nan && inexact;
  if (skip_nan && a.size() == 0) {  // NumPy hands empty input to nanmean
    ReduceOptions o;
    o.out = opts.out;
    o.keepdims = opts.keepdims;
    return nanmean(a, axis, o);
  }
  auto plan = api::plan_reduction(a, axis, opts.keepdims);
  ndarray rows = api::reduced_rows(a, plan);
  const std::int64_t nrows = rows.shape()[0], n = rows.shape()[1];
  if (n == 0 && nrows > 0) throw IndexError("index -1 is out of bounds for axis 0 with size 0");

  // Values per row: every value, or (skipping NaN) the ones before the NaNs sort.
  std::optional<ndarray> valid;
  ndarray sorted;
  Shape q_col_shape = qa.shape();
  q_col_shape.push_back(1);
  ndarray q_col = qa.reshape(q_col_shape);
  Shape result_rows = qa.shape();
  result_rows.push_back(nrows);
  ndarray result;
  if (weights) {
    ndarray weight_rows = api::reduced_rows(broadcast_to(*weights, a.shape()), plan);
    if (skip_nan) valid = count_nonzero(logical_not(isnan(rows)), Axes(1));
    ndarray pos = weighted_positions(rows, weight_rows, q_col, valid, sorted);
    result = read_positions(sorted, pos, result_rows);
  } else {
    sorted = sort(rows, -1);
    operand count = Scalar(n);
    ndarray count_array;
    if (skip_nan) {
      valid = count_nonzero(logical_not(isnan(sorted)), Axes(1));
      // NumPy's per-row count is a Python int: it joins q's arithmetic in q's dtype.
      count_array = valid->astype(is_inexact(qa.dtype()) ? qa.dtype() : int64);
      count = count_array;
    }
    QuantilePick pick = api::quantile_pick(opts.method, count, q_col, inexact);
    result = read_positions(sorted, pick.previous, result_rows);
    if (pick.gamma) {
      ndarray upper = read_positions(sorted, pick.next, result_rows);
      result = lerp(result, upper, broadcast_to(*pick.gamma, result_rows), weak_q);
    }
  }
  if (inexact && nrows > 0) {
    // A slice with NaN gives NaN; skipping NaN, a slice of nothing but NaN does.
    ndarray nan_rows = skip_nan ? equal(*valid, 0) : isnan(sorted[Index{Slice(), n - 1}]);
    result = where(nan_rows, kNaN, result);
  }
  Shape final_shape = qa.shape();
  final_shape.insert(final_shape.end(), plan.result_shape.begin(), plan.result_shape.end());
  result = result.reshape(final_shape);
  if (!opts.out) return result;
  api::common_device({&a, &*opts.out}, a.device());
  if (opts.out->shape() != final_shape)
    throw ValueError("output array has the wrong shape: expected " + shape_str(final_shape) + ", got " +
                     shape_str(opts.out->shape()));
  api::deliver(result, *opts.out);
  return *opts.out;
}

}  // namespace

QuantileMethod quantile_method_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kMethodNames.size(); ++i)
    if (name == kMethodNames[i]) return static_cast<QuantileMethod>(i);
  std::string names;
  for (const char* m : kMethodNames) names += std::string(names.empty() ? "" : ", ") + "'" + m + "'";
  throw ValueError("'" + std::string(name) + "' is not a valid method. Use one of: dict_keys([" + names + "])");
}

ndarray quantile(const ndarray& a, const operand& q, const Axes& axis, const QuantileOptions& opts) {
  return quantile_impl(a, q, axis, opts, false, false);
}
ndarray percentile(const ndarray& a, const operand& q, const Axes& axis, const QuantileOptions& opts) {
  return quantile_impl(a, q, axis, opts, false, true);
}
ndarray nanquantile(const ndarray& a, const operand& q, const Axes& axis, const QuantileOptions& opts) {
  return quantile_impl(a, q, axis, opts, true, false);
}
ndarray nanpercentile(const ndarray& a, const operand& q, const Axes& axis, const QuantileOptions& opts) {
  return quantile_impl(a, q, axis, opts, true, true);
}

}  // namespace copper
