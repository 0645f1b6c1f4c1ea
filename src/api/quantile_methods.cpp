// numpy.quantile's virtual indices and gammas (numpy/lib/_function_base_impl.py:
// _QuantileMethods, _compute_virtual_index, _get_indexes, _get_gamma), evaluated with
// copper's ufuncs so every step has NumPy's dtype and rounding: n is a weak Python int
// or an array in q's dtype, the method constants are weak Python numbers.
#include "api/quantile_methods.h"

#include "copper/creation.hpp"
#include "copper/ufuncs.hpp"

namespace copper::api {

namespace {

// n - 1, keeping n's kind (weak scalar or array).
operand minus_one(const operand& n) {
  if (!n.is_array()) return Scalar(n.scalar().to_int64() - 1);
  return subtract(n.array(), 1);
}

// Positions as int64 indices into rows of n values: negative ones count from the end
// (NumPy's -1 is the last value), then clipped into [0, n) so every read is in bounds.
ndarray positions(const ndarray& index, const operand& n) {
  ndarray i = index.astype(int64);
  ndarray count = n.is_array() ? n.array().astype(int64) : full(Shape{}, n.scalar(), int64, i.device());
  i = where(less(i, 0), add(i, count), i);
  return clip(i, 0, maximum(subtract(count, 1), 0));
}

// NumPy's _discrete_interpolation_to_boundaries: floor(index), or floor + 1 unless
// `take_floor` holds; negative results become 0.
ndarray discrete_boundary(const ndarray& index, const ndarray& take_floor) {
  ndarray previous = floor(index);
  ndarray res = where(take_floor, previous, add(previous, 1)).astype(int64);
  return maximum(res, 0);
}

// NumPy's _compute_virtual_index: n * q + (alpha + q * (1 - alpha - beta)) - 1.
ndarray virtual_index(const operand& n, const ndarray& q, const Scalar& alpha, const Scalar& one_minus_ab) {
  return subtract(add(multiply(n, q), add(alpha, multiply(q, one_minus_ab))), 1);
}

}  // namespace

QuantilePick quantile_pick(QuantileMethod method, const operand& n, const ndarray& q_in, bool inexact_data) {
  const ndarray q = q_in.dtype() == bool_ ? q_in.astype(int64) : q_in;
  using M = QuantileMethod;
  // Methods that pick one position.
  switch (method) {
    case M::inverted_cdf: {
      ndarray index = subtract(multiply(n, q), 1);
      ndarray gamma = subtract(index, floor(index));
      ndarray p = positions(discrete_boundary(index, equal(gamma, 0)), n);
      return {p, p, std::nullopt};
    }
    case M::closest_observation: {
      ndarray index = subtract(subtract(multiply(n, q), 1), 0.5);
      ndarray gamma = subtract(index, floor(index));
      ndarray odd = equal(remainder(floor(index), 2), 1);
      ndarray p = positions(discrete_boundary(index, logical_and(equal(gamma, 0), odd)), n);
      return {p, p, std::nullopt};
    }
    case M::lower:
    case M::higher:
    case M::nearest: {
      ndarray v = multiply(minus_one(n), q);
      ndarray index = method == M::lower ? floor(v) : method == M::higher ? ceil(v) : around(v);
      ndarray p = positions(index, n);
      return {p, p, std::nullopt};
    }
    default: break;
  }
  ndarray v;
  switch (method) {
    case M::averaged_inverted_cdf: v = subtract(multiply(n, q), 1); break;
    case M::interpolated_inverted_cdf: v = virtual_index(n, q, Scalar(0), Scalar(0)); break;  // alpha 0, beta 1
    case M::hazen: v = virtual_index(n, q, Scalar(0.5), Scalar(0.0)); break;
    case M::weibull: v = virtual_index(n, q, Scalar(0), Scalar(1)); break;
    case M::median_unbiased: v = virtual_index(n, q, Scalar(1 / 3.0), Scalar(1 - 1 / 3.0 - 1 / 3.0)); break;
    case M::normal_unbiased: v = virtual_index(n, q, Scalar(3 / 8.0), Scalar(1 - 3 / 8.0 - 3 / 8.0)); break;
    case M::midpoint: {
      ndarray base = multiply(minus_one(n), q);
      v = multiply(0.5, add(floor(base), ceil(base)));
      break;
    }
    default: v = multiply(minus_one(n), q); break;  // linear
  }
  // linear with integer positions reads them directly (NumPy's supports_integers).
  if (method == M::linear && is_integer(v.dtype())) {
    ndarray p = positions(v, n);
    return {p, p, std::nullopt};
  }
  // NumPy's _get_indexes: past the end reads the last value, before the start the first,
  // a NaN position the last.
  ndarray previous = floor(v);
  ndarray next = add(previous, 1);
  ndarray above = greater_equal(v, minus_one(n));
  previous = where(above, -1, previous);
  next = where(above, -1, next);
  ndarray below = less(v, 0);
  previous = where(below, 0, previous);
  next = where(below, 0, next);
  if (inexact_data && is_inexact(v.dtype())) {
    ndarray nan_index = isnan(v);
    previous = where(nan_index, -1, previous);
    next = where(nan_index, -1, next);
  }
  ndarray previous_i = previous.astype(int64);
  ndarray gamma = subtract(v, previous_i);
  if (method == M::averaged_inverted_cdf) gamma = where(equal(gamma, 0), 0.5, full(Shape{}, Scalar(1.0), float64, v.device()));
  if (method == M::midpoint) gamma = where(equal(remainder(v, 1), 0), 0.0, full(Shape{}, Scalar(0.5), float64, v.device()));
  gamma = gamma.astype(v.dtype());
  return {positions(previous_i, n), positions(next.astype(int64), n), gamma};
}

}  // namespace copper::api
