// The Fortran LAPACK routines copper.linalg needs, loaded at run time (like cpu_blas.h)
// so that copper builds with no LAPACK present and only linalg calls need one.
// Only the double-precision variants (d*, z*) are used: NumPy computes float32 and
// complex64 input in double precision too and casts the results back.
#pragma once
#include <cstddef>
#include <string>

namespace copper::backend::cpu {

// gfortran's convention: every argument by pointer, then the hidden lengths of the
// character arguments. `void*` stands for double or complex<double> elements.
using GetrfFn = void (*)(const int* m, const int* n, void* a, const int* lda, int* ipiv, int* info);
using GesvFn = void (*)(const int* n, const int* nrhs, void* a, const int* lda, int* ipiv, void* b, const int* ldb,
                        int* info);
using PotrfFn = void (*)(const char* uplo, const int* n, void* a, const int* lda, int* info, std::size_t);
using DsyevdFn = void (*)(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                          double* work, const int* lwork, int* iwork, const int* liwork, int* info, std::size_t,
                          std::size_t);
using ZheevdFn = void (*)(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, double* w,
                          void* work, const int* lwork, double* rwork, const int* lrwork, int* iwork,
                          const int* liwork, int* info, std::size_t, std::size_t);
using DgesddFn = void (*)(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
                          double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
                          int* iwork, int* info, std::size_t);
using ZgesddFn = void (*)(const char* jobz, const int* m, const int* n, void* a, const int* lda, double* s, void* u,
                          const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, double* rwork,
                          int* iwork, int* info, std::size_t);
using GeqrfFn = void (*)(const int* m, const int* n, void* a, const int* lda, void* tau, void* work,
                         const int* lwork, int* info);
using OrgqrFn = void (*)(const int* m, const int* n, const int* k, void* a, const int* lda, const void* tau,
                         void* work, const int* lwork, int* info);

struct Lapack {
  GetrfFn dgetrf = nullptr, zgetrf = nullptr;
  GesvFn dgesv = nullptr, zgesv = nullptr;
  PotrfFn dpotrf = nullptr, zpotrf = nullptr;
  DsyevdFn dsyevd = nullptr;
  ZheevdFn zheevd = nullptr;
  DgesddFn dgesdd = nullptr;
  ZgesddFn zgesdd = nullptr;
  GeqrfFn dgeqrf = nullptr, zgeqrf = nullptr;
  OrgqrFn dorgqr = nullptr, zungqr = nullptr;
  std::string path;  // which library was loaded
};

// The loaded LAPACK: the first of $COPPER_LAPACK_PATH, libopenblas.so.0,
// liblapack.so.3 (and a few more names) that has every routine above;
// COPPER_LAPACK_PATH=none turns LAPACK off.
// Throws copper::RuntimeError naming COPPER_LAPACK_PATH when none loads.
const Lapack& lapack();

}  // namespace copper::backend::cpu
