// empty/zeros/ones/full and their _like forms, host transfers, copies and casts.
// Ranges (arange, linspace, logspace, eye) live in creation_ranges.cpp.
#include "copper/creation.hpp"

#include <complex>

#include "api/array_factory.h"
#include "api/cuda_peer_copy.h"
#include "copper/manipulation.hpp"

namespace copper {

ndarray empty(const Shape& shape, DType dtype, Device device) { return api::allocate(shape, dtype, device); }

ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype, Device device) {
  ndarray a = api::allocate(shape, dtype.value_or(fill_value.dtype()), device);
  if (a.size()) api::backend_of(a).fill(backend::view_of(a), fill_value);
  return a;
}
ndarray zeros(const Shape& shape, DType dtype, Device device) { return full(shape, Scalar(0), dtype, device); }
ndarray ones(const Shape& shape, DType dtype, Device device) { return full(shape, Scalar(1), dtype, device); }

ndarray empty_like(const ndarray& a, std::optional<DType> dtype) {
  return empty(a.shape(), dtype.value_or(a.dtype()), a.device());
}
ndarray zeros_like(const ndarray& a, std::optional<DType> dtype) {
  return zeros(a.shape(), dtype.value_or(a.dtype()), a.device());
}
ndarray ones_like(const ndarray& a, std::optional<DType> dtype) {
  return ones(a.shape(), dtype.value_or(a.dtype()), a.device());
}
ndarray full_like(const ndarray& a, const Scalar& fill_value, std::optional<DType> dtype) {
  return full(a.shape(), fill_value, dtype.value_or(a.dtype()), a.device());
}

ndarray array(const void* ptr, const Shape& shape, DType dtype, Device device) {
  ndarray a = api::allocate(shape, dtype, device);
  if (a.size()) api::backend_of(a).copy_from_host(ptr, backend::view_of(a));
  return a;
}

template <class T>
ndarray array(const std::vector<T>& values, std::optional<Shape> shape, Device device) {
  Shape s = shape.value_or(Shape{static_cast<std::int64_t>(values.size())});
  if (shape_size(s) != static_cast<std::int64_t>(values.size()))
    throw ValueError("cannot reshape array of size " + std::to_string(values.size()) + " into shape " + shape_str(s));
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> bytes(values.begin(), values.end());  // vector<bool> packs bits
    return array(bytes.data(), s, bool_, device);
  } else {
    return array(values.data(), s, dtype_of<T>(), device);
  }
}
#define COPPER_ARRAY_FROM_VECTOR(T) template ndarray array<T>(const std::vector<T>&, std::optional<Shape>, Device);
COPPER_ARRAY_FROM_VECTOR(bool)
COPPER_ARRAY_FROM_VECTOR(std::int8_t)
COPPER_ARRAY_FROM_VECTOR(std::uint8_t)
COPPER_ARRAY_FROM_VECTOR(std::int16_t)
COPPER_ARRAY_FROM_VECTOR(std::uint16_t)
COPPER_ARRAY_FROM_VECTOR(std::int32_t)
COPPER_ARRAY_FROM_VECTOR(std::uint32_t)
COPPER_ARRAY_FROM_VECTOR(std::int64_t)
COPPER_ARRAY_FROM_VECTOR(std::uint64_t)
COPPER_ARRAY_FROM_VECTOR(float)
COPPER_ARRAY_FROM_VECTOR(double)
COPPER_ARRAY_FROM_VECTOR(std::complex<float>)
COPPER_ARRAY_FROM_VECTOR(std::complex<double>)
#undef COPPER_ARRAY_FROM_VECTOR

ndarray astype(const ndarray& a, DType dtype, Casting casting, bool copy) {
  if (!can_cast(a.dtype(), dtype, casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) + "') to dtype('" +
                    std::string(name(dtype)) + "') according to the rule '" + std::string(name(casting)) + "'");
  }
  if (!copy && dtype == a.dtype()) return a;
  ndarray out = api::allocate(a.shape(), dtype, a.device());
  if (a.size()) api::backend_of(a).copy(backend::view_of(a), backend::view_of(out));
  return out;
}

ndarray copy(const ndarray& a) { return astype(a, a.dtype(), Casting::unsafe, true); }

ndarray asarray(const ndarray& a, std::optional<DType> dtype, Device device) {
  DType t = dtype.value_or(a.dtype());
  if (a.device() == device) return astype(a, t, Casting::unsafe, false);
  // Between two GPUs: one device-to-device copy (api/cuda_peer_copy.h).
  if (auto moved = api::copy_between_gpus(a, device)) return astype(*moved, t, Casting::unsafe, false);
  // Across devices: through host memory in C order, then cast on the target.
  ndarray contiguous = ascontiguousarray(a);
  std::vector<unsigned char> host(static_cast<std::size_t>(contiguous.nbytes()));
  contiguous.copy_to_host(host.data());
  return astype(array(host.data(), a.shape(), a.dtype(), device), t, Casting::unsafe, false);
}

ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype) {
  DType t = dtype.value_or(a.dtype());
  if (a.is_c_contiguous() && t == a.dtype()) return a;
  return astype(a, t, Casting::unsafe, true);
}

ndarray ndarray::astype(DType t, Casting casting, bool copy) const { return copper::astype(*this, t, casting, copy); }
ndarray ndarray::copy() const { return copper::copy(*this); }

}  // namespace copper
