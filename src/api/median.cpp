// median and nanmedian as NumPy computes them: the mean of the middle one or two
// sorted values (not quantile's interpolation, which can round differently). Real rows
// take their middle pair from Backend::middle_pair (a selection, not a sort) where the
// backend has one; otherwise median partitions each row around its middle (and last,
// for the NaN check) and nanmedian sorts the rows and reads each row's middle among its
// non-NaN values.
#include <limits>
#include <optional>

#include "api/array_factory.h"
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

// Each row's middle pair ((R, 2), rows' dtype) from the backend's selection, or nothing
// where it has none (complex rows always sort).
std::optional<ndarray> middle_pair(const ndarray& rows, bool skip_nan) {
  if (is_complex(rows.dtype())) return std::nullopt;
  ndarray pair = api::allocate(Shape{rows.shape()[0], 2}, rows.dtype(), rows.device());
  if (!api::backend_of(rows).middle_pair(backend::view_of(rows), skip_nan, backend::view_of(pair))) return std::nullopt;
  return pair;
}

}  // namespace

ndarray median(const ndarray& a, const Axes& axis, const std::optional<ndarray>& out, bool, bool keepdims) {
  auto plan = api::plan_reduction(a, axis, keepdims);
  ndarray rows = api::reduced_rows(a, plan);
  const std::int64_t n = rows.shape()[1];
  const bool inexact = is_inexact(a.dtype());
  if (n == 0 || rows.shape()[0] == 0) return finish(mean(rows, Axes(1)), plan, out);  // NaN for empty slices
  if (auto pair = middle_pair(rows, false)) {
    // A row with a NaN has NaN in both; the mean of the middle one or two as NumPy's.
    ndarray middle = n % 2 ? (*pair)[Index{Slice(), Slice(0, 1)}] : *pair;
    return finish(mean(middle, Axes(1)), plan, out);
  }
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
  ndarray rows = api::reduced_rows(a, plan);
  if (auto pair = middle_pair(rows, true)) {
    // NumPy has two paths. Rows shorter than 600 with some axis kept go through masked
    // arrays: (low + high) / 2 in the dtype, so an odd count's middle value is doubled
    // and halved (inf past half the dtype's maximum, as NumPy). Otherwise each row's
    // numbers get np.median: the middle value itself (an odd count gives it twice, read
    // as it is) or the mean of the two (equal ones read as they are: the same value
    // unless the mean overflows). A row of NaNs gives NaN either way.
    ndarray low = (*pair)[Index{Slice(), 0}], high = (*pair)[Index{Slice(), 1}];
    constexpr std::int64_t kNumpySmallRows = 600;
    if (!plan.kept_shape.empty() && rows.shape()[1] < kNumpySmallRows)
      return finish(divide(add(low, high), 2), plan, out);
    return finish(where(equal(low, high), low, mean(*pair, Axes(1))), plan, out);
  }
  ndarray sorted = sort(rows, -1);
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
