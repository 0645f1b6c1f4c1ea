// ElementwiseKernel and ReductionKernel on the GPU: CUDA C++ generated around the
// user's code, compiled by NVRTC through the kernel cache (memory and disk), keyed by
// a family id and strong hashes of the whole generated source.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "backend/cuda/kernel_cache.h"
#include "backend/user_kernel_job.h"
#include "backend/user_kernel_source.h"

namespace copper::backend::cuda {

void run_user_elementwise(int device, const UserElementwiseJob& job);
void run_user_reduction(int device, const UserReductionJob& job);

// The sources run_user_* compile (no GPU needed: for compile checks). For reductions,
// sm_count stands in for the device's (it chooses the threads per row).
std::string user_elementwise_source(const UserElementwiseJob& job);
std::string user_reduction_source(const UserReductionJob& job, int sm_count = 132);

// ParamBlock::add_layout's fast-division constants for a layout's dimensions.
std::vector<std::array<unsigned, 3>> user_layout_fast_divs(const UserLayout& l);
// Family id, two 64-bit hashes and the length of the source: the memory and disk key.
KernelKey user_kernel_key(unsigned family, const SourceHash& h);
// A stable C string for launch records (which want a name that outlives the call).
const char* interned_name(const std::string& name);
// NotImplementedError when the kernel parameters exceed what a launch can carry.
void check_param_bytes(std::size_t bytes, const std::string& name);

}  // namespace copper::backend::cuda
