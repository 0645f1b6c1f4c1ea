// cuFFT, loaded at run time like cuBLAS and cuSOLVER: the library builds with the
// toolkit's headers only and runs (without GPU FFTs) where cuFFT is absent. CUDA 13
// ships it as libcufft.so.12, CUDA 12 as libcufft.so.11.
#pragma once
#include <cufft.h>

#include <string>

namespace copper::backend::cuda {

struct Cufft {
  cufftResult (*create)(cufftHandle*) = nullptr;
  cufftResult (*destroy)(cufftHandle) = nullptr;
  cufftResult (*set_auto_allocation)(cufftHandle, int) = nullptr;
  cufftResult (*make_plan_many64)(cufftHandle, int rank, long long* n, long long* inembed, long long istride,
                                  long long idist, long long* onembed, long long ostride, long long odist,
                                  cufftType type, long long batch, size_t* work_size) = nullptr;
  cufftResult (*set_work_area)(cufftHandle, void*) = nullptr;
  cufftResult (*set_stream)(cufftHandle, cudaStream_t) = nullptr;
  // Exec functions with the element pointers as void* (same calling convention).
  cufftResult (*exec_c2c)(cufftHandle, void* in, void* out, int direction) = nullptr;
  cufftResult (*exec_z2z)(cufftHandle, void* in, void* out, int direction) = nullptr;
  cufftResult (*exec_r2c)(cufftHandle, void* in, void* out) = nullptr;
  cufftResult (*exec_d2z)(cufftHandle, void* in, void* out) = nullptr;
  cufftResult (*exec_c2r)(cufftHandle, void* in, void* out) = nullptr;
  cufftResult (*exec_z2d)(cufftHandle, void* in, void* out) = nullptr;
  cufftResult (*get_version)(int*) = nullptr;
  std::string path;  // the library that was loaded
};

// Every symbol name load() binds, in order (for the compile check and messages).
const char* const* cufft_symbol_names(int* count);

// The loaded cuFFT; RuntimeError naming what was tried when it cannot be loaded
// ($COPPER_CUFFT_PATH, libcufft.so.12, libcufft.so.11, the toolkit's copy;
// COPPER_CUFFT_PATH=none turns it off).
const Cufft& cufft();

// Throws RuntimeError (OutOfMemoryError for allocation failures) naming `what` and the result.
void check_cufft(cufftResult result, const char* what);

}  // namespace copper::backend::cuda
