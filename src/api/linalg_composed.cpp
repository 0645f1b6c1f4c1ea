// lstsq, pinv, matrix_rank, matrix_power and cond, composed from svd/inv and copper's
// own ufuncs, reductions and matmul: everything runs on the array's device (lstsq reads
// back only its rank).
#include <algorithm>
#include <cmath>
#include <limits>

#include "api/linalg_support.h"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;

ndarray matrix_transpose(const ndarray& a) { return swapaxes(a, -1, -2); }
ndarray conj_transpose(const ndarray& a) { return is_complex(a.dtype()) ? conj(matrix_transpose(a)) : matrix_transpose(a); }
double eps_of(DType t) {
  return real_dtype(t) == float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

}  // namespace

ndarray pinv(const ndarray& a, double rcond, bool hermitian) {
  check_stacked_2d(a);
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
  // An empty matrix's pseudo-inverse keeps its dtype, integers and bool included (NumPy).
  if (m == 0 || n == 0) return zeros(with_core(batch_of(a), {n, m}), a.dtype(), a.device());
  // NumPy's recipe: svd of conj(a), drop singular values below rcond * largest.
  const SVDResult f = svd(is_complex(a.dtype()) ? conj(a) : a, false, hermitian);
  const ndarray cutoff = multiply(amax(f.S, Axes(-1), {.keepdims = true}), rcond);
  const ndarray kept = greater(f.S, cutoff);
  const ndarray s_inv = where(kept, divide(1.0, where(kept, f.S, 1.0)), 0.0);
  return matmul(matrix_transpose(f.Vh), multiply(expand_dims(s_inv, {-1}), matrix_transpose(f.U)));
}

ndarray matrix_rank(const ndarray& a, std::optional<double> tol, bool hermitian, std::optional<double> rtol) {
  if (a.ndim() < 2) return astype(any(not_equal(a, 0)), int64);
  const ndarray s = svdvals(a, hermitian);
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
  ndarray threshold;
  if (tol) {
    threshold = full({}, *tol, s.dtype(), a.device());
  } else {
    if (s.shape().back() == 0) return zeros(batch_of(a), int64, a.device());
    const double relative = rtol ? *rtol : static_cast<double>(std::max(m, n)) * eps_of(s.dtype());
    threshold = multiply(amax(s, Axes(-1), {.keepdims = true}), relative);
  }
  return count_nonzero(greater(s, threshold), Axes(-1));
}

ndarray matrix_power(const ndarray& a, std::int64_t n) {
  check_stacked_square(a);
  const std::int64_t size = a.shape().back();
  if (n == 0) return copy(broadcast_to(eye(size, std::nullopt, 0, a.dtype(), a.device()), a.shape()), Order::C);
  ndarray base = n < 0 ? inv(a) : a;
  std::uint64_t e = n < 0 ? static_cast<std::uint64_t>(-(n + 1)) + 1 : static_cast<std::uint64_t>(n);
  if (e == 1) return copy(base, Order::C);
  // Binary powering: square the base, multiply it in for every set bit.
  std::optional<ndarray> result;
  while (true) {
    if (e & 1) result = result ? matmul(*result, base) : base;
    e >>= 1;
    if (!e) break;
    base = matmul(base, base);
  }
  return *result;
}

ndarray cond(const ndarray& x, const NormOrder& p) {
  check_stacked_2d(x);
  if (x.shape()[x.ndim() - 2] * x.shape().back() == 0) throw LinAlgError("cond is not defined on empty arrays");
  const auto* number = std::get_if<double>(&p);
  const bool spectral = std::holds_alternative<std::monostate>(p) || (number && (*number == 2 || *number == -2));
  ndarray r;
  if (spectral) {
    const ndarray s = svdvals(x);
    const ndarray first = s[{ellipsis, std::int64_t{0}}], last = s[{ellipsis, std::int64_t{-1}}];
    r = number && *number == -2 ? divide(last, first) : divide(first, last);
  } else {
    check_stacked_square(x);
    const std::vector<int> axes{-2, -1};
    r = multiply(norm(x, p, axes), norm(inverse(x, false), p, axes));
    const DType want = real_dtype(result_type({&x}));
    if (r.dtype() != want) r = astype(r, want);
  }
  // Singular input gives NaN along the way: report inf unless x itself held NaN, as NumPy.
  const ndarray x_nan = x.ndim() > 0 && x.size() > 0 ? any(isnan(x), Axes({-2, -1})) : zeros(r.shape(), bool_, x.device());
  return where(logical_and(isnan(r), logical_not(x_nan)), std::numeric_limits<double>::infinity(), r);
}

LstsqResult lstsq(const ndarray& a, const ndarray& b, std::optional<double> rcond) {
  if (a.ndim() != 2 || (b.ndim() != 1 && b.ndim() != 2))
    throw LinAlgError(std::to_string(a.ndim() != 2 ? a.ndim() : b.ndim()) +
                      "-dimensional array given. Array must be two-dimensional");
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (b.shape()[0] != m) throw LinAlgError("Incompatible dimensions");
  const bool vector = b.ndim() == 1;
  const DType result = result_type({&a, &b});
  const DType real = real_dtype(result);
  // NumPy's default cutoff is eps * max(M, N) of the dtype the SVD runs in (double there;
  // float32 for float32 input on a GPU, as CuPy).
  const double cut = rcond ? *rcond : eps_of(compute_type(result, a.device())) * static_cast<double>(std::max(m, n));
  const ndarray a_cast = a.dtype() == result ? a : astype(a, result);
  ndarray b2 = b.dtype() == result ? b : astype(b, result);
  if (vector) b2 = reshape(b2, {m, 1});

  const SVDResult f = svd(a_cast, false);
  LstsqResult r;
  r.s = f.S;
  // The rank is a host integer (as NumPy's): one small read of a count made on the device.
  const ndarray threshold = f.S.size() ? multiply(amax(f.S), cut) : zeros({}, real, a.device());
  const ndarray kept = greater(f.S, threshold);
  r.rank = count_nonzero(kept).to_vector<std::int64_t>().front();
  const ndarray s_inv = where(kept, divide(1.0, where(kept, f.S, 1.0)), 0.0);
  ndarray x = matmul(conj_transpose(f.Vh), multiply(expand_dims(s_inv, {-1}), matmul(conj_transpose(f.U), b2)));
  if (x.dtype() != result) x = astype(x, result);
  if (r.rank == n && m > n) {
    const ndarray residual = absolute(subtract(b2, matmul(a_cast, x)));
    r.residuals = astype(sum(multiply(residual, residual), Axes(0)), real);
  } else {
    r.residuals = zeros({0}, real, a.device());
  }
  r.x = vector ? reshape(x, {n}) : x;
  return r;
}

}  // namespace copper::linalg
