// CPU loops for the trigonometric and hyperbolic ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_trig_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, sin)
  COPPER_ADD_OP_LOOPS(table, 1, cos)
  COPPER_ADD_OP_LOOPS(table, 1, tan)
  COPPER_ADD_OP_LOOPS(table, 1, arcsin)
  COPPER_ADD_OP_LOOPS(table, 1, arccos)
  COPPER_ADD_OP_LOOPS(table, 1, arctan)
  COPPER_ADD_OP_LOOPS(table, 1, sinh)
  COPPER_ADD_OP_LOOPS(table, 1, cosh)
  COPPER_ADD_OP_LOOPS(table, 1, tanh)
  COPPER_ADD_OP_LOOPS(table, 1, arcsinh)
  COPPER_ADD_OP_LOOPS(table, 1, arccosh)
  COPPER_ADD_OP_LOOPS(table, 1, arctanh)
  COPPER_ADD_OP_LOOPS(table, 2, arctan2)
  COPPER_ADD_OP_LOOPS(table, 2, hypot)
  COPPER_ADD_OP_LOOPS(table, 1, angle)
}

}  // namespace copper::backend::cpu
