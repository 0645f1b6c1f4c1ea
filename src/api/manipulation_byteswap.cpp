// byteswap as views and copies the backends already have: a C-ordered copy read as bytes,
// [element part][byte] reversed along the byte axis, read back as the dtype.
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"

namespace copper {

ndarray byteswap(const ndarray& a, bool inplace) {
  const std::int64_t parts = is_complex(a.dtype()) ? 2 : 1;
  const std::int64_t width = a.itemsize() / parts;
  if (width == 1 || a.size() == 0) return inplace ? a : copy(a, Order::K);
  const ndarray flat = reshape(copy(a, Order::C), Shape{a.size()});
  const ndarray bytes = reshape(flat.view(DType::uint8), Shape{a.size() * parts, width});
  const ndarray swapped = ascontiguousarray(flip(bytes, std::vector<int>{1}));
  ndarray result = reshape(reshape(swapped, Shape{a.size() * a.itemsize()}).view(a.dtype()), a.shape());
  if (!inplace) return result;
  copyto(a, result, Casting::no);
  return a;
}

}  // namespace copper
