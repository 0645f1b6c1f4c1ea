// CPU loops for the floating-point part ufuncs and log-sum-exp: signbit, copysign,
// nextafter, logaddexp, logaddexp2.
#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

void add_floating_loops(LoopTable& table) {
  COPPER_ADD_OP_LOOPS(table, 1, signbit)
  COPPER_ADD_OP_LOOPS(table, 2, copysign)
  COPPER_ADD_OP_LOOPS(table, 2, nextafter)
  COPPER_ADD_OP_LOOPS(table, 2, logaddexp)
  COPPER_ADD_OP_LOOPS(table, 2, logaddexp2)
}

}  // namespace copper::backend::cpu
