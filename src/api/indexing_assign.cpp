// Assignment through advanced indices (x[idx] = v, x[mask] = v): the value is cast to
// the array's dtype, broadcast to the indexing result and scattered; a single value under
// a mask is one elementwise where() over the array, with no count to read.
#include "api/array_factory.h"
#include "api/indexing_advanced.h"
#include "copper/creation.hpp"
#include "copper/indexing.hpp"
#include "copper/manipulation.hpp"

namespace copper::api {

namespace {

// The value as an array of a's dtype on a's device (a 0-d array for a scalar), copied
// when it shares memory with a, since the scatter reads it while writing a.
ndarray value_array(const operand& value, const ndarray& a) {
  if (!value.is_array()) {
    ndarray v = empty({}, a.dtype(), a.device());
    v.assign(value);
    return v;
  }
  const ndarray& v = value.array();
  common_device({&a, &v}, a.device());
  if (v.dtype() != a.dtype()) return v.astype(a.dtype(), Casting::unsafe);
  if (overlaps(v, a)) return copy(v);
  return v;
}

// v broadcast to the indexing result's shape; NumPy drops extra leading length-1 axes.
ndarray value_for_result(const ndarray& v, const Shape& shape) {
  int drop = 0;
  while (v.ndim() - drop > static_cast<int>(shape.size()) && v.shape()[drop] == 1) ++drop;
  bool fits = v.ndim() - drop <= static_cast<int>(shape.size());
  for (int i = drop; fits && i < v.ndim(); ++i) {
    std::int64_t s = v.shape()[i], t = shape[shape.size() - (v.ndim() - i)];
    fits = s == t || s == 1;
  }
  if (!fits) {
    throw ValueError("shape mismatch: value array of shape " + shape_str(v.shape()) +
                     " could not be broadcast to indexing result of shape " + shape_str(shape));
  }
  ndarray trimmed = v.view_as(v.dtype(), Shape(v.shape().begin() + drop, v.shape().end()),
                              Strides(v.strides().begin() + drop, v.strides().end()), v.offset());
  return broadcast_to(trimmed, shape);
}

}  // namespace

ndarray values_as(const operand& v, DType dtype, Device device) {
  if (v.is_array()) return asarray(v.array(), dtype, device);
  ndarray out = empty({}, dtype, device);
  out.assign(v);
  return out;
}

ndarray repeated_to(const ndarray& flat, std::int64_t n) {
  if (flat.size() == n) return flat;
  if (flat.size() == 1) return broadcast_to(flat, {n});
  return take(flat, arange(n, int64, flat.device()), 0, IndexMode::wrap);
}

void advanced_set(const ndarray& a, const Index& index, const operand& value) {
  AdvancedIndex plan = plan_advanced(a, index, true);
  backend::Backend& be = backend_of(a);
  ndarray v = value_array(value, a);
  if (plan.whole_mask) {
    const bool only_item = plan.only_item;
    if (only_item && v.ndim() > 1) {
      throw TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has " +
                      std::to_string(v.ndim()) + " dimensions");
    }
    if (v.size() == 1) {  // one value for every selected place
      ndarray spread = broadcast_to(v.reshape({}), plan.view.shape());
      be.where(backend::view_of(*plan.whole_mask), backend::view_of(spread), backend::view_of(plan.view),
               backend::view_of(plan.view));
      return;
    }
    plan = plan_advanced(a, index, false);
    if (only_item) {
      const std::int64_t count = plan.shape.at(0);
      if (v.size() != count) {
        throw ValueError("NumPy boolean array indexing assignment cannot assign " + std::to_string(v.size()) +
                         " input values to the " + std::to_string(count) + " output values where the mask is true");
      }
    }
  }
  ndarray values = value_for_result(v, advanced_result_shape(plan));
  if (values.size() == 0) return;
  check_empty_axes(plan);
  ndarray dst = transpose(plan.view, indexed_axes_first(plan));
  ndarray ordered = transpose(values, b_axes_first(plan));
  be.scatter(backend::view_of(dst), index_arrays(plan), backend::view_of(ordered), plan.unique_targets);
}

}  // namespace copper::api
