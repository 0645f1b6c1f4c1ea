// real() and imag(): views into the interleaved (re, im) pairs of complex arrays.
#include "copper/creation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

ndarray real(const ndarray& x) {
  if (!is_complex(x.dtype())) return x;  // NumPy returns the array itself
  return x.view_as(real_dtype(x.dtype()), x.shape(), x.strides(), x.offset());
}

ndarray imag(const ndarray& x) {
  if (!is_complex(x.dtype())) return zeros(x.shape(), x.dtype(), x.device());
  DType r = real_dtype(x.dtype());
  return x.view_as(r, x.shape(), x.strides(), x.offset() + itemsize(r));
}

}  // namespace copper
