// CPU loops for the power, exponential and logarithm ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_exp_log_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, sqrt)
  COPPER_ADD_OP_LOOPS(table, 1, cbrt)
  COPPER_ADD_OP_LOOPS(table, 1, exp)
  COPPER_ADD_OP_LOOPS(table, 1, exp2)
  COPPER_ADD_OP_LOOPS(table, 1, expm1)
  COPPER_ADD_OP_LOOPS(table, 1, log)
  COPPER_ADD_OP_LOOPS(table, 1, log2)
  COPPER_ADD_OP_LOOPS(table, 1, log10)
  COPPER_ADD_OP_LOOPS(table, 1, log1p)
}

}  // namespace copper::backend::cpu
