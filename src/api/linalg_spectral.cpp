// eigh/eigvalsh (heevd), svd (gesvd) and qr (geqrf + orgqr) through the device's
// DenseSolver. The C-order working copy is the column-major transpose of each matrix;
// each function says how it uses that (or copies transposed where it cannot).
#include <algorithm>

#include "api/linalg_support.h"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;

char checked_uplo(const std::string& uplo) {
  if (uplo != "L" && uplo != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
  return uplo[0];
}

// A C-contiguous array of dtype t (a itself when it already is one).
ndarray contiguous_as(const ndarray& a, DType t) { return ascontiguousarray(a, t); }

// Identity matrices (..., r, c) of dtype t: the factors NumPy gives for empty matrices.
ndarray identities(const Shape& batch, std::int64_t r, std::int64_t c, DType t, Device device) {
  return copy(broadcast_to(eye(r, c, 0, t, device), with_core(batch, {r, c})), Order::C);
}

EighResult eigh_impl(const ndarray& a, const std::string& uplo, bool vectors) {
  check_stacked_square(a);
  const char triangle = checked_uplo(uplo);
  const DType result = result_type({&a});
  const std::int64_t n = a.shape().back();
  const Shape batch = batch_of(a);
  const std::int64_t count = shape_size(batch);
  EighResult r;
  if (count == 0 || n == 0) {
    r.eigenvalues = empty(with_core(batch, {n}), real_dtype(result), a.device());
    if (vectors) r.eigenvectors = empty(a.shape(), result, a.device());
    return r;
  }
  const DType t = compute_type(result, a.device());
  // Row-major A is column-major A^T = conj(A) for the Hermitian matrix: A's `uplo`
  // triangle is the other one there, and its eigenvectors are the conjugates of A's.
  const ndarray f = packed_copy(a, t);
  const ndarray w = empty({count, n}, real_dtype(t), a.device());
  const ndarray info = new_info(count, a.device());
  solver_for(a.device()).heevd(vectors, triangle == 'U', column_major(f), w.data(), static_cast<int*>(info.data()));
  raise_if_failed(info, "Eigenvalues did not converge");
  r.eigenvalues = reshape(astype(w, real_dtype(result), Casting::unsafe, false), with_core(batch, {n}));
  if (vectors) {
    // Column j of V is eigenvector j: V = conj(F^T) read row-major (F: the solver's output).
    ndarray v = swapaxes(f, -1, -2);
    v = is_complex(t) ? conj(v) : v;
    r.eigenvectors = reshape(contiguous_as(v, result), a.shape());
  }
  return r;
}

// job 'A' (full), 'S' (reduced) or 'N' (values only).
SVDResult svd_impl(const ndarray& a, char job) {
  check_stacked_2d(a);
  const DType result = result_type({&a});
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const Shape batch = batch_of(a);
  const std::int64_t count = shape_size(batch);
  const bool uv = job != 'N';
  const std::int64_t ucols = job == 'A' ? m : k, vrows = job == 'A' ? n : k;
  const Device device = a.device();
  SVDResult r;
  if (count == 0 || k == 0) {  // nothing to factor: the full factors are identities, as NumPy gives
    r.S = empty(with_core(batch, {k}), real_dtype(result), device);
    if (uv) {
      r.U = identities(batch, m, ucols, result, device);
      r.Vh = identities(batch, vrows, n, result, device);
    }
    return r;
  }
  const DType t = compute_type(result, device);
  const ndarray info = new_info(count, device);
  const ndarray s = empty({count, k}, real_dtype(t), device);
  // The solver wants rows >= cols. Wide (and square) A: its C-order copy is column-major
  // A^T (n x m) = conj(V) S U^T, whose factors read back row-major are exactly U (from
  // A^T's V^H) and Vh (from A^T's U): no transposes. Tall A: factor a transposed copy
  // (column-major A itself) and transpose the factors back.
  const bool wide = n >= m;
  const ndarray f = packed_copy(a, t, !wide);
  const backend::MatrixStack stack = column_major(f);  // rows x cols = max x min
  const std::int64_t rows = stack.rows, cols = stack.cols;
  const std::int64_t lu_cols = job == 'A' ? rows : cols;  // the solver's U: rows x lu_cols
  ndarray su, svt;
  if (uv) {
    su = empty({count, lu_cols, rows}, t, device);  // C-order (lu_cols, rows) = column-major rows x lu_cols
    svt = empty({count, cols, cols}, t, device);
  }
  solver_for(device).gesvd(job, stack, s.data(), uv ? su.data() : nullptr, uv ? svt.data() : nullptr,
                           static_cast<int*>(info.data()));
  raise_if_failed(info, "SVD did not converge");
  r.S = reshape(astype(s, real_dtype(result), Casting::unsafe, false), with_core(batch, {k}));
  if (!uv) return r;
  if (wide) {
    r.U = reshape(contiguous_as(svt, result), with_core(batch, {m, m}));
    r.Vh = reshape(contiguous_as(su, result), with_core(batch, {vrows, n}));
  } else {
    r.U = reshape(contiguous_as(swapaxes(su, -1, -2), result), with_core(batch, {m, ucols}));
    r.Vh = reshape(contiguous_as(swapaxes(svt, -1, -2), result), with_core(batch, {n, n}));
  }
  return r;
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
  const Device device = a.device();
  QRResult res;
  if (count == 0 || k == 0) {  // no reflectors: R is empty or zero, Q the identity
    if (mode == "raw") {
      res.Q = zeros(with_core(batch, {n, m}), result, device);
      res.R = zeros(with_core(batch, {k}), result, device);
    } else {
      res.R = zeros(with_core(batch, {rrows, n}), result, device);
      if (mode != "r") res.Q = identities(batch, m, qcols, result, device);
    }
    return res;
  }
  const DType t = compute_type(result, device);
  // geqrf needs A itself column-major: the transposed copy, C-order (count, n, m).
  const ndarray f = packed_copy(a, t, true);
  const ndarray tau = empty({count, k}, t, device);
  const ndarray info = new_info(count, device, 2);  // geqrf and orgqr report only bad arguments
  backend::DenseSolver& solver = solver_for(device);
  solver.geqrf(column_major(f), tau.data(), static_cast<int*>(info.data()));
  if (mode == "raw") {  // NumPy's h is the column-major factor read in C order: (n, m)
    res.Q = reshape(astype(f, result, Casting::unsafe, false), with_core(batch, {n, m}));
    res.R = reshape(astype(tau, result, Casting::unsafe, false), with_core(batch, {k}));
    return res;
  }
  const ndarray factored = swapaxes(f, -1, -2);  // (count, m, n): R above the diagonal
  res.R = reshape(triu(factored[{ellipsis, Slice(0, rrows), Slice()}]), with_core(batch, {rrows, n}));
  if (res.R.dtype() != result) res.R = astype(res.R, result);
  if (mode == "r") return res;
  // Q: orgqr expands the reflectors in the first min(n, qcols) columns of an m x qcols
  // column-major block (C-order (count, qcols, m)).
  ndarray q = zeros({count, qcols, m}, t, device);
  const std::int64_t copied = std::min(n, qcols);
  q.assign({Slice(), Slice(0, copied), Slice()}, f[{Slice(), Slice(0, copied), Slice()}]);
  solver.orgqr(column_major(q), k, tau.data(), static_cast<int*>(info.data()) + count);
  res.Q = reshape(contiguous_as(swapaxes(q, -1, -2), result), with_core(batch, {m, qcols}));
  return res;
}

}  // namespace copper::linalg
