// The names of every elementwise op, one list each by arity. The public API
// (ufuncs.hpp), the op catalogue (src/ops) and both backends expand these lists,
// so adding an op here is the one place its name is written.
#pragma once

#define COPPER_UNARY_UFUNCS(X)                                                            \
  X(negative) X(positive) X(absolute) X(reciprocal) X(square) X(sqrt) X(cbrt) X(exp)    \
  X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) X(arcsin)      \
  X(arccos) X(arctan) X(sinh) X(cosh) X(tanh) X(arcsinh) X(arccosh) X(arctanh) X(floor) \
  X(ceil) X(trunc) X(rint) X(sign) X(logical_not) X(invert) X(isnan) X(isinf)           \
  X(isfinite) X(conjugate) X(angle) X(fabs) X(signbit) X(spacing) X(deg2rad) X(rad2deg)    \
  X(degrees) X(radians) X(bitwise_count) X(bessel_i0)

#define COPPER_BINARY_UFUNCS(X)                                                             \
  X(add) X(subtract) X(multiply) X(true_divide) X(floor_divide) X(remainder) X(fmod)       \
  X(power) X(arctan2) X(hypot) X(maximum) X(minimum) X(fmax) X(fmin) X(greater)           \
  X(greater_equal) X(less) X(less_equal) X(equal) X(not_equal) X(logical_and)             \
  X(logical_or) X(logical_xor) X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(left_shift)  \
  X(right_shift) X(copysign) X(nextafter) X(ldexp) X(gcd) X(lcm) X(heaviside) X(logaddexp)    \
  X(logaddexp2) X(float_power)

#define COPPER_TERNARY_UFUNCS(X) X(clip)

// Ops with two outputs: one input (modf, frexp) and two inputs (divmod).
#define COPPER_UNARY2_UFUNCS(X) X(modf) X(frexp)
#define COPPER_BINARY2_UFUNCS(X) X(divmod)

