// CPU loops for the rounding, sign and extrema (incl. clip) ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_rounding_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, floor)
  COPPER_ADD_OP_LOOPS(table, 1, ceil)
  COPPER_ADD_OP_LOOPS(table, 1, trunc)
  COPPER_ADD_OP_LOOPS(table, 1, rint)
  COPPER_ADD_OP_LOOPS(table, 1, sign)
  COPPER_ADD_OP_LOOPS(table, 2, maximum)
  COPPER_ADD_OP_LOOPS(table, 2, minimum)
  COPPER_ADD_OP_LOOPS(table, 2, fmax)
  COPPER_ADD_OP_LOOPS(table, 2, fmin)
  COPPER_ADD_OP_LOOPS(table, 3, clip)
}

}  // namespace copper::backend::cpu
