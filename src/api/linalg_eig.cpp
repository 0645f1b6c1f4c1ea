// eig/eigvals through the device's DenseSolver::geev. The solver works on column-major
// copies of each matrix and returns complex eigenvalues; real input's eigenvector pairs
// (LAPACK's real/imaginary column encoding) are unpacked here with elementwise selects.
// The results are complex even when every eigenvalue is real, as in NumPy 2.5 and CuPy (NumPy
// up to 2.4 returned real arrays then, which made the dtype depend on the values and cost a
// read-back of the eigenvalues).
#include "api/linalg_support.h"
#include "backend/dense_solver.h"
#include "copper/creation.hpp"
#include "copper/linalg_extra.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::linalg {
namespace {

using namespace api::linalg_detail;

EigResult eig_impl(const ndarray& a, bool vectors) {
  check_stacked_2d(a);
  check_stacked_square(a);
  const DType result = result_type({&a});
  if (!all(isfinite(a)).item().to_bool()) throw LinAlgError("Array must not contain infs or NaNs");
  const std::int64_t n = a.shape().back();
  const Shape batch = batch_of(a);
  const std::int64_t count = shape_size(batch);
  const Device device = a.device();
  EigResult r;
  if (count == 0 || n == 0) {
    r.eigenvalues = empty(with_core(batch, {n}), complex_dtype(result), device);
    if (vectors) r.eigenvectors = empty(a.shape(), complex_dtype(result), device);
    return r;
  }
  const DType t = compute_type(result, device);
  const ndarray f = packed_copy(a, t, true);  // column-major: a's own matrices
  const ndarray w = empty({count, n}, complex_dtype(t), device);
  const ndarray vr = vectors ? empty({count, n, n}, t, device) : ndarray();
  const ndarray info = new_info(count, device);
  solver_for(device).geev(vectors, column_major(f), w.data(), vectors ? vr.data() : nullptr,
                          static_cast<int*>(info.data()));
  raise_if_failed(info, "Eigenvalues did not converge");
  const DType out_t = complex_dtype(result);
  r.eigenvalues = reshape(astype(w, out_t, Casting::unsafe, false), with_core(batch, {n}));
  if (!vectors) return r;
  // vr[b, j, :] is column j of V. For real input, a pair (j, j+1) with imag(w[j]) > 0
  // holds v_j = col j + i col j+1 and v_{j+1} = conj(v_j).
  ndarray cols = vr;
  if (!is_complex(t)) {
    const ndarray im = expand_dims(imag(w), {-1});
    const ndarray first = greater(im, 0), second = less(im, 0);
    const ndarray zero_col = zeros({count, 1, n}, t, device);
    const ndarray next = concatenate({vr[{Slice(), Slice(1, std::nullopt)}], zero_col}, 1);
    const ndarray prev = concatenate({zero_col, vr[{Slice(), Slice(std::nullopt, n - 1)}]}, 1);
    const ndarray re = where(second, prev, vr);
    const ndarray imag_part = where(first, next, where(second, negative(vr), 0.0));
    cols = add(re.astype(complex_dtype(t)), multiply(imag_part.astype(complex_dtype(t)), std::complex<double>(0, 1)));
  }
  r.eigenvectors = reshape(ascontiguousarray(swapaxes(cols, -1, -2), out_t), a.shape());
  return r;
}

}  // namespace

EigResult eig(const ndarray& a) { return eig_impl(a, true); }
ndarray eigvals(const ndarray& a) { return eig_impl(a, false).eigenvalues; }

}  // namespace copper::linalg
