// eigh/eigvalsh (?syevd/?heevd), svd (?gesdd) and qr (?geqrf + ?orgqr/?ungqr) per
// matrix of a stack, on the host. Workspace sizes come from LAPACK's lwork = -1 queries.
#include <algorithm>
#include <cmath>

#include "api/linalg_support.h"
#include "backend/cpu/cpu_lapack.h"
#include "copper/linalg.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;
using backend::cpu::lapack;
using cd = std::complex<double>;

int work_size(double w) { return std::max(1, static_cast<int>(w)); }
int work_size(cd w) { return std::max(1, static_cast<int>(w.real())); }

// Eigen-decomposition of the column-major Hermitian matrix `a` (n x n, overwritten by
// the eigenvectors when vectors is set); returns LAPACK's info.
int heevd(bool vectors, char uplo, int n, double* a, double* w) {
  const char jobz = vectors ? 'V' : 'N';
  int info = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double work_query = 0;
  lapack().dsyevd(&jobz, &uplo, &n, a, &n, w, &work_query, &lwork, &iwork_query, &liwork, &info, 1, 1);
  lwork = work_size(work_query);
  liwork = std::max(1, iwork_query);
  std::vector<double> work(lwork);
  std::vector<int> iwork(liwork);
  lapack().dsyevd(&jobz, &uplo, &n, a, &n, w, work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
  return info;
}

int heevd(bool vectors, char uplo, int n, cd* a, double* w) {
  const char jobz = vectors ? 'V' : 'N';
  int info = 0, lwork = -1, lrwork = -1, liwork = -1, iwork_query = 0;
  cd work_query = 0;
  double rwork_query = 0;
  lapack().zheevd(&jobz, &uplo, &n, a, &n, w, &work_query, &lwork, &rwork_query, &lrwork, &iwork_query, &liwork,
                  &info, 1, 1);
  lwork = work_size(work_query);
  lrwork = work_size(rwork_query);
  liwork = std::max(1, iwork_query);
  std::vector<cd> work(lwork);
  std::vector<double> rwork(lrwork);
  std::vector<int> iwork(liwork);
  lapack().zheevd(&jobz, &uplo, &n, a, &n, w, work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork,
                  &info, 1, 1);
  return info;
}

// SVD of the column-major m x n matrix `a` (destroyed): jobz 'A', 'S' or 'N' as ?gesdd.
int gesdd(char jobz, int m, int n, double* a, double* s, double* u, int ldu, double* vt, int ldvt) {
  const int k = std::min(m, n);
  int info = 0, lwork = -1;
  double work_query = 0;
  std::vector<int> iwork(8 * static_cast<std::size_t>(k));
  lapack().dgesdd(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &work_query, &lwork, iwork.data(), &info, 1);
  lwork = work_size(work_query);
  std::vector<double> work(lwork);
  lapack().dgesdd(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), &info, 1);
  return info;
}

int gesdd(char jobz, int m, int n, cd* a, double* s, cd* u, int ldu, cd* vt, int ldvt) {
  const std::size_t k = std::min(m, n), big = std::max(m, n);
  int info = 0, lwork = -1;
  cd work_query = 0;
  std::vector<int> iwork(8 * k);
  // LAPACK's documented bound for rwork (jobz != 'N'), generous for 'N' too.
  std::vector<double> rwork(std::max<std::size_t>({1, 7 * k, 5 * k * k + 5 * k, 2 * big * k + 2 * k * k + k}));
  lapack().zgesdd(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &work_query, &lwork, rwork.data(), iwork.data(), &info,
                  1);
  lwork = work_size(work_query);
  std::vector<cd> work(lwork);
  lapack().zgesdd(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, rwork.data(), iwork.data(), &info,
                  1);
  return info;
}

template <class T>
void geqrf(int m, int n, T* a, T* tau) {
  auto fn = std::is_same_v<T, double> ? lapack().dgeqrf : lapack().zgeqrf;
  int info = 0, lwork = -1;
  T work_query = 0;
  fn(&m, &n, a, &m, tau, &work_query, &lwork, &info);
  lwork = work_size(work_query);
  std::vector<T> work(lwork);
  fn(&m, &n, a, &m, tau, work.data(), &lwork, &info);
}

template <class T>
void orgqr(int m, int n, int k, T* a, const T* tau) {
  auto fn = std::is_same_v<T, double> ? lapack().dorgqr : lapack().zungqr;
  int info = 0, lwork = -1;
  T work_query = 0;
  fn(&m, &n, &k, a, &m, tau, &work_query, &lwork, &info);
  lwork = work_size(work_query);
  std::vector<T> work(lwork);
  fn(&m, &n, &k, a, &m, tau, work.data(), &lwork, &info);
}

char checked_uplo(const std::string& uplo) {
  if (uplo != "L" && uplo != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
  return uplo[0];
}

EighResult eigh_impl(const ndarray& a, const std::string& uplo, bool vectors) {
  check_stacked_square(a);
  const char triangle = checked_uplo(uplo);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back();
  const Shape batch = batch_of(a);
  return dispatch(work_type(result), [&]<class T>() {
    // Row-major A is column-major A^T = conj(A): its other triangle holds A's `uplo`
    // triangle; its eigenvectors are the conjugates of A's.
    std::vector<T> data = to_host<T>(a);
    const std::int64_t count = shape_size(batch);
    std::vector<double> w(count * n);
    std::vector<T> f(n * n);
    for (std::int64_t b = 0; b < count && n > 0; ++b) {
      T* m = data.data() + b * n * n;
      std::copy(m, m + n * n, f.begin());
      if (heevd(vectors, triangle == 'L' ? 'U' : 'L', static_cast<int>(n), f.data(), w.data() + b * n) != 0)
        throw LinAlgError("Eigenvalues did not converge");
      if (vectors) {
        from_fortran(f.data(), n, n, n, m);
        if constexpr (!std::is_same_v<T, double>)
          for (std::int64_t i = 0; i < n * n; ++i) m[i] = std::conj(m[i]);
      }
    }
    EighResult r;
    r.eigenvalues = to_device(w, with_core(batch, {n}), real_dtype(result), a.device());
    if (vectors) r.eigenvectors = to_device(data, a.shape(), result, a.device());
    return r;
  });
}

// jobz 'A' (full), 'S' (reduced) or 'N' (values only).
SVDResult svd_impl(const ndarray& a, char jobz) {
  check_stacked_2d(a);
  const DType result = result_type({&a});
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const Shape batch = batch_of(a);
  const std::int64_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
  return dispatch(work_type(result), [&]<class T>() {
    std::vector<T> data = to_host<T>(a);
    const std::int64_t count = shape_size(batch);
    const bool uv = jobz != 'N';
    std::vector<double> s(count * k);
    std::vector<T> u(uv ? count * m * ucols : 0), vt(uv ? count * vrows * n : 0);
    std::vector<T> f(m * n), fu(uv ? m * ucols : 0), fvt(uv ? vrows * n : 0);
    for (std::int64_t b = 0; b < count; ++b) {
      if (k == 0) {  // nothing to factor: the full factors are identities, as NumPy gives
        for (std::int64_t i = 0; uv && i < std::min(m, ucols); ++i) u[b * m * ucols + i * ucols + i] = 1;
        for (std::int64_t i = 0; uv && i < std::min(n, vrows); ++i) vt[b * vrows * n + i * n + i] = 1;
        continue;
      }
      to_fortran(data.data() + b * m * n, m, n, f.data(), m);
      T dummy = 0;
      if (gesdd(jobz, static_cast<int>(m), static_cast<int>(n), f.data(), s.data() + b * k, uv ? fu.data() : &dummy,
                static_cast<int>(uv ? m : 1), uv ? fvt.data() : &dummy, static_cast<int>(uv ? vrows : 1)) != 0)
        throw LinAlgError("SVD did not converge");
      if (uv) {
        from_fortran(fu.data(), m, ucols, m, u.data() + b * m * ucols);
        from_fortran(fvt.data(), vrows, n, vrows, vt.data() + b * vrows * n);
      }
    }
    SVDResult r;
    r.S = to_device(s, with_core(batch, {k}), real_dtype(result), a.device());
    if (uv) {
      r.U = to_device(u, with_core(batch, {m, ucols}), result, a.device());
      r.Vh = to_device(vt, with_core(batch, {vrows, n}), result, a.device());
    }
    return r;
  });
}

}  // namespace

EighResult eigh(const ndarray& a, const std::string& uplo) { return eigh_impl(a, uplo, true); }
ndarray eigvalsh(const ndarray& a, const std::string& uplo) { return eigh_impl(a, uplo, false).eigenvalues; }

// hermitian=True takes the general SVD (NumPy goes through eigh): the factors are valid for Hermitian input too.
SVDResult svd(const ndarray& a, bool full_matrices, bool /*hermitian*/) {
  return svd_impl(a, full_matrices ? 'A' : 'S');
}
ndarray svdvals(const ndarray& a, bool hermitian) {
  if (hermitian) check_stacked_square(a);
  return svd_impl(a, 'N').S;
}

QRResult qr(const ndarray& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    throw ValueError("Unrecognized mode '" + mode + "'");
  check_stacked_2d(a);
  const DType result = result_type({&a});
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const Shape batch = batch_of(a);
  const std::int64_t count = shape_size(batch);
  const bool complete = mode == "complete";
  const std::int64_t rrows = complete ? m : k, qcols = complete ? m : k;
  return dispatch(work_type(result), [&]<class T>() {
    std::vector<T> data = to_host<T>(a);
    std::vector<T> f(m * n), tau(count * k), r(count * rrows * n), q(count * m * qcols), fq(m * qcols);
    std::vector<T> raw(count * m * n);
    for (std::int64_t b = 0; b < count; ++b) {
      if (k > 0) {
        to_fortran(data.data() + b * m * n, m, n, f.data(), m);
        geqrf<T>(static_cast<int>(m), static_cast<int>(n), f.data(), tau.data() + b * k);
      }
      std::copy(f.begin(), f.end(), raw.begin() + b * m * n);  // raw: column-major h, read as (n, m)
      T* rb = r.data() + b * rrows * n;
      for (std::int64_t i = 0; i < std::min(rrows, k); ++i)
        for (std::int64_t j = i; j < n; ++j) rb[i * n + j] = f[j * m + i];
      if (mode == "r" || mode == "raw") continue;
      T* qb = q.data() + b * m * qcols;
      if (k == 0) {
        for (std::int64_t i = 0; i < std::min(m, qcols); ++i) qb[i * qcols + i] = 1;
        continue;
      }
      std::fill(fq.begin(), fq.end(), T(0));
      std::copy(f.begin(), f.begin() + m * std::min(n, qcols), fq.begin());
      orgqr<T>(static_cast<int>(m), static_cast<int>(qcols), static_cast<int>(k), fq.data(), tau.data() + b * k);
      from_fortran(fq.data(), m, qcols, m, qb);
    }
    QRResult res;
    if (mode == "raw") {
      res.Q = to_device(raw, with_core(batch, {n, m}), result, a.device());
      res.R = to_device(tau, with_core(batch, {k}), result, a.device());
      return res;
    }
    res.R = to_device(r, with_core(batch, {rrows, n}), result, a.device());
    if (mode != "r") res.Q = to_device(q, with_core(batch, {m, qcols}), result, a.device());
    return res;
  });
}

}  // namespace copper::linalg
