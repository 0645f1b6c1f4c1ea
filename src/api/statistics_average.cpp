// numpy.average: a plain mean, or sum(a * w) / sum(w) in NumPy's result dtype, with
// weights given for the reduced axes only broadcast along the others.
#include "api/statistics_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

std::pair<ndarray, ndarray> average_returned(const ndarray& a, const Axes& axis, const std::optional<ndarray>& weights,
                                             bool keepdims) {
  ReduceOptions opts;
  opts.keepdims = keepdims;
  if (!weights) {
    ndarray avg = mean(a, axis, opts);
    // NumPy's scale is a.size / avg.size, in the average's dtype.
    if (avg.size() == 0) throw ZeroDivisionError("division by zero");
    Scalar scale(static_cast<double>(a.size()) / static_cast<double>(avg.size()));
    return {avg, full(avg.shape(), scale, avg.dtype(), avg.device())};
  }
  ndarray w = *weights;
  api::common_device({&a, &w}, a.device());
  DType result = is_inexact(a.dtype()) ? promote_types(a.dtype(), w.dtype())
                                       : promote_types(promote_types(a.dtype(), w.dtype()), float64);
  w = api::weights_for_axes(a, axis, w);
  ReduceOptions sum_opts = opts;
  sum_opts.dtype = result;
  ndarray scale = sum(broadcast_to(w, a.shape()), axis, sum_opts);
  if (any(equal(scale, 0)).item().to_bool()) throw ZeroDivisionError("Weights sum to zero, can't be normalized");
  UfuncOptions product;
  product.dtype = result;
  ndarray avg = true_divide(sum(multiply(a, w, product), axis, opts), scale);
  if (scale.shape() != avg.shape()) scale = copy(broadcast_to(scale, avg.shape()));
  return {avg, scale};
}

ndarray average(const ndarray& a, const Axes& axis, const std::optional<ndarray>& weights, bool keepdims) {
  return average_returned(a, axis, weights, keepdims).first;
}

}  // namespace copper
