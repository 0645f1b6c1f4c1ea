// median and nanmedian as NumPy computes them: the mean of the middle one or two
// sorted values (not quantile's interpolation, which can round differently). median
// partitions each row around its middle (and last, for the NaN check); nanmedian sorts
// the rows and reads each row's middle among its non-NaN values.
#include <limits>

#include "api/statistics_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

ndarray finish(const ndarray& result, const api::ReducePlan& plan, const std::optional<ndarray>& out) {
  ndarray r = result.reshape(plan.result_shape);
  if (!out) return r;
  api::common_device({&r, &*out}, r.device());
  if (out->shape() != plan.result_shape)
    throw ValueError("output array has the wrong shape: expected " + shape_str(plan.result_shape) + ", got " +
                     shape_str(out->shape()));
  api::deliver(r, *out);
  return *out;
}

}  // namespace

ndarray median(const ndarray& a, const Axes& axis, const std::optional<ndarray>& out, bool, bool keepdims) {
  auto plan = api::plan_reduction(a, axis, keepdims);
  ndarray rows = api::reduced_rows(a, plan);
  const std::int64_t n = rows.shape()[1];
  const bool inexact = is_inexact(a.dtype());
  if (n == 0 || rows.shape()[0] == 0) return finish(mean(rows, Axes(1)), plan, out);  // NaN for empty slices
  std::vector<std::int64_t> kth = n % 2 ? std::vector<std::int64_t>{n / 2} : std::vector<std::int64_t>{n / 2 - 1, n / 2};
  if (inexact) kth.push_back(-1);
  ndarray part = partition(rows, kth, -1);
  // The middle value, or the mean of the two middle values (NumPy's np.mean of them).
  ndarray middle = part[Index{Slice(), Slice(n % 2 ? n / 2 : n / 2 - 1, n / 2 + 1)}];
  ndarray result = mean(middle, Axes(1));
  if (inexact) result = where(isnan(part[Index{Slice(), n - 1}]), kNaN, result);
  return finish(result, plan, out);
}

ndarray nanmedian(const ndarray& a, const Axes& axis, const std::optional<ndarray>& out, bool overwrite_input,
                  bool keepdims) {
  if (!is_inexact(a.dtype())) return median(a, axis, out, overwrite_input, keepdims);
  if (a.size() == 0) {  // NumPy hands empty input to nanmean
    ReduceOptions o;
    o.out = out;
    o.keepdims = keepdims;
    return nanmean(a, axis, o);
  }
  auto plan = api::plan_reduction(a, axis, keepdims);
  ndarray sorted = sort(api::reduced_rows(a, plan), -1);
  ndarray valid = count_nonzero(logical_not(isnan(sorted)), Axes(1));
  ndarray half = floor_divide(valid, 2);
  ndarray odd = equal(remainder(valid, 2), 1);
  // Each row's two middle positions among its valid values (the same one for odd counts).
  ndarray pos = stack({maximum(subtract(half, 1), 0), minimum(half, sorted.shape()[1] - 1)}, 1);
  ndarray pair = api::gather_in_rows(sorted, pos);
  // An odd count reads its middle value as it is; an even one averages two (NumPy's mean).
  ndarray result = where(odd, pair[Index{Slice(), 1}], mean(pair, Axes(1)));
  result = where(equal(valid, 0), kNaN, result);
  return finish(result, plan, out);
}

}  // namespace copper
