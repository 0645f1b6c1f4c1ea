// Dense factorizations behind numpy.linalg, one interface for both backends: LAPACK
// on the CPU (cpu_dense_solver.cpp), cuSOLVER on a GPU (cuda_dense_solver.cpp). The
// front end (src/api/linalg_*.cpp) checks arguments, lays the matrices out, reads the
// info values back and raises LinAlgError; a solver only runs the library routines.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "copper/dtype.hpp"

namespace copper::backend {

// `count` column-major matrices of rows x cols, leading dimension rows, one after
// another in the backend's memory (matrix b starts rows * cols elements after b - 1).
// dtype is float32, float64, complex64 or complex128.
struct MatrixStack {
  void* data;
  DType dtype;
  std::int64_t count, rows, cols;
  void* matrix(std::int64_t b) const {
    return static_cast<char*>(data) + b * rows * cols * static_cast<std::int64_t>(itemsize(dtype));
  }
};

// Every routine runs on all `count` matrices (count >= 1, rows and cols >= 1 unless
// stated) and writes LAPACK's info of matrix b to info[b] (int32, in the backend's
// memory; 0 = success, > 0 = the numerical failure LAPACK documents). Work may still be
// in flight when a call returns (GPU): reading info synchronizes. Library failures
// (missing library, bad status, out of memory) raise.
// Info values on their way to the host (DenseSolver::read_info_async).
class PendingInfo {
 public:
  virtual ~PendingInfo() = default;  // waits for the copy if wait() was not called
  virtual std::vector<int> wait() = 0;  // blocks until the values have landed
};

class DenseSolver {
 public:
  virtual ~DenseSolver() = default;

  // Starts copying info[0..count) to the host, ordered after the work queued so far,
  // without waiting: work queued afterwards keeps the device busy while the host waits
  // for just these values (solve checks getrf's info while getrs runs).
  virtual std::unique_ptr<PendingInfo> read_info_async(const int* info, std::int64_t count) = 0;

  // LU with partial pivoting in place (square); ipiv: int64 (count, n), 1-based rows.
  virtual void getrf(const MatrixStack& a, std::int64_t* ipiv, int* info) = 0;
  // Overwrites b (count matrices of n x nrhs) with the solution of op(A) X = B, A from
  // getrf's output; op(A) = A^T when transpose is set, else A.
  virtual void getrs(bool transpose, const MatrixStack& lu, const std::int64_t* ipiv, const MatrixStack& b,
                     int* info) = 0;
  // Cholesky factor in place: A = L L^H in the lower triangle or A = U^H U in the upper;
  // only that triangle is read and written.
  virtual void potrf(bool lower, const MatrixStack& a, int* info) = 0;
  // Eigenvalues (ascending) of Hermitian matrices into w (real dtype, count x n); when
  // vectors is set, a is overwritten by the orthonormal eigenvectors (columns).
  // Only the `lower` (or upper) triangle is read.
  virtual void heevd(bool vectors, bool lower, const MatrixStack& a, void* w, int* info) = 0;
  // SVD A = U S V^H of rows x cols matrices with rows >= cols (a is destroyed). s: real
  // dtype (count x cols). job 'A': u is rows x rows; 'S': rows x cols; 'N': u and vt are
  // not used. vt (V^H) is cols x cols for 'A' and 'S'. All column-major, packed.
  virtual void gesvd(char job, const MatrixStack& a, void* s, void* u, void* vt, int* info) = 0;
  // Householder QR in place (R above the diagonal, reflectors below); tau: count x min(rows, cols).
  virtual void geqrf(const MatrixStack& a, void* tau, int* info) = 0;
  // Overwrites q (rows x cols, rows >= cols >= k) whose first k columns hold geqrf's
  // reflectors with the first cols columns of Q; tau: count x k (consecutive blocks of k).
  virtual void orgqr(const MatrixStack& q, std::int64_t k, const void* tau, int* info) = 0;
  // Eigenvalues of general square matrices into w (the complex dtype of a's precision,
  // count x n) and, when vectors is set, right eigenvectors into vr (a's dtype, column-
  // major n x n each; for real a, a complex pair j, j+1 stores the real part in column j
  // and the imaginary part in column j+1, as LAPACK's ?geev). a is destroyed.
  virtual void geev(bool vectors, const MatrixStack& a, void* w, void* vr, int* info) = 0;
};

}  // namespace copper::backend
