// The Fortran LAPACK routines copper.linalg needs, loaded at run time (like cpu_blas.h)
// so that copper builds with no LAPACK present and only linalg calls need one.
// Every routine is loaded in all four precisions (s, d, c, z), indexed by Precision.
#pragma once
#include <cstddef>
#include <string>

#include "copper/dtype.hpp"

namespace copper::backend::cpu {

// Index of a LAPACK precision prefix: s (float32), d (float64), c (complex64), z (complex128).
enum Precision { kS = 0, kD = 1, kC = 2, kZ = 3 };
Precision precision_of(DType t);  // ValueError for other dtypes

// gfortran's convention: every argument by pointer, then the hidden lengths of the
// character arguments. `void*` stands for the precision's element type; `real*` for
// its real type (float or double).
using GetrfFn = void (*)(const int* m, const int* n, void* a, const int* lda, int* ipiv, int* info);
using GetrsFn = void (*)(const char* trans, const int* n, const int* nrhs, const void* a, const int* lda,
                         const int* ipiv, void* b, const int* ldb, int* info, std::size_t);
using PotrfFn = void (*)(const char* uplo, const int* n, void* a, const int* lda, int* info, std::size_t);
// ssyevd/dsyevd
using SyevdFn = void (*)(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, void* w,
                         void* work, const int* lwork, int* iwork, const int* liwork, int* info, std::size_t,
                         std::size_t);
// cheevd/zheevd
using HeevdFn = void (*)(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, void* w,
                         void* work, const int* lwork, void* rwork, const int* lrwork, int* iwork, const int* liwork,
                         int* info, std::size_t, std::size_t);
// sgesdd/dgesdd
using RealGesddFn = void (*)(const char* jobz, const int* m, const int* n, void* a, const int* lda, void* s, void* u,
                             const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, int* iwork,
                             int* info, std::size_t);
// cgesdd/zgesdd
using ComplexGesddFn = void (*)(const char* jobz, const int* m, const int* n, void* a, const int* lda, void* s,
                                void* u, const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork,
                                void* rwork, int* iwork, int* info, std::size_t);
using GeqrfFn = void (*)(const int* m, const int* n, void* a, const int* lda, void* tau, void* work,
                         const int* lwork, int* info);
// ?orgqr (real) and ?ungqr (complex)
using OrgqrFn = void (*)(const int* m, const int* n, const int* k, void* a, const int* lda, const void* tau,
                         void* work, const int* lwork, int* info);

// sgeev/dgeev: eigenvalues as separate real and imaginary parts
using RealGeevFn = void (*)(const char* jobvl, const char* jobvr, const int* n, void* a, const int* lda, void* wr,
                            void* wi, void* vl, const int* ldvl, void* vr, const int* ldvr, void* work,
                            const int* lwork, int* info, std::size_t, std::size_t);
// cgeev/zgeev
using ComplexGeevFn = void (*)(const char* jobvl, const char* jobvr, const int* n, void* a, const int* lda, void* w,
                               void* vl, const int* ldvl, void* vr, const int* ldvr, void* work, const int* lwork,
                               void* rwork, int* info, std::size_t, std::size_t);

struct Lapack {
  GetrfFn getrf[4] = {};
  GetrsFn getrs[4] = {};
  PotrfFn potrf[4] = {};
  SyevdFn syevd[2] = {};  // s, d
  HeevdFn heevd[2] = {};  // c, z
  RealGesddFn real_gesdd[2] = {};        // s, d
  ComplexGesddFn complex_gesdd[2] = {};  // c, z
  GeqrfFn geqrf[4] = {};
  OrgqrFn orgqr[4] = {};  // sorgqr, dorgqr, cungqr, zungqr
  RealGeevFn real_geev[2] = {};        // s, d
  ComplexGeevFn complex_geev[2] = {};  // c, z
  std::string path;       // which library was loaded
};

// The loaded LAPACK: the first of $COPPER_LAPACK_PATH, libopenblas.so.0,
// liblapack.so.3 (and a few more names) that has every routine above;
// COPPER_LAPACK_PATH=none turns LAPACK off.
// Throws copper::RuntimeError naming COPPER_LAPACK_PATH when none loads.
const Lapack& lapack();

}  // namespace copper::backend::cpu
