// CudaBackend::fold's generated kernel (kernels/fold.cuh), exposed for compile checks.
#pragma once
#include <string>

#include "backend/backend.h"

namespace copper::backend::cuda {

// The source of the fold kernel for (op, loop dtype) and the options' kind.
std::string fold_source(ops::UfuncId op, DType loop, bool from_out, bool scan);

}  // namespace copper::backend::cuda
