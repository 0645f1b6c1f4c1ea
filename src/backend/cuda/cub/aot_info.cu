// Facts about the ahead-of-time code, for checks that run without a GPU.
#include <cuda_runtime.h>

#include "backend/cuda/cub/aot.h"

namespace copper::backend::cuda::aot {

#define COPPER_STRINGIZE2(x) #x
#define COPPER_STRINGIZE(x) COPPER_STRINGIZE2(x)

const char* compiled_architectures() { return COPPER_STRINGIZE(__CUDA_ARCH_LIST__); }

int runtime_version() {
  int version = 0;
  cudaRuntimeGetVersion(&version);  // the linked runtime's own number: no driver involved
  return version;
}

}  // namespace copper::backend::cuda::aot
