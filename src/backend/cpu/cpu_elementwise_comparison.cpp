// CPU loops for the comparison, logical and floating-point class ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_comparison_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 2, greater)
  COPPER_ADD_OP_LOOPS(table, 2, greater_equal)
  COPPER_ADD_OP_LOOPS(table, 2, less)
  COPPER_ADD_OP_LOOPS(table, 2, less_equal)
  COPPER_ADD_OP_LOOPS(table, 2, equal)
  COPPER_ADD_OP_LOOPS(table, 2, not_equal)
  COPPER_ADD_OP_LOOPS(table, 2, logical_and)
  COPPER_ADD_OP_LOOPS(table, 2, logical_or)
  COPPER_ADD_OP_LOOPS(table, 2, logical_xor)
  COPPER_ADD_OP_LOOPS(table, 1, logical_not)
  COPPER_ADD_OP_LOOPS(table, 1, isnan)
  COPPER_ADD_OP_LOOPS(table, 1, isinf)
  COPPER_ADD_OP_LOOPS(table, 1, isfinite)
}

}  // namespace copper::backend::cpu
