// Driver entry points only user kernels need (function attributes, module globals,
// cooperative launches), looked up in the already loaded libcuda so the shared
// driver table stays as it is.
#pragma once
#include <cuda.h>

namespace copper::backend::cuda {

struct RawDriver {
  decltype(&::cuFuncGetAttribute) cuFuncGetAttribute = nullptr;
  decltype(&::cuModuleGetGlobal) cuModuleGetGlobal = nullptr;
  decltype(&::cuLaunchCooperativeKernel) cuLaunchCooperativeKernel = nullptr;
};

// The entry points; RuntimeError without a usable driver or where one is missing.
const RawDriver& raw_driver();

}  // namespace copper::backend::cuda
