// argmin and argmax: one axis or the flattened array, int64 indices.
#include "api/reduction_support.h"

namespace copper {

namespace {

ndarray arg_extremum(ops::ReduceOp op, const ndarray& a, std::optional<int> axis, bool keepdims,
                     const std::optional<ndarray>& out, const char* fn) {
  // Flattened (axis=None) is every axis reduced in C order: the kernel counts indices so.
  auto plan = api::plan_reduction(a, axis ? Axes(*axis) : Axes(), keepdims);
  if (plan.count == 0) throw ValueError(std::string("attempt to get ") + fn + " of an empty sequence");
  if (out) {
    api::common_device({&a, &*out}, a.device());
    if (out->shape() != plan.result_shape)
      throw ValueError(std::string("output array does not match result of np.") + fn + ".");
    if (!can_cast(out->dtype(), int64, Casting::safe))
      throw TypeError(std::string("Cannot cast ") + (out->ndim() ? "array data" : "scalar") + " from dtype('" +
                      std::string(name(out->dtype())) + "') to dtype('int64') according to the rule 'safe'");
  }
  return api::run_reduce(op, a, plan, int64, out, fn);
}

}  // namespace

ndarray argmax(const ndarray& a, std::optional<int> axis, bool keepdims, const std::optional<ndarray>& out) {
  return arg_extremum(ops::ReduceOp::argmax, a, axis, keepdims, out, "argmax");
}
ndarray argmin(const ndarray& a, std::optional<int> axis, bool keepdims, const std::optional<ndarray>& out) {
  return arg_extremum(ops::ReduceOp::argmin, a, axis, keepdims, out, "argmin");
}

}  // namespace copper
