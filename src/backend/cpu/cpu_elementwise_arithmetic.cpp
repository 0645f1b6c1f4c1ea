// CPU loops for the arithmetic ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_arithmetic_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, negative)
  COPPER_ADD_OP_LOOPS(table, 1, positive)
  COPPER_ADD_OP_LOOPS(table, 1, absolute)
  COPPER_ADD_OP_LOOPS(table, 1, reciprocal)
  COPPER_ADD_OP_LOOPS(table, 1, square)
  COPPER_ADD_OP_LOOPS(table, 1, conjugate)
  COPPER_ADD_OP_LOOPS(table, 2, add)
  COPPER_ADD_OP_LOOPS(table, 2, subtract)
  COPPER_ADD_OP_LOOPS(table, 2, multiply)
  COPPER_ADD_OP_LOOPS(table, 2, true_divide)
  COPPER_ADD_OP_LOOPS(table, 2, floor_divide)
  COPPER_ADD_OP_LOOPS(table, 2, remainder)
  COPPER_ADD_OP_LOOPS(table, 2, fmod)
  COPPER_ADD_OP_LOOPS(table, 2, power)
}

}  // namespace copper::backend::cpu
