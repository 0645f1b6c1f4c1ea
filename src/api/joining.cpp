// concatenate, stack, hstack, vstack: checks, result dtype (numpy.result_type of the
// inputs), then one strided casting copy per input into its slice of the output.
#include "api/joining.h"

#include "api/array_factory.h"
#include "api/promotion.h"
#include "copper/warnings.hpp"

namespace copper {

namespace api {

namespace {

void check_castable(const std::vector<ndarray>& arrays, DType to, Casting casting) {
  for (const auto& a : arrays) {
    if (!can_cast(a.dtype(), to, casting)) {
      throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) + "') to dtype('" +
                      std::string(name(to)) + "') according to the rule '" + std::string(name(casting)) + "'");
    }
  }
  for (const auto& a : arrays) warn_if_discarding_imaginary(a.dtype(), to);
}

Shape joined_shape(const std::vector<ndarray>& arrays, int axis) {
  const ndarray& first = arrays[0];
  Shape shape = first.shape();
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    const ndarray& a = arrays[i];
    if (a.ndim() != first.ndim()) {
      throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                       std::to_string(first.ndim()) + " dimension(s) and the array at index " + std::to_string(i) +
                       " has " + std::to_string(a.ndim()) + " dimension(s)");
    }
    for (int d = 0; d < a.ndim(); ++d) {
      if (d == axis) continue;
      if (a.shape()[d] != first.shape()[d]) {
        throw ValueError(
            "all the input array dimensions except for the concatenation axis must match exactly, but along "
            "dimension " + std::to_string(d) + ", the array at index 0 has size " + std::to_string(first.shape()[d]) +
            " and the array at index " + std::to_string(i) + " has size " + std::to_string(a.shape()[d]));
      }
    }
    shape[axis] += a.shape()[axis];
  }
  return shape;
}

}  // namespace

ndarray concatenate(const std::vector<ndarray>& input, std::optional<int> axis_arg, const JoinOptions& options) {
  if (options.out && options.dtype) {
    throw TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  }
  if (input.empty()) throw ValueError("need at least one array to concatenate");
  std::vector<const ndarray*> ptrs;
  for (const auto& a : input) ptrs.push_back(&a);
  Device device = common_device(ptrs, input[0].device());

  std::vector<ndarray> arrays;
  int axis = 0;
  if (axis_arg) {
    if (input[0].ndim() == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
    axis = normalize_axis(*axis_arg, input[0].ndim());
    arrays = input;
  } else {
    for (const auto& a : input) arrays.push_back(ravel(a));  // axis=None joins the flattened inputs
  }
  Shape shape = joined_shape(arrays, axis);

  std::vector<operand> operands(arrays.begin(), arrays.end());
  DType dtype = options.out ? options.out->dtype() : options.dtype.value_or(result_type(operands, false));
  check_castable(arrays, dtype, options.casting);
  ndarray out;
  if (options.out) {
    out = *options.out;
    if (out.shape() != shape) throw ValueError("Output array is the wrong shape");
  } else {
    out = allocate(shape, dtype, device);
  }
  std::int64_t pos = 0;
  for (const auto& a : arrays) {
    Index index(axis, Slice());
    index.push_back(Slice(pos, pos + a.shape()[axis]));
    copyto(out[index], a, Casting::unsafe);  // copyto also guards against out overlapping an input
    pos += a.shape()[axis];
  }
  return out;
}

ndarray stack(const std::vector<ndarray>& arrays, int axis, const JoinOptions& options) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const auto& a : arrays)
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  int result_axis = normalize_axis(axis, arrays[0].ndim() + 1);
  std::vector<ndarray> expanded;
  for (const auto& a : arrays) expanded.push_back(expand_dims(a, {result_axis}));
  return concatenate(expanded, result_axis, options);
}

ndarray hstack(const std::vector<ndarray>& arrays, const JoinOptions& options) {
  std::vector<ndarray> arrs;
  for (const auto& a : arrays) arrs.push_back(atleast_1d(a));
  // 1-d inputs join end to end; higher ones along their second axis.
  int axis = !arrs.empty() && arrs[0].ndim() == 1 ? 0 : 1;
  return concatenate(arrs, axis, options);
}

ndarray vstack(const std::vector<ndarray>& arrays, const JoinOptions& options) {
  std::vector<ndarray> arrs;
  for (const auto& a : arrays) arrs.push_back(atleast_2d(a));
  return concatenate(arrs, 0, options);
}

}  // namespace api

ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int> axis) {
  return api::concatenate(arrays, axis, {});
}
ndarray stack(const std::vector<ndarray>& arrays, int axis) { return api::stack(arrays, axis, {}); }
ndarray hstack(const std::vector<ndarray>& arrays) { return api::hstack(arrays, {}); }
ndarray vstack(const std::vector<ndarray>& arrays) { return api::vstack(arrays, {}); }

}  // namespace copper
