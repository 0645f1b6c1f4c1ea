// det, slogdet, inv, solve, cholesky: LU (?getrf/?gesv) and Cholesky (?potrf) per matrix
// of a stack, on the host. A row-major matrix is LAPACK's column-major transpose, which
// these routines can take as is (det(A^T) = det(A); see each function for the rest).
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "api/linalg_support.h"
#include "backend/cpu/cpu_lapack.h"
#include "copper/linalg.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;
using namespace copper::backend::cpu;

template <class T>
int getrf(int n, T* a, int* ipiv) {
  int info = 0;
  (std::is_same_v<T, double> ? lapack().dgetrf : lapack().zgetrf)(&n, &n, a, &n, ipiv, &info);
  return info;
}

template <class T>
int gesv(int n, int nrhs, T* a, int* ipiv, T* b) {
  int info = 0;
  (std::is_same_v<T, double> ? lapack().dgesv : lapack().zgesv)(&n, &nrhs, a, &n, ipiv, b, &n, &info);
  return info;
}

template <class T>
int potrf(char uplo, int n, T* a) {
  int info = 0;
  (std::is_same_v<T, double> ? lapack().dpotrf : lapack().zpotrf)(&uplo, &n, a, &n, &info, 1);
  return info;
}

}  // namespace

namespace {

// Sign and log|det| of every matrix of the stack, in double precision.
template <class T>
std::pair<std::vector<T>, std::vector<real_t<T>>> slogdet_host(const ndarray& a) {
  using R = real_t<T>;
  const std::int64_t n = a.shape().back();
  std::vector<T> data = to_host<T>(a);
  const std::int64_t count = shape_size(batch_of(a));
  std::vector<T> sign(count);
  std::vector<R> logdet(count);
  std::vector<int> ipiv(n);
  for (std::int64_t b = 0; b < count; ++b) {
    T* m = data.data() + b * n * n;
    T s = 1;
    R l = 0;
    if (n > 0 && getrf<T>(static_cast<int>(n), m, ipiv.data()) > 0) {
      s = 0;
      l = -std::numeric_limits<R>::infinity();
    } else {
      for (std::int64_t i = 0; i < n; ++i) {
        const T d = m[i * n + i];
        const R mag = std::abs(d);
        s *= (ipiv[i] != i + 1 ? T(-1) : T(1)) * (d / mag);
        l += std::log(mag);
      }
    }
    sign[b] = s;
    logdet[b] = l;
  }
  return {std::move(sign), std::move(logdet)};
}

}  // namespace

SlogdetResult slogdet(const ndarray& a) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  return dispatch(work_type(result), [&]<class T>() {
    auto [sign, logdet] = slogdet_host<T>(a);
    return SlogdetResult{to_device(sign, batch_of(a), result, a.device()),
                         to_device(logdet, batch_of(a), real_dtype(result), a.device())};
  });
}

ndarray det(const ndarray& a) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  return dispatch(work_type(result), [&]<class T>() {
    auto [sign, logdet] = slogdet_host<T>(a);  // det = sign * exp(logdet), as NumPy computes it
    for (std::size_t i = 0; i < sign.size(); ++i) sign[i] *= std::exp(logdet[i]);
    return to_device(sign, batch_of(a), result, a.device());
  });
}

ndarray inv(const ndarray& a) { return api::linalg_detail::inverse(a, true); }

}  // namespace copper::linalg

namespace copper::api::linalg_detail {

ndarray inverse(const ndarray& a, bool raise_if_singular) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back();
  return dispatch(work_type(result), [&]<class T>() {
    // Row-major A is column-major A^T: solving A^T X = I there gives X = inv(A)^T, which
    // reads back row-major as inv(A).
    std::vector<T> data = to_host<T>(a);
    std::vector<T> out(data.size());
    std::vector<int> ipiv(n);
    const std::int64_t count = n == 0 ? 0 : static_cast<std::int64_t>(data.size()) / (n * n);
    for (std::int64_t b = 0; b < count; ++b) {
      T* x = out.data() + b * n * n;
      for (std::int64_t i = 0; i < n; ++i) x[i * n + i] = 1;
      if (linalg::gesv<T>(static_cast<int>(n), static_cast<int>(n), data.data() + b * n * n, ipiv.data(), x) > 0) {
        if (raise_if_singular) throw LinAlgError("Singular matrix");
        std::fill(x, x + n * n, T(std::numeric_limits<double>::quiet_NaN()));
      }
    }
    return to_device(out, a.shape(), result, a.device());
  });
}

}  // namespace copper::api::linalg_detail

namespace copper::linalg {

ndarray solve(const ndarray& a, const ndarray& b) {
  check_stacked_square(a);
  const std::int64_t n = a.shape().back();
  const bool vector = b.ndim() == 1;
  const char* signature = vector ? "solve1: Input operand 1 " : "solve: Input operand 1 ";
  const char* gufunc = vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  if (b.ndim() == 0)
    throw ValueError(std::string(signature) + "does not have enough dimensions (has 0, gufunc core with signature " +
                     gufunc + " requires 1)");
  const std::int64_t rows = vector ? b.shape()[0] : b.shape()[b.ndim() - 2];
  if (rows != n)
    throw ValueError(std::string(signature) + "has a mismatch in its core dimension 0, with gufunc signature " + gufunc +
                     " (size " + std::to_string(rows) + " is different from " + std::to_string(n) + ")");
  const std::int64_t k = vector ? 1 : b.shape().back();
  const Shape batch = vector ? batch_of(a) : broadcast_shapes({batch_of(a), batch_of(b)});
  const DType result = result_type({&a, &b});
  const Device device = a.device();
  const Shape out_shape = vector ? with_core(batch, {n}) : with_core(batch, {n, k});
  return dispatch(work_type(result), [&]<class T>() {
    std::vector<T> as = to_host<T>(broadcast_to(a, with_core(batch, {n, n})));
    std::vector<T> bs = to_host<T>(vector ? broadcast_to(b, with_core(batch, {n})) : broadcast_to(b, out_shape));
    std::vector<T> fa(n * n), fb(n * k);
    std::vector<int> ipiv(n);
    const std::int64_t count = shape_size(batch);
    for (std::int64_t i = 0; i < count && n > 0 && k > 0; ++i) {
      to_fortran(as.data() + i * n * n, n, n, fa.data(), n);
      to_fortran(bs.data() + i * n * k, n, k, fb.data(), n);
      if (gesv<T>(static_cast<int>(n), static_cast<int>(k), fa.data(), ipiv.data(), fb.data()) > 0)
        throw LinAlgError("Singular matrix");
      from_fortran(fb.data(), n, k, n, bs.data() + i * n * k);
    }
    return to_device(bs, out_shape, result, device);
  });
}

ndarray cholesky(const ndarray& a, bool upper) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back();
  return dispatch(work_type(result), [&]<class T>() {
    // Row-major A is column-major conj(A): potrf 'U' there gives conj(A) = U^H U, and U
    // read row-major is U^T = L with A = L L^H. 'L' likewise gives NumPy's upper factor.
    std::vector<T> data = to_host<T>(a);
    const std::int64_t count = n == 0 ? 0 : static_cast<std::int64_t>(data.size()) / (n * n);
    for (std::int64_t b = 0; b < count; ++b) {
      T* m = data.data() + b * n * n;
      if (potrf<T>(upper ? 'L' : 'U', static_cast<int>(n), m) != 0) throw LinAlgError("Matrix is not positive definite");
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          if (upper ? j < i : j > i) m[i * n + j] = 0;
    }
    return to_device(data, a.shape(), result, a.device());
  });
}

}  // namespace copper::linalg
