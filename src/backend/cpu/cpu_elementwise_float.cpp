// CPU loops for the bit-level float ops (copysign, nextafter, spacing, ldexp, ...),
// the integer-only gcd/lcm/bitwise_count, and the two-output ops (divmod, modf, frexp).
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_float_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, fabs)
  COPPER_ADD_OP_LOOPS(table, 1, signbit)
  COPPER_ADD_OP_LOOPS(table, 1, spacing)
  COPPER_ADD_OP_LOOPS(table, 1, deg2rad)
  COPPER_ADD_OP_LOOPS(table, 1, rad2deg)
  COPPER_ADD_OP_LOOPS(table, 1, degrees)
  COPPER_ADD_OP_LOOPS(table, 1, radians)
  COPPER_ADD_OP_LOOPS(table, 1, bitwise_count)
  COPPER_ADD_OP_LOOPS(table, 1, bessel_i0)
  COPPER_ADD_OP_LOOPS(table, 2, copysign)
  COPPER_ADD_OP_LOOPS(table, 2, nextafter)
  COPPER_ADD_OP_LOOPS(table, 2, ldexp)
  COPPER_ADD_OP_LOOPS(table, 2, gcd)
  COPPER_ADD_OP_LOOPS(table, 2, lcm)
  COPPER_ADD_OP_LOOPS(table, 2, heaviside)
  COPPER_ADD_OP_LOOPS(table, 2, logaddexp)
  COPPER_ADD_OP_LOOPS(table, 2, logaddexp2)
  COPPER_ADD_OP_LOOPS(table, 2, float_power)
  COPPER_ADD_OP_LOOPS(table, 1, modf)
  COPPER_ADD_OP_LOOPS(table, 1, frexp)
  COPPER_ADD_OP_LOOPS(table, 2, divmod)
}

}  // namespace copper::backend::cpu
