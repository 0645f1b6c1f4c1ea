// numpy.bincount: one host read for the range of x (api::integer_range), then
// Backend::histogram with the values themselves as bins (a scatter-add).
#include "api/histogram_support.h"
#include "copper/creation.hpp"

namespace copper {

namespace {

// NumPy converts x to intp and weights to double, refusing float/complex sources.
void check_one_dimensional(const ndarray& a) {
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
}
void check_castable(const ndarray& a, DType to) {
  if (!can_cast(a.dtype(), to, Casting::same_kind))
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) + "') to dtype('" +
                    std::string(name(to)) + "') according to the rule 'safe'");
}

}  // namespace

ndarray bincount(const ndarray& x, const std::optional<ndarray>& weights, std::int64_t minlength) {
  check_one_dimensional(x);
  check_castable(x, int64);
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  // NumPy returns int64 zeros for empty x, weights or not.
  if (x.size() == 0) return zeros(Shape{minlength}, int64, x.device());
  const DType result = weights ? float64 : int64;
  ndarray values = x.dtype() == int64 ? x : x.astype(int64);
  const auto [lo, hi] = api::integer_range(values);
  if (lo < 0) throw ValueError("'list' argument must have no negative elements");
  const std::int64_t size = std::max(hi + 1, minlength);
  if (weights) {
    api::common_device({&x, &*weights}, x.device());
    check_one_dimensional(*weights);
    check_castable(*weights, float64);
    if (weights->size() != x.size()) throw ValueError("The weights and list don't have the same length.");
  }
  return api::count_into_bins({{values, ndarray(), backend::HistogramBins::index}}, weights, Shape{size}, result);
}

}  // namespace copper
