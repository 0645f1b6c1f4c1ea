// linspace and logspace with array bounds: NumPy's computation, step by step, as ufuncs over
// the broadcast bounds (the scalar forms in creation_ranges.cpp skip the arrays).
#include <algorithm>
#include <cmath>

#include "api/array_factory.h"
#include "api/creation_ranges.h"
#include "api/promotion.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

// A bound as an array of dtype t on `device` (scalars become 0-d arrays).
ndarray bound_array(const operand& v, DType t, Device device) {
  if (v.is_array()) return asarray(v.array(), t, std::nullopt, device);
  return full(Shape{}, v.scalar(), t, device);
}

}  // namespace

ndarray linspace(const operand& start, const operand& stop, std::int64_t num, bool endpoint,
                 std::optional<DType> dtype, int axis, Device device) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const std::int64_t div = endpoint ? num - 1 : num;
  DType dt = api::result_type({start, stop}, false);
  if (!is_inexact(dt)) dt = float64;
  const ndarray lo = bound_array(start, dt, device), hi = bound_array(stop, dt, device);
  const ndarray delta = subtract(hi, lo);
  const int nd = delta.ndim();
  // y = i * step + start, with i along a new first axis (NumPy's order of operations).
  Shape column(nd + 1, 1);
  column[0] = num;
  ndarray y = reshape(arange(Scalar(0), Scalar(num), Scalar(1), dt, device), column);
  if (div > 0) {
    const ndarray step = true_divide(delta, Scalar(div));
    // A step that underflows to zero (denormal spans): divide first, then scale.
    if (any(equal(step, Scalar(0))).item().to_bool()) y = multiply(true_divide(y, Scalar(div)), delta);
    else y = multiply(y, step);
  } else {
    y = multiply(y, delta);
  }
  y = add(y, lo);
  if (endpoint && num > 1) y.assign({std::int64_t{-1}, ellipsis}, hi);
  if (axis != 0) y = moveaxis(y, {0}, {axis});
  const DType t = dtype.value_or(dt);
  if (is_integer(t) && !is_complex(dt)) y = floor(y);
  return t == dt ? y : astype(y, t);
}

ndarray logspace(const operand& start, const operand& stop, std::int64_t num, bool endpoint, const operand& base,
                 std::optional<DType> dtype, int axis, Device device) {
  ndarray y;
  if (!base.is_array()) {
    y = power(base.scalar(), linspace(start, stop, num, endpoint, std::nullopt, axis, device));
  } else {
    // NumPy: an array base is broadcast with the bounds (all lifted to the same ndim, Python
    // numbers becoming arrays of their default dtype), and gets the samples' axis too.
    auto ndim = [](const operand& v) { return v.is_array() ? v.array().ndim() : 0; };
    const int nd = std::max({ndim(start), ndim(stop), ndim(base)});
    auto lifted = [&](const operand& v) {
      ndarray a = v.is_array() ? v.array() : full(Shape{}, v.scalar(), v.scalar().dtype(), device);
      return array(a, std::nullopt, std::nullopt, Order::K, nd);
    };
    const ndarray b = expand_dims(lifted(base), {axis});
    y = power(b, linspace(lifted(start), lifted(stop), num, endpoint, std::nullopt, axis, device));
  }
  return dtype && *dtype != y.dtype() ? astype(y, *dtype) : y;
}

ndarray api::linspace_steps(const operand& start, const operand& stop, std::int64_t num, bool endpoint,
                            Device device) {
  DType dt = api::result_type({start, stop}, false);
  if (!is_inexact(dt)) dt = float64;
  const ndarray delta = subtract(bound_array(stop, dt, device), bound_array(start, dt, device));
  const std::int64_t div = endpoint ? num - 1 : num;
  if (div <= 0) return full(delta.shape(), Scalar(std::nan("")), dt, device);
  return true_divide(delta, Scalar(div));
}

}  // namespace copper
