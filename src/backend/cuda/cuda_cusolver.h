// cuSOLVER (dense), loaded at run time like cuBLAS: the library builds with the
// toolkit's headers only and runs (without GPU linalg) where cuSOLVER is absent.
// CUDA 13 ships it as libcusolver.so.12, CUDA 12 as libcusolver.so.11.
#pragma once
#include <cusolverDn.h>

#include <string>

namespace copper::backend::cuda {

// The routines copper.linalg uses: the 64-bit generic API, plus the typed ?orgqr/?ungqr
// (the generic API has none), indexed s, d, c, z. The typed pointers take void* for
// the precision's element type (same calling convention).
struct Cusolver {
  cusolverStatus_t (*create)(cusolverDnHandle_t*) = nullptr;
  cusolverStatus_t (*set_stream)(cusolverDnHandle_t, cudaStream_t) = nullptr;
  cusolverStatus_t (*create_params)(cusolverDnParams_t*) = nullptr;
  cusolverStatus_t (*getrf_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType,
                                        const void*, int64_t, cudaDataType, size_t*, size_t*) = nullptr;
  cusolverStatus_t (*getrf)(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void*, int64_t,
                            int64_t*, cudaDataType, void*, size_t, void*, size_t, int*) = nullptr;
  cusolverStatus_t (*getrs)(cusolverDnHandle_t, cusolverDnParams_t, cublasOperation_t, int64_t, int64_t, cudaDataType,
                            const void*, int64_t, const int64_t*, cudaDataType, void*, int64_t, int*) = nullptr;
  cusolverStatus_t (*potrf_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, cublasFillMode_t, int64_t,
                                        cudaDataType, const void*, int64_t, cudaDataType, size_t*, size_t*) = nullptr;
  cusolverStatus_t (*potrf)(cusolverDnHandle_t, cusolverDnParams_t, cublasFillMode_t, int64_t, cudaDataType, void*,
                            int64_t, cudaDataType, void*, size_t, void*, size_t, int*) = nullptr;
  cusolverStatus_t (*syevd_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t,
                                        int64_t, cudaDataType, const void*, int64_t, cudaDataType, const void*,
                                        cudaDataType, size_t*, size_t*) = nullptr;
  cusolverStatus_t (*syevd)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t,
                            cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*, size_t, void*,
                            size_t, int*) = nullptr;
  cusolverStatus_t (*gesvd_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t,
                                        int64_t, cudaDataType, const void*, int64_t, cudaDataType, const void*,
                                        cudaDataType, const void*, int64_t, cudaDataType, const void*, int64_t,
                                        cudaDataType, size_t*, size_t*) = nullptr;
  cusolverStatus_t (*gesvd)(cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t,
                            cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*, int64_t,
                            cudaDataType, void*, int64_t, cudaDataType, void*, size_t, void*, size_t, int*) = nullptr;
  cusolverStatus_t (*geqrf_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType,
                                        const void*, int64_t, cudaDataType, const void*, cudaDataType, size_t*,
                                        size_t*) = nullptr;
  cusolverStatus_t (*geqrf)(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void*, int64_t,
                            cudaDataType, void*, cudaDataType, void*, size_t, void*, size_t, int*) = nullptr;
  // cusolverDn{S,D}orgqr / {C,Z}ungqr and their _bufferSize.
  cusolverStatus_t (*orgqr_buffer_size[4])(cusolverDnHandle_t, int, int, int, const void*, int, const void*,
                                           int*) = {};
  cusolverStatus_t (*orgqr[4])(cusolverDnHandle_t, int, int, int, void*, int, const void*, void*, int, int*) = {};
  // Optional (cuSOLVER 11.7 / CUDA 12.6 and later; nullptr before): eigen-decomposition of
  // a packed stack in one call.
  cusolverStatus_t (*syev_batched_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t,
                                               cublasFillMode_t, int64_t, cudaDataType, const void*, int64_t,
                                               cudaDataType, const void*, cudaDataType, size_t*, size_t*,
                                               int64_t) = nullptr;
  cusolverStatus_t (*syev_batched)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t,
                                   int64_t, cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*,
                                   size_t, void*, size_t, int*, int64_t) = nullptr;
  // Optional (cuSOLVER 11.6 / CUDA 12.6 and later; nullptr before): general eigenproblems.
  cusolverStatus_t (*geev_buffer_size)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t,
                                       int64_t, cudaDataType, const void*, int64_t, cudaDataType, const void*,
                                       cudaDataType, const void*, int64_t, cudaDataType, const void*, int64_t,
                                       cudaDataType, size_t*, size_t*) = nullptr;
  cusolverStatus_t (*geev)(cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
                           cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*, int64_t,
                           cudaDataType, void*, int64_t, cudaDataType, void*, size_t, void*, size_t, int*) = nullptr;
  std::string path;  // the library that was loaded
};

// Every required symbol name above, in the order load() binds them (for tests and messages).
const char* const* cusolver_symbol_names(int* count);

// The loaded cuSOLVER; RuntimeError naming what was tried when it cannot be loaded
// ($COPPER_CUSOLVER_PATH, libcusolver.so.12, libcusolver.so.11, the toolkit's copy;
// COPPER_CUSOLVER_PATH=none turns it off).
const Cusolver& cusolver();

// This thread's handle and default parameters for `device` (one per device, made on
// first use), bound to the device's current stream; the device's context is made current.
struct CusolverSession {
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;
};
CusolverSession cusolver_session(int device);

// Throws RuntimeError (OutOfMemoryError for allocation failures) naming `what` and the status.
void check_cusolver(cusolverStatus_t status, const char* what);

}  // namespace copper::backend::cuda
