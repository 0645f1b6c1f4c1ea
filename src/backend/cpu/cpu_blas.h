// The Fortran BLAS (?gemm_), loaded at run time so that copper builds and runs
// with no BLAS present: the matmul loops take over when none loads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace copper::backend::cpu {

// gfortran's calling convention: every argument by pointer, then the hidden
// lengths of the character arguments (harmless for BLAS libraries that ignore them).
template <class T>
using GemmFn = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                        const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta,
                        T* c, const int* ldc, std::size_t transa_len, std::size_t transb_len);

// The same with 64-bit integers (an ILP64 build, such as the OpenBLAS inside NumPy's wheels,
// whose symbols are scipy_?gemm_64_).
template <class T>
using GemmFn64 = void (*)(const char* transa, const char* transb, const std::int64_t* m, const std::int64_t* n,
                          const std::int64_t* k, const T* alpha, const T* a, const std::int64_t* lda, const T* b,
                          const std::int64_t* ldb, const T* beta, T* c, const std::int64_t* ldc, std::size_t transa_len,
                          std::size_t transb_len);

// ?gemv_: y = alpha op(A) x + beta y (a subroutine, so no Fortran function-return ABI to match,
// which ?dot_ would need), in both integer widths.
template <class T>
using GemvFn = void (*)(const char* trans, const int* m, const int* n, const T* alpha, const T* a, const int* lda,
                        const T* x, const int* incx, const T* beta, T* y, const int* incy, std::size_t trans_len);
template <class T>
using GemvFn64 = void (*)(const char* trans, const std::int64_t* m, const std::int64_t* n, const T* alpha, const T* a,
                          const std::int64_t* lda, const T* x, const std::int64_t* incx, const T* beta, T* y,
                          const std::int64_t* incy, std::size_t trans_len);

struct Blas {
  // GemmFn<T>, or GemmFn64<T> when ilp64: cast by the caller (gemm_of in cpu_matmul.cpp).
  void* sgemm = nullptr;
  void* dgemm = nullptr;
  void* cgemm = nullptr;  // complex<float> elements (re, im pairs)
  void* zgemm = nullptr;  // complex<double> elements
  // GemvFn<T> or GemvFn64<T>; null where the library lacks them (matmul then uses its loop).
  void* sgemv = nullptr;
  void* dgemv = nullptr;
  void* cgemv = nullptr;
  void* zgemv = nullptr;
  bool ilp64 = false;     // 64-bit integer arguments
  bool threaded = false;  // the library runs its own threads (OpenBLAS): call it once
  std::string path;       // which library was loaded
};

// The loaded BLAS, or nullptr when none provides the four ?gemm_ symbols. Tried in order:
// $COPPER_BLAS_PATH (=none turns BLAS off), the system's OpenBLAS or MKL, then
// $COPPER_BLAS_FALLBACK (the Python package points it at the OpenBLAS in NumPy's wheel),
// then the reference BLAS (libblas.so.3: 15 times slower than OpenBLAS at n = 500).
const Blas* blas();

}  // namespace copper::backend::cpu
