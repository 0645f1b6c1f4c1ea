// The Fortran BLAS (?gemm_), loaded at run time so that copper builds and runs
// with no BLAS present: the matmul loops take over when none loads.
#pragma once
#include <cstddef>
#include <string>

namespace copper::backend::cpu {

// gfortran's calling convention: every argument by pointer, then the hidden
// lengths of the character arguments (harmless for BLAS libraries that ignore them).
template <class T>
using GemmFn = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                        const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta,
                        T* c, const int* ldc, std::size_t transa_len, std::size_t transb_len);

struct Blas {
  GemmFn<float> sgemm = nullptr;
  GemmFn<double> dgemm = nullptr;
  GemmFn<void> cgemm = nullptr;  // complex<float> elements (re, im pairs)
  GemmFn<void> zgemm = nullptr;  // complex<double> elements
  bool threaded = false;         // the library runs its own threads (OpenBLAS): call it once
  std::string path;              // which library was loaded
};

// The loaded BLAS, or nullptr when none of $COPPER_BLAS_PATH, libopenblas.so.0,
// libblas.so.3 (and a few more names) provides the four ?gemm_ symbols;
// COPPER_BLAS_PATH=none turns BLAS off.
const Blas* blas();

}  // namespace copper::backend::cpu
