#include "api/array_factory.h"

#include <limits>

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
  return ndarray(std::move(buffer), dtype, shape, c_strides(shape, isz), 0);
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
