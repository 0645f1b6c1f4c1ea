// ElementwiseKernel and ReductionKernel on the CPU: the user's code wrapped in a C++
// entry point (cpu_user_kernel_compile.h builds and caches it), run across the thread
// pool over chunks of the element range (elementwise) or of the output rows
// (reductions; long rows split into fixed-size chunks combined afterwards).
#pragma once
#include <string>

#include "backend/user_kernel_job.h"

namespace copper::backend::cpu {

void run_user_elementwise(const UserElementwiseJob& job);
void run_user_reduction(const UserReductionJob& job);

// The C++ source run_user_* would compile (for tests and compile checks).
std::string user_elementwise_source(const UserElementwiseJob& job);
std::string user_reduction_source(const UserReductionJob& job);

// Declarations that unpack the parameter block (`_args`) into the names user code sees.
std::string unpack_user_args(const std::vector<UserKernelArg>& args);

}  // namespace copper::backend::cpu
