// Compiles the CUDA backend's integer/bool matmul kernel with NVRTC for sm_90, for
// every dtype that takes it (the floating types go to cuBLAS); needs NVRTC, no GPU.
#include <cstdio>
#include <string>

#include "backend/cuda/cuda_matmul.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"

using namespace copper;

int main() {
  int failures = 0;
  for (DType t : {DType::bool_, DType::int8, DType::uint8, DType::int16, DType::uint16, DType::int32, DType::uint32,
                  DType::int64, DType::uint64}) {
    try {
      backend::cuda::compile_cubin(backend::cuda::matmul_source(t), 90);
    } catch (const CompileError& e) {
      std::fprintf(stderr, "matmul kernel for %s failed:\n%s\n", std::string(name(t)).c_str(), e.log.c_str());
      ++failures;
    }
  }
  std::printf("%s\n", failures ? "FAILED" : "matmul kernels compile");
  return failures ? 1 : 0;
}
