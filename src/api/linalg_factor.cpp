// det, slogdet, inv, solve, cholesky through the device's DenseSolver (LU: getrf/getrs;
// Cholesky: potrf). A C-order matrix is the column-major transpose the solvers take,
// which these routines mostly use as is: det(A^T) = det(A), inv solves A^T X = I, and
// Cholesky takes the other triangle; solve factors a transposing copy (see each).
#include <algorithm>
#include <cmath>
#include <limits>

#include "api/array_factory.h"
#include "api/linalg_support.h"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;

// LU factors of every matrix of the square stack `a` (packed, compute dtype t) and
// their pivots; getrf's info goes to row 0 of `info`. The factors are of A^T (the C-order
// copy read column-major), or of A itself when `of_a` is set (a transposing copy).
struct LU {
  ndarray factors, ipiv;
};
LU lu_factor(const ndarray& a, DType t, const ndarray& info, bool of_a = false) {
  LU lu{packed_copy(a, t, of_a), ndarray()};
  const std::int64_t count = lu.factors.shape()[0], n = lu.factors.shape()[1];
  lu.ipiv = empty({count, n}, int64, a.device());
  solver_for(a.device()).getrf(column_major(lu.factors), static_cast<std::int64_t*>(lu.ipiv.data()),
                               static_cast<int*>(info.data()));
  return lu;
}

// Sign and log|det| of every matrix (count >= 1, n >= 1), in the compute dtype, all on
// the device: from U's diagonal and the number of row interchanges. A zero pivot
// (singular matrix) gives sign 0 and log|det| = -inf without reading info back.
std::pair<ndarray, ndarray> sign_and_log(const ndarray& a, DType t) {
  const ndarray info = new_info(shape_size(batch_of(a)), a.device());
  const LU lu = lu_factor(a, t, info);
  const std::int64_t n = lu.factors.shape()[1];
  const ndarray d = diagonal(lu.factors, 0, -2, -1);  // (count, n)
  const ndarray magnitude = absolute(d);
  const ndarray zero = equal(magnitude, 0);
  const ndarray logdet = sum(log(magnitude), Axes(-1));
  const ndarray phase = where(zero, 0, divide(d, where(zero, 1, magnitude)));
  const ndarray swaps = count_nonzero(not_equal(lu.ipiv, arange(1, n + 1, 1, int64, a.device())), Axes(-1));
  const ndarray parity = subtract(1, multiply(2, remainder(swaps, 2)));  // (-1)^swaps
  return {multiply(prod(phase, Axes(-1)), astype(parity, t)), logdet};
}

}  // namespace

SlogdetResult slogdet(const ndarray& a) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const Shape batch = batch_of(a);
  if (shape_size(batch) == 0 || a.shape().back() == 0)  // det of a 0x0 matrix is 1
    return SlogdetResult{ones(batch, result, a.device()), zeros(batch, real_dtype(result), a.device())};
  auto [sign, logdet] = sign_and_log(a, compute_type(result, a.device()));
  return SlogdetResult{reshape(astype(sign, result), batch), reshape(astype(logdet, real_dtype(result)), batch)};
}

ndarray det(const ndarray& a) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const Shape batch = batch_of(a);
  if (shape_size(batch) == 0 || a.shape().back() == 0) return ones(batch, result, a.device());
  auto [sign, logdet] = sign_and_log(a, compute_type(result, a.device()));
  return reshape(astype(multiply(sign, exp(logdet)), result), batch);  // as NumPy computes it
}

ndarray inv(const ndarray& a) { return api::linalg_detail::inverse(a, true); }

}  // namespace copper::linalg

namespace copper::api::linalg_detail {

ndarray inverse(const ndarray& a, bool raise_if_singular) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back(), count = shape_size(batch_of(a));
  if (count == 0 || n == 0) return empty(a.shape(), result, a.device());
  const DType t = compute_type(result, a.device());
  // Row-major A is column-major A^T: solving A^T X = I there gives X = inv(A)^T, which
  // reads back row-major as inv(A).
  const ndarray info = new_info(count, a.device(), 2);
  const copper::linalg::LU lu = copper::linalg::lu_factor(a, t, info);
  ndarray x = copy(broadcast_to(eye(n, std::nullopt, 0, t, a.device()), {count, n, n}), Order::C);
  solver_for(a.device()).getrs(false, column_major(lu.factors), static_cast<const std::int64_t*>(lu.ipiv.data()),
                               column_major(x), static_cast<int*>(info.data()) + count);
  const std::vector<int> status = read_info(info);
  const std::vector<int> getrf_status(status.begin(), status.begin() + count);
  if (raise_if_singular) {
    raise_if_failed(getrf_status, "Singular matrix");
  } else if (std::any_of(getrf_status.begin(), getrf_status.end(), [](int v) { return v > 0; })) {
    std::vector<std::uint8_t> singular(getrf_status.size());
    for (std::size_t i = 0; i < singular.size(); ++i) singular[i] = getrf_status[i] > 0;
    const ndarray mask = reshape(array(singular.data(), {count}, bool_, a.device()), {count, 1, 1});
    x = where(mask, std::numeric_limits<double>::quiet_NaN(), x);
  }
  return reshape(astype(x, result), a.shape());
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
  const Device device = api::common_device({&a, &b}, a.device());
  const Shape out_shape = vector ? with_core(batch, {n}) : with_core(batch, {n, k});
  const std::int64_t count = shape_size(batch);
  if (count == 0 || n == 0) return empty(out_shape, result, device);
  const DType t = compute_type(result, device);
  if (k == 0) {  // nothing to solve, but NumPy still factors A and reports a singular one
    const ndarray info = new_info(count, device);
    lu_factor(broadcast_to(a, with_core(batch, {n, n})), t, info, true);
    raise_if_failed(info, "Singular matrix");
    return empty(out_shape, result, device);
  }
  // getrf factors a column-major copy of A and getrs solves A X = B untransposed (on a
  // GPU the transposing copy costs what a plain one does; getrs with transposition of the
  // C-order copy costs more). B must be column-major n x k: a vector already is, a matrix
  // is copied transposed. getrf's info travels to the host while getrs runs (getrs's own
  // info reports only invalid arguments, which cannot happen here).
  const ndarray info = new_info(count, device, 2);
  backend::DenseSolver& solver = solver_for(device);
  const LU lu = lu_factor(broadcast_to(a, with_core(batch, {n, n})), t, info, true);
  const std::unique_ptr<backend::PendingInfo> factored = solver.read_info_async(static_cast<const int*>(info.data()), count);
  const ndarray x = vector ? packed_copy(expand_dims(broadcast_to(b, with_core(batch, {n})), {-2}), t)
                           : packed_copy(broadcast_to(b, out_shape), t, true);
  solver.getrs(false, column_major(lu.factors), static_cast<const std::int64_t*>(lu.ipiv.data()), column_major(x),
               static_cast<int*>(info.data()) + count);
  raise_if_failed(factored->wait(), "Singular matrix");
  if (vector) return reshape(astype(x, result), out_shape);
  return astype(swapaxes(reshape(x, with_core(batch, {k, n})), -1, -2), result, Casting::unsafe, true,
                Order::C);  // a C-contiguous copy
}

ndarray cholesky(const ndarray& a, bool upper) {
  check_stacked_square(a);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back(), count = shape_size(batch_of(a));
  if (count == 0 || n == 0) return empty(a.shape(), result, a.device());
  // Row-major A is column-major conj(A): potrf 'U' there gives conj(A) = U^H U, and U
  // read row-major is U^T = L with A = L L^H. 'L' likewise gives NumPy's upper factor.
  const ndarray f = packed_copy(a, compute_type(result, a.device()));
  const ndarray info = new_info(count, a.device());
  solver_for(a.device()).potrf(upper, column_major(f), static_cast<int*>(info.data()));
  raise_if_failed(info, "Matrix is not positive definite");
  const ndarray factor = upper ? triu(f) : tril(f);  // the other triangle still holds A
  return reshape(astype(factor, result, Casting::unsafe, false), a.shape());
}

}  // namespace copper::linalg
