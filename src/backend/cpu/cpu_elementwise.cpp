// Placeholder until the elementwise loops land (owned by the ufunc work).
#include "backend/cpu/cpu_backend.h"

namespace copper::backend::cpu {
void CpuBackend::elementwise(ops::UfuncId, DType, std::span<const ArrayView>, const ArrayView&) {
  throw NotImplementedError("elementwise loops are not built yet");
}
void CpuBackend::where(const ArrayView&, const ArrayView&, const ArrayView&, const ArrayView&) {
  throw NotImplementedError("where is not built yet");
}
}  // namespace copper::backend::cpu
