// The generated integer/bool matmul kernel's source (cuda_matmul.cpp), exposed for the
// NVRTC compile check that runs without a GPU.
#pragma once
#include <string>

#include "copper/dtype.hpp"

namespace copper::backend::cuda {
std::string matmul_source(DType t);  // entry point "copper_matmul"; bool and integer dtypes
}  // namespace copper::backend::cuda
