// Which backends exist in this build and process.
#pragma once
#include "backend/backend.h"

namespace copper::backend {

// True when the CUDA backend was built and a driver with at least one GPU was found.
bool cuda_available();
Backend& cpu_backend();

}  // namespace copper::backend
