#include "api/linalg_support.h"

namespace copper::api::linalg_detail {

DType result_type(std::initializer_list<const ndarray*> arrays) {
  bool is_double = false, complex = false;
  for (const ndarray* a : arrays) {
    const DType t = a->dtype();
    if (t == float16) throw TypeError("array type float16 is unsupported in linalg");
    if (is_complex(t)) complex = true;
    if (!is_inexact(t) || t == float64 || t == complex128) is_double = true;
  }
  if (complex) return is_double ? complex128 : complex64;
  return is_double ? float64 : float32;
}

void check_stacked_2d(const ndarray& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
}

void check_stacked_square(const ndarray& a) {
  check_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

}  // namespace copper::api::linalg_detail
