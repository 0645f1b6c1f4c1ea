// CPU loops for the bitwise and shift ufuncs.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_bitwise_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, invert)
  COPPER_ADD_OP_LOOPS(table, 2, bitwise_and)
  COPPER_ADD_OP_LOOPS(table, 2, bitwise_or)
  COPPER_ADD_OP_LOOPS(table, 2, bitwise_xor)
  COPPER_ADD_OP_LOOPS(table, 2, left_shift)
  COPPER_ADD_OP_LOOPS(table, 2, right_shift)
}

}  // namespace copper::backend::cpu
