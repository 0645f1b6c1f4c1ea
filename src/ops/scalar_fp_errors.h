// NumPy's floating-point error flags for one element, decided from values, so the CPU
// loops and the GPU kernels agree (errstate.hpp): a NaN result from inputs without NaN is
// invalid; an infinite result from finite inputs is divide-by-zero where the op is at a
// pole (x / 0, log(0), arctanh(+-1), 0 ** -n, ...), else overflow; integer division ops
// flag divide-by-zero for a zero divisor. Underflow is not detected. Bits as copper::FpFlag.
#pragma once
#include "ops/scalar_math.h"
#include "ops/scalar_ops.h"

namespace copper::ops::fp {

inline constexpr unsigned divide_by_zero = 1, overflow = 2, invalid = 8;

// Value predicates over every stored type (integers and bools are always finite).
template <class V> COPPER_HD bool has_nan(V v) {
  if constexpr (is_same_v<V, half>) return math::isnan(half_to_float(v));
  else if constexpr (Float<V>) return math::isnan(v);
  else if constexpr (Complex<V>) return math::isnan(v.re) || math::isnan(v.im);
  else return false;
}
template <class V> COPPER_HD bool all_finite(V v) {
  if constexpr (is_same_v<V, half>) return math::isfinite(half_to_float(v));
  else if constexpr (Float<V>) return math::isfinite(v);
  else if constexpr (Complex<V>) return math::isfinite(v.re) && math::isfinite(v.im);
  else return true;
}
template <class V> COPPER_HD bool has_inf(V v) {
  if constexpr (Complex<V>) return has_inf(v.re) || has_inf(v.im);
  else return !all_finite(v) && !has_nan(v);
}
// The value as a double (a complex number's real part) and whether it is real.
template <class V> COPPER_HD double real_part(V v) {
  if constexpr (is_same_v<V, half>) return half_to_float(v);
  else if constexpr (Complex<V>) return v.re;
  else return static_cast<double>(v);
}
template <class V> COPPER_HD bool is_real(V v) {
  if constexpr (Complex<V>) return v.im == 0;
  else return true;
}
template <class V> COPPER_HD bool equals(V v, double x) { return is_real(v) && real_part(v) == x; }

// Whether the inputs sit at a pole of Op: where a finite input gives an exact infinity.
template <class Op, class A> COPPER_HD bool at_pole(A a) {
  if constexpr (is_same_v<Op, log> || is_same_v<Op, log2> || is_same_v<Op, log10> || is_same_v<Op, reciprocal>)
    return equals(a, 0.0);
  else if constexpr (is_same_v<Op, log1p>) return equals(a, -1.0);
  else if constexpr (is_same_v<Op, arctanh>) return equals(a, 1.0) || equals(a, -1.0);
  else return false;
}
template <class Op, class A, class B> COPPER_HD bool at_pole(A a, B b) {
  if constexpr (is_same_v<Op, true_divide> || is_same_v<Op, floor_divide> || is_same_v<Op, divmod>)
    return equals(b, 0.0);
  else if constexpr (is_same_v<Op, power> || is_same_v<Op, float_power>) return equals(a, 0.0);
  else return false;
}
template <class Op, class A, class B, class C> COPPER_HD bool at_pole(A, B, C) { return false; }

// Ops whose NaN from an infinite input NumPy does not flag (spacing(inf)).
template <class Op> inline constexpr bool quiet_nan_from_inf = is_same_v<Op, spacing>;
// NumPy's own loops flag more in two places, and copper follows: floor division's overflow
// is also invalid (its rounding step compares inf - inf), and logaddexp's NaN inputs are
// invalid (its ordered comparisons of NaN signal).
template <class Op> inline constexpr bool overflow_also_invalid = is_same_v<Op, floor_divide> || is_same_v<Op, divmod>;
template <class Op> inline constexpr bool nan_input_invalid = is_same_v<Op, logaddexp> || is_same_v<Op, logaddexp2>;

// Integer loops of the division ops: a zero divisor is divide-by-zero (NumPy sets the flag
// although the result, 0, is finite).
template <class Op> inline constexpr bool is_int_division =
    is_same_v<Op, floor_divide> || is_same_v<Op, remainder> || is_same_v<Op, fmod> || is_same_v<Op, divmod>;

// The flags of one element: result r (either output of a two-output op) from inputs x...
template <class Op, class R, class... X> COPPER_HD unsigned classify(R r, X... x) {
  if constexpr (Float<R> || Complex<R> || is_same_v<R, half>) {
    if (all_finite(r)) return 0;
    if (has_inf(r) && (all_finite(x) && ...)) {
      // A complex pole's NaN part (1 / 0j is inf + nan j) is no separate invalid, as in NumPy.
      if (at_pole<Op>(x...)) return divide_by_zero;
      return overflow | (has_nan(r) || overflow_also_invalid<Op> ? invalid : 0u);
    }
    if (!has_nan(r)) return 0u;
    if (nan_input_invalid<Op>) return invalid;
    return !(has_nan(x) || ...) && !quiet_nan_from_inf<Op> ? invalid : 0u;
  } else {
    return 0;
  }
}

// classify() for a real result, as one expression without branches: the CPU loops classify
// every element of a block that holds a non-finite result, and where NaNs and infinities
// are common (log of negative values, NaN-filled data) classify()'s unpredictable branches
// cost 10x the op. Same flags as classify() for every R that is float or double.
template <class Op, class R, class... X> COPPER_HD unsigned classify_real(R r, X... x) {
  static_assert(Float<R>);
  const bool r_nan = math::isnan(r);
  const bool r_inf = !math::isfinite(r) & !r_nan;
  const bool x_finite = (all_finite(x) & ...);
  const bool x_nan = (has_nan(x) | ...);
  const unsigned pole = 0u - unsigned(at_pole<Op>(x...));
  const unsigned inf_bits = (pole & divide_by_zero) | (~pole & (overflow | (overflow_also_invalid<Op> ? invalid : 0u)));
  const unsigned nan_bits = nan_input_invalid<Op> || (!x_nan && !quiet_nan_from_inf<Op>) ? invalid : 0u;
  // Masks, not ?: (which GCC turns back into a branch).
  return ((0u - unsigned(r_inf & x_finite)) & inf_bits) | ((0u - unsigned(r_nan)) & nan_bits);
}

// Integer division by zero (inputs of an integer loop).
template <class Op, class A, class B> COPPER_HD unsigned classify_int_division(A, B b) {
  if constexpr (is_int_division<Op> && Int<B>) return b == 0 ? divide_by_zero : 0;
  else return 0;
}

}  // namespace copper::ops::fp
