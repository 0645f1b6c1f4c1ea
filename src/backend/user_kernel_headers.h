// The headers user kernels are compiled against (ops/scalar_types.h, ops/scalar_math.h,
// ops/user_kernel_types.h, in include order), built into the library as text by
// cmake/embed_sources.cmake in every configuration, CUDA or not.
#pragma once

namespace copper::backend {

struct UserKernelHeader {
  const char* name;  // "ops/scalar_types.h"
  const char* text;
};
extern const UserKernelHeader kUserKernelHeaders[];
extern const int kNumUserKernelHeaders;

}  // namespace copper::backend
