// cuBLAS, loaded at run time like the driver and NVRTC: the library builds with the
// toolkit's headers only and runs (without GPU matmul) where cuBLAS is absent.
#pragma once
#include <cublas_api.h>

namespace copper::backend::cuda {

struct Cublas {
  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;              // cublasCreate_v2
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t) = nullptr;  // cublasSetStream_v2
  cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t) = nullptr;
  cublasStatus_t (*gemm_strided_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                         const void*, const void*, cudaDataType, int, long long, const void*,
                                         cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                         long long, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  const char* (*status_name)(cublasStatus_t) = nullptr;             // cublasGetStatusName
};

// The loaded cuBLAS; RuntimeError naming what was tried when it cannot be loaded.
const Cublas& cublas();
// This thread's handle for `device` (one per device, created on first use), bound to
// the device's current stream.
cublasHandle_t cublas_handle(int device);
// Throws RuntimeError naming `what` and cuBLAS's status name.
void check_cublas(cublasStatus_t status, const char* what);

}  // namespace copper::backend::cuda
