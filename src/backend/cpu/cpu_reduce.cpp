// Placeholder until the reduction loops land (owned by the reductions work).
#include "backend/cpu/cpu_backend.h"

namespace copper::backend::cpu {
void CpuBackend::reduce(ops::ReduceOp, const ArrayView&, int, const ArrayView&) {
  throw NotImplementedError("reductions are not built yet");
}
void CpuBackend::scan(ops::ScanOp, const ArrayView&, int, const ArrayView&) {
  throw NotImplementedError("scans are not built yet");
}
}  // namespace copper::backend::cpu
