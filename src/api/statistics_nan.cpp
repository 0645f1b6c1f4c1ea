// nanargmin/nanargmax, nancumsum/nancumprod and ptp, composed from the reductions,
// scans and ufuncs: NaNs are replaced by a value that cannot win (or changes nothing).
#include <limits>

#include "api/reduction_support.h"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

// NumPy's _replace_nan: a copy of inexact `a` with NaNs set to `value`; other dtypes as they are.
ndarray replace_nan(const ndarray& a, double value) {
  if (!is_inexact(a.dtype())) return a;
  return where(isnan(a), value, a);
}

ndarray nan_arg_extremum(bool is_max, const ndarray& a, std::optional<int> axis, bool keepdims,
                         const std::optional<ndarray>& out) {
  if (!is_inexact(a.dtype())) return is_max ? argmax(a, axis, keepdims, out) : argmin(a, axis, keepdims, out);
  ndarray mask = isnan(a);
  if (mask.size()) {
    // One host read per call: whether any slice is NaN throughout.
    ndarray all_nan = all(mask, axis ? Axes(*axis) : Axes());
    if (any(all_nan).item().to_bool()) throw ValueError("All-NaN slice encountered");
  }
  const double inf = std::numeric_limits<double>::infinity();
  ndarray filled = where(mask, is_max ? -inf : inf, a);
  return is_max ? argmax(filled, axis, keepdims, out) : argmin(filled, axis, keepdims, out);
}

}  // namespace

ndarray nanargmin(const ndarray& a, std::optional<int> axis, bool keepdims, const std::optional<ndarray>& out) {
  return nan_arg_extremum(false, a, axis, keepdims, out);
}
ndarray nanargmax(const ndarray& a, std::optional<int> axis, bool keepdims, const std::optional<ndarray>& out) {
  return nan_arg_extremum(true, a, axis, keepdims, out);
}

ndarray nancumsum(const ndarray& a, std::optional<int> axis, std::optional<DType> dtype,
                  const std::optional<ndarray>& out) {
  return cumsum(replace_nan(a, 0.0), axis, dtype, out);
}
ndarray nancumprod(const ndarray& a, std::optional<int> axis, std::optional<DType> dtype,
                   const std::optional<ndarray>& out) {
  return cumprod(replace_nan(a, 1.0), axis, dtype, out);
}

// NumPy: subtract(maximum.reduce(a, out=out), minimum.reduce(a), out=out).
ndarray ptp(const ndarray& a, const Axes& axis, const std::optional<ndarray>& out, bool keepdims) {
  ReduceOptions max_opts;
  max_opts.out = out;
  max_opts.keepdims = keepdims;
  ReduceOptions min_opts;
  min_opts.keepdims = keepdims;
  ndarray hi = amax(a, axis, max_opts);
  ndarray lo = amin(a, axis, min_opts);
  UfuncOptions o;
  o.out = out;
  return subtract(hi, lo, o);
}

}  // namespace copper
