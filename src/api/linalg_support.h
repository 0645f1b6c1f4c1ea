// Shared pieces of copper::linalg: NumPy's type rules and shape checks, and the host
// round trip of the LAPACK-backed routines (stacks of matrices in C order on the host,
// column-major copies for LAPACK). GPU arrays take the same host path until cuSOLVER.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/ndarray.hpp"

namespace copper::api::linalg_detail {

// NumPy's _commonType: the result dtype (float32/float64/complex64/complex128); integer
// and bool input gives float64; float16 raises TypeError.
DType result_type(std::initializer_list<const ndarray*> arrays);
// The dtype LAPACK runs in: float64 or complex128 (NumPy computes single precision in double).
inline DType work_type(DType result) { return is_complex(result) ? complex128 : float64; }
void check_stacked_2d(const ndarray& a);      // LinAlgError below 2-d
void check_stacked_square(const ndarray& a);  // LinAlgError unless the last two dims are equal
inline Shape batch_of(const ndarray& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }
inline Shape with_core(Shape batch, std::initializer_list<std::int64_t> core) {
  batch.insert(batch.end(), core);
  return batch;
}

// inv of every matrix of a stack; singular ones raise LinAlgError or, for cond, give NaNs.
ndarray inverse(const ndarray& a, bool raise_if_singular);

// Element types of the work dtypes.
template <class T>
struct Real {
  using type = T;
};
template <class R>
struct Real<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename Real<T>::type;
template <class T>
inline constexpr DType work_dtype_of = std::is_same_v<T, double> ? float64 : complex128;

// `a` cast to T's dtype, in C order on the host.
template <class T>
std::vector<T> to_host(const ndarray& a) {
  const ndarray cast = a.dtype() == work_dtype_of<T> ? a : astype(a, work_dtype_of<T>);
  std::vector<T> data(static_cast<std::size_t>(cast.size()));
  if (!data.empty()) cast.copy_to_host(data.data());
  return data;
}

// Host data (dtype of T) as an array of dtype `result` on `device`.
template <class T>
ndarray to_device(const std::vector<T>& data, const Shape& shape, DType result, Device device) {
  const DType own = work_dtype_of<T>;
  ndarray out = array(data.data(), shape, own, device);
  return own == result ? out : astype(out, result);
}

// Row-major (m, n) <-> column-major (m, n) with leading dimension ld >= m.
template <class T>
void to_fortran(const T* src, std::int64_t m, std::int64_t n, T* dst, std::int64_t ld) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) dst[j * ld + i] = src[i * n + j];
}
template <class T>
void from_fortran(const T* src, std::int64_t m, std::int64_t n, std::int64_t ld, T* dst) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) dst[i * n + j] = src[j * ld + i];
}

// Runs fn.template operator()<T>() with T = double or std::complex<double> for the work dtype.
template <class F>
decltype(auto) dispatch(DType work, F&& fn) {
  if (work == complex128) return fn.template operator()<std::complex<double>>();
  return fn.template operator()<double>();
}

}  // namespace copper::api::linalg_detail
