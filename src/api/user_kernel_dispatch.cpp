// Hands user-kernel jobs to the backend of their device, and reports compile statistics.
#include "api/user_kernel.h"
#include "backend/cpu/cpu_user_kernel.h"
#include "backend/cpu/cpu_user_kernel_compile.h"
#if COPPER_HAVE_CUDA
#include "backend/cuda/cuda_user_kernel.h"
#include "backend/cuda/kernel_cache.h"
#endif

namespace copper {
namespace api {
#if !COPPER_HAVE_CUDA
namespace {
[[noreturn]] void no_cuda() { throw RuntimeError("user kernels on a GPU need copper built with the CUDA backend"); }
}  // namespace
#endif

void run_user_elementwise(Device device, const backend::UserElementwiseJob& job) {
  if (device.type == DeviceType::cpu) return backend::cpu::run_user_elementwise(job);
#if COPPER_HAVE_CUDA
  backend::cuda::run_user_elementwise(device.index, job);
#else
  no_cuda();
#endif
}

void run_user_reduction(Device device, const backend::UserReductionJob& job) {
  if (device.type == DeviceType::cpu) return backend::cpu::run_user_reduction(job);
#if COPPER_HAVE_CUDA
  backend::cuda::run_user_reduction(device.index, job);
#else
  no_cuda();
#endif
}

}  // namespace api

KernelCompileStats kernel_compile_stats(Device device) {
  if (device.type == DeviceType::cpu) {
    const auto s = backend::cpu::user_compile_stats();
    return KernelCompileStats{s.memory_hits, s.disk_hits, s.compiles};
  }
#if COPPER_HAVE_CUDA
  const auto s = backend::cuda::kernel_cache_stats();
  return KernelCompileStats{s.memory_hits, s.disk_hits, s.compiles};
#else
  api::no_cuda();
#endif
}

}  // namespace copper
