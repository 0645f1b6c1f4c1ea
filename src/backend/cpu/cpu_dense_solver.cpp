// DenseSolver on the CPU: one LAPACK call per matrix of the stack, in the stack's own
// precision (s, d, c or z). Workspace sizes come from LAPACK's lwork = -1 queries, made
// once per stack since every matrix has the same shape.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_lapack.h"
#include "backend/dense_solver.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

// LAPACK's Fortran interface takes 32-bit sizes.
int fortran_int(std::int64_t v) {
  if (v > INT_MAX) throw NotImplementedError("linalg: matrices with more than 2**31 - 1 rows are not supported on the CPU");
  return static_cast<int>(v);
}

// One workspace element of any precision, for lwork = -1 queries.
struct WorkQuery {
  alignas(16) unsigned char bytes[16] = {};
  void* data() { return bytes; }
  // The optimal size LAPACK wrote (the real part of work[0]).
  int size(bool single) const {
    double v;
    if (single) {
      float f;
      std::memcpy(&f, bytes, sizeof f);
      v = f;
    } else {
      std::memcpy(&v, bytes, sizeof v);
    }
    // Single-precision queries can round the size down; add a little.
    return std::max(1, static_cast<int>(v * (single ? 1.0001 : 1.0)) + (single ? 1 : 0));
  }
};

bool single_precision(Precision p) { return p == kS || p == kC; }
bool complex_precision(Precision p) { return p == kC || p == kZ; }

// Element and real sizes in bytes.
std::size_t elem_size(DType t) { return static_cast<std::size_t>(itemsize(t)); }
std::size_t real_size(DType t) { return static_cast<std::size_t>(itemsize(real_dtype(t))); }

// The CPU backend's routines have finished when they return: the values are ready.
class ReadyInfo final : public PendingInfo {
 public:
  explicit ReadyInfo(std::vector<int> values) : values_(std::move(values)) {}
  std::vector<int> wait() override { return values_; }

 private:
  std::vector<int> values_;
};

class LapackSolver final : public DenseSolver {
 public:
  std::unique_ptr<PendingInfo> read_info_async(const int* info, std::int64_t count) override {
    return std::make_unique<ReadyInfo>(std::vector<int>(info, info + count));
  }

  void getrf(const MatrixStack& a, std::int64_t* ipiv, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int n = fortran_int(a.rows);
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (std::int64_t b = 0; b < a.count; ++b) {
      l.getrf[p](&n, &n, a.matrix(b), &n, piv.data(), &info[b]);
      std::copy(piv.begin(), piv.end(), ipiv + b * n);
    }
  }

  void getrs(bool transpose, const MatrixStack& lu, const std::int64_t* ipiv, const MatrixStack& b,
             int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(lu.dtype);
    const int n = fortran_int(lu.rows), nrhs = fortran_int(b.cols);
    const char trans = transpose ? 'T' : 'N';
    std::vector<int> piv(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < lu.count; ++i) {
      std::copy(ipiv + i * n, ipiv + (i + 1) * n, piv.begin());
      l.getrs[p](&trans, &n, &nrhs, lu.matrix(i), &n, piv.data(), b.matrix(i), &n, &info[i], 1);
    }
  }

  void potrf(bool lower, const MatrixStack& a, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int n = fortran_int(a.rows);
    const char uplo = lower ? 'L' : 'U';
    for (std::int64_t b = 0; b < a.count; ++b) l.potrf[p](&uplo, &n, a.matrix(b), &n, &info[b], 1);
  }

  void heevd(bool vectors, bool lower, const MatrixStack& a, void* w, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int n = fortran_int(a.rows);
    const char jobz = vectors ? 'V' : 'N', uplo = lower ? 'L' : 'U';
    const bool single = single_precision(p);
    char* wp = static_cast<char*>(w);
    const std::size_t wstride = static_cast<std::size_t>(n) * real_size(a.dtype);
    WorkQuery work_q, rwork_q;
    int iwork_q = 0, lwork = -1, lrwork = -1, liwork = -1, query_info = 0;
    if (complex_precision(p)) {
      auto fn = l.heevd[p - kC];
      fn(&jobz, &uplo, &n, a.matrix(0), &n, wp, work_q.data(), &lwork, rwork_q.data(), &lrwork, &iwork_q, &liwork,
         &query_info, 1, 1);
      lwork = work_q.size(single);
      lrwork = rwork_q.size(single);
      liwork = std::max(1, iwork_q);
      std::vector<unsigned char> work(lwork * elem_size(a.dtype)), rwork(lrwork * real_size(a.dtype));
      std::vector<int> iwork(liwork);
      for (std::int64_t b = 0; b < a.count; ++b)
        fn(&jobz, &uplo, &n, a.matrix(b), &n, wp + b * wstride, work.data(), &lwork, rwork.data(), &lrwork,
           iwork.data(), &liwork, &info[b], 1, 1);
    } else {
      auto fn = l.syevd[p];
      fn(&jobz, &uplo, &n, a.matrix(0), &n, wp, work_q.data(), &lwork, &iwork_q, &liwork, &query_info, 1, 1);
      lwork = work_q.size(single);
      liwork = std::max(1, iwork_q);
      std::vector<unsigned char> work(lwork * elem_size(a.dtype));
      std::vector<int> iwork(liwork);
      for (std::int64_t b = 0; b < a.count; ++b)
        fn(&jobz, &uplo, &n, a.matrix(b), &n, wp + b * wstride, work.data(), &lwork, iwork.data(), &liwork, &info[b],
           1, 1);
    }
  }

  // gesdd (divide and conquer, as NumPy uses) rather than gesvd: same factors, faster.
  void gesvd(char job, const MatrixStack& a, void* s, void* u, void* vt, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int m = fortran_int(a.rows), n = fortran_int(a.cols);
    const std::size_t k = static_cast<std::size_t>(std::min(m, n)), big = static_cast<std::size_t>(std::max(m, n));
    const bool uv = job != 'N', single = single_precision(p);
    const int ldu = uv ? m : 1, ldvt = uv ? n : 1;
    const int ucols = job == 'A' ? m : n;
    std::vector<unsigned char> dummy(16);
    std::vector<int> iwork(8 * k);
    std::vector<unsigned char> rwork;
    if (complex_precision(p))  // LAPACK's bound for rwork (jobz != 'N'), generous for 'N' too
      rwork.resize(std::max<std::size_t>({1, 7 * k, 5 * k * k + 5 * k, 2 * big * k + 2 * k * k + k}) *
                   real_size(a.dtype));
    auto call = [&](std::int64_t b, void* work, const int* lwork, int* inf) {
      char* sp = static_cast<char*>(s) + b * k * real_size(a.dtype);
      void* up = uv ? static_cast<char*>(u) + b * static_cast<std::int64_t>(m) * ucols * itemsize(a.dtype)
                    : static_cast<void*>(dummy.data());
      void* vp = uv ? static_cast<char*>(vt) + b * static_cast<std::int64_t>(n) * n * itemsize(a.dtype) : static_cast<void*>(dummy.data());
      if (complex_precision(p))
        l.complex_gesdd[p - kC](&job, &m, &n, a.matrix(b), &m, sp, up, &ldu, vp, &ldvt, work, lwork, rwork.data(),
                                iwork.data(), inf, 1);
      else
        l.real_gesdd[p](&job, &m, &n, a.matrix(b), &m, sp, up, &ldu, vp, &ldvt, work, lwork, iwork.data(), inf, 1);
    };
    WorkQuery q;
    int lwork = -1, query_info = 0;
    call(0, q.data(), &lwork, &query_info);
    lwork = q.size(single);
    std::vector<unsigned char> work(lwork * elem_size(a.dtype));
    for (std::int64_t b = 0; b < a.count; ++b) call(b, work.data(), &lwork, &info[b]);
  }

  void geqrf(const MatrixStack& a, void* tau, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int m = fortran_int(a.rows), n = fortran_int(a.cols);
    const std::int64_t k = std::min(m, n);
    char* taup = static_cast<char*>(tau);
    WorkQuery q;
    int lwork = -1, query_info = 0;
    l.geqrf[p](&m, &n, a.matrix(0), &m, taup, q.data(), &lwork, &query_info);
    lwork = q.size(single_precision(p));
    std::vector<unsigned char> work(lwork * elem_size(a.dtype));
    for (std::int64_t b = 0; b < a.count; ++b)
      l.geqrf[p](&m, &n, a.matrix(b), &m, taup + b * k * itemsize(a.dtype), work.data(), &lwork, &info[b]);
  }

  void orgqr(const MatrixStack& qs, std::int64_t k, const void* tau, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(qs.dtype);
    const int m = fortran_int(qs.rows), n = fortran_int(qs.cols), kk = fortran_int(k);
    const char* taup = static_cast<const char*>(tau);
    WorkQuery q;
    int lwork = -1, query_info = 0;
    l.orgqr[p](&m, &n, &kk, qs.matrix(0), &m, taup, q.data(), &lwork, &query_info);
    lwork = q.size(single_precision(p));
    std::vector<unsigned char> work(lwork * elem_size(qs.dtype));
    for (std::int64_t b = 0; b < qs.count; ++b)
      l.orgqr[p](&m, &n, &kk, qs.matrix(b), &m, taup + b * k * itemsize(qs.dtype), work.data(), &lwork, &info[b]);
  }

  // ?geev per matrix; real precisions interleave wr, wi into the complex w.
  void geev(bool vectors, const MatrixStack& a, void* w, void* vr, int* info) override {
    const auto& l = lapack();
    const Precision p = precision_of(a.dtype);
    const int n = fortran_int(a.rows), one = 1, ldvr = vectors ? n : 1;
    const char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
    const bool single = single_precision(p);
    const std::size_t es = elem_size(a.dtype), rs = real_size(a.dtype), nn = static_cast<std::size_t>(n);
    std::vector<unsigned char> dummy(16), vr_dummy(16);
    auto vr_of = [&](std::int64_t b) -> void* {
      return vectors ? static_cast<void*>(static_cast<char*>(vr) + b * static_cast<std::int64_t>(nn * nn * es))
                     : static_cast<void*>(vr_dummy.data());
    };
    char* wp = static_cast<char*>(w);
    WorkQuery q;
    int lwork = -1, query_info = 0;
    if (complex_precision(p)) {
      auto fn = l.complex_geev[p - kC];
      std::vector<unsigned char> rwork(2 * nn * rs);
      fn(&jobvl, &jobvr, &n, a.matrix(0), &n, wp, dummy.data(), &one, vr_of(0), &ldvr, q.data(), &lwork,
         rwork.data(), &query_info, 1, 1);
      lwork = q.size(single);
      std::vector<unsigned char> work(lwork * es);
      for (std::int64_t b = 0; b < a.count; ++b)
        fn(&jobvl, &jobvr, &n, a.matrix(b), &n, wp + b * nn * 2 * rs, dummy.data(), &one, vr_of(b), &ldvr,
           work.data(), &lwork, rwork.data(), &info[b], 1, 1);
    } else {
      auto fn = l.real_geev[p];
      std::vector<unsigned char> wr(nn * rs), wi(nn * rs);
      fn(&jobvl, &jobvr, &n, a.matrix(0), &n, wr.data(), wi.data(), dummy.data(), &one, vr_of(0), &ldvr, q.data(),
         &lwork, &query_info, 1, 1);
      lwork = q.size(single);
      std::vector<unsigned char> work(lwork * es);
      for (std::int64_t b = 0; b < a.count; ++b) {
        fn(&jobvl, &jobvr, &n, a.matrix(b), &n, wr.data(), wi.data(), dummy.data(), &one, vr_of(b), &ldvr,
           work.data(), &lwork, &info[b], 1, 1);
        char* out = wp + b * nn * 2 * rs;
        for (std::size_t i = 0; i < nn; ++i) {
          std::memcpy(out + 2 * i * rs, wr.data() + i * rs, rs);
          std::memcpy(out + (2 * i + 1) * rs, wi.data() + i * rs, rs);
        }
      }
    }
  }
};

}  // namespace

DenseSolver* CpuBackend::dense_solver() {
  static LapackSolver solver;  // stateless: LAPACK is loaded on the first call of a routine
  return &solver;
}

}  // namespace copper::backend::cpu
