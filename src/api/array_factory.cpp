#include "api/array_factory.h"

#include <limits>

#include "core/layout.h"

namespace copper::api {

void check_shape(const Shape& shape) {
  std::int64_t total = 1;
  for (auto d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
    if (d && total > std::numeric_limits<std::int64_t>::max() / d)
      throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    total *= d;
  }
}

ndarray allocate(const Shape& shape, DType dtype, Device device) {
  check_shape(shape);
  std::int64_t isz = itemsize(dtype);
  std::int64_t n = shape_size(shape);
  if (n > std::numeric_limits<std::int64_t>::max() / isz)
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  auto buffer = backend::backend_for(device).allocate(static_cast<std::size_t>(n * isz));
  // NumPy 2 gives new arrays without elements all-zero strides.
  return ndarray(std::move(buffer), dtype, shape, n ? c_strides(shape, isz) : Strides(shape.size(), 0), 0);
}

ndarray allocate(const Shape& shape, DType dtype, Device device, const Strides& strides) {
  ndarray a = allocate(shape, dtype, device);
  if (a.size() == 0 || strides == a.strides()) return a;
  return ndarray(a.buffer(), dtype, shape, strides, 0);
}

ndarray allocate_like(const ndarray& source, const Shape& shape, DType dtype, Device device, Order order) {
  return allocate(shape, dtype, device, layout::strides_like(source, shape, itemsize(dtype), order));
}

namespace {
// Byte range [lo, hi) an array's elements span inside its buffer.
std::pair<std::int64_t, std::int64_t> byte_extent(const ndarray& a) {
  std::int64_t lo = a.offset(), hi = a.offset() + a.itemsize();
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape()[d] == 0) return {lo, lo};
    std::int64_t span = (a.shape()[d] - 1) * a.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}
}  // namespace

bool overlaps(const ndarray& a, const ndarray& b) {
  if (a.buffer() != b.buffer()) return false;
  auto [alo, ahi] = byte_extent(a);
  auto [blo, bhi] = byte_extent(b);
  return alo < bhi && blo < ahi;
}

Device common_device(const std::vector<const ndarray*>& arrays, Device fallback) {
  const ndarray* first = nullptr;
  for (const ndarray* a : arrays) {
    if (!a || !a->valid()) continue;
    if (!first) {
      first = a;
    } else if (a->device() != first->device()) {
      throw ValueError("arrays are on different devices (" + first->device().str() + " and " + a->device().str() +
                       "); move one with asarray(x, device=...) first");
    }
  }
  return first ? first->device() : fallback;
}

}  // namespace copper::api
