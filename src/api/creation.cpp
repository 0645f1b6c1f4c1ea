// empty/zeros/ones/full and their _like forms, host transfers, copies and casts, with
// NumPy's order= layouts (core/layout.h). Ranges (arange, linspace, logspace, eye) live in
// creation_ranges.cpp.
#include "copper/creation.hpp"

#include <algorithm>
#include <cctype>
#include <complex>

#include "api/array_factory.h"
#include "api/cuda_peer_copy.h"
#include "api/fusion_deferred.h"
#include "copper/manipulation.hpp"
#include "core/layout.h"

namespace copper {

namespace {

void check_c_or_f(Order order) {
  if (order != Order::C && order != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
}

ndarray filled(ndarray a, const Scalar& value) {
  if (a.size()) api::backend_of(a).fill(backend::view_of(a), value);
  return a;
}

// NumPy's message when copy=False cannot be honoured.
[[noreturn]] void no_copy_possible() {
  throw ValueError(
      "Unable to avoid copy while creating an array as requested.\nIf using `array(obj, copy=False)` replace it "
      "with `asarray(obj)` to allow a copy when needed.");
}

// a's elements on another device, C-contiguous, in a's dtype.
ndarray moved_to(const ndarray& a, Device device) {
  // Between two GPUs: one device-to-device copy (api/cuda_peer_copy.h).
  if (auto moved = api::copy_between_gpus(a, device)) return *moved;
  // Across devices: through host memory in C order.
  ndarray contiguous = ascontiguousarray(a);
  std::vector<unsigned char> host(static_cast<std::size_t>(contiguous.nbytes()));
  contiguous.copy_to_host(host.data());
  return array(host.data(), a.shape(), a.dtype(), device);
}

// A new array holding a's values cast to `dtype`, on `device`, laid out as a copy of a in `order`.
ndarray converted(const ndarray& a, DType dtype, Device device, Order order) {
  const Strides strides = layout::strides_like(a, a.shape(), itemsize(dtype), order);
  ndarray src = a;
  if (device != a.device()) {
    src = moved_to(a, device);
    if (src.dtype() == dtype && src.strides() == strides) return src;
  }
  ndarray out;
  if (device == a.device() && api::defer_cast(a, dtype, strides, out)) return out;  // automatic fusion
  out = api::allocate(a.shape(), dtype, device, strides);
  if (a.size()) api::backend_of(out).copy(backend::view_of(src), backend::view_of(out));
  return out;
}

// NumPy's ndmin: length-1 axes in front, as a view (strides as NumPy's _prepend_ones).
ndarray with_leading_axes(const ndarray& a, int ndmin, Order order) {
  const int extra = ndmin - a.ndim();
  if (extra <= 0) return a;
  const bool fortran_like = order == Order::F || a.ndim() == 0 || layout::is_fortran(a);
  const std::int64_t stride = fortran_like ? a.itemsize() : a.strides()[0] * a.shape()[0];
  Shape shape(extra, 1);
  Strides strides(extra, stride);
  shape.insert(shape.end(), a.shape().begin(), a.shape().end());
  strides.insert(strides.end(), a.strides().begin(), a.strides().end());
  return a.view_as(a.dtype(), shape, strides, a.offset());
}

// Whether a's layout already satisfies `order` for a no-copy conversion (NumPy's STRIDING_OK).
bool layout_fits(const ndarray& a, Order order) {
  switch (order) {
    case Order::C: return a.is_c_contiguous();
    case Order::F: return a.is_f_contiguous();
    default: return true;
  }
}

}  // namespace

ndarray empty(const Shape& shape, DType dtype, Order order, Device device) {
  check_c_or_f(order);
  api::check_shape(shape);
  return api::allocate(shape, dtype, device, layout::compact_strides(shape, itemsize(dtype), order));
}
ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype, Order order, Device device) {
  return filled(empty(shape, dtype.value_or(fill_value.dtype()), order, device), fill_value);
}
ndarray zeros(const Shape& shape, DType dtype, Order order, Device device) {
  return full(shape, Scalar(0), dtype, order, device);
}
ndarray ones(const Shape& shape, DType dtype, Order order, Device device) {
  return full(shape, Scalar(1), dtype, order, device);
}
ndarray empty(const Shape& shape, DType dtype, Device device) { return empty(shape, dtype, Order::C, device); }
ndarray zeros(const Shape& shape, DType dtype, Device device) { return zeros(shape, dtype, Order::C, device); }
ndarray ones(const Shape& shape, DType dtype, Device device) { return ones(shape, dtype, Order::C, device); }
ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype, Device device) {
  return full(shape, fill_value, dtype, Order::C, device);
}

ndarray empty_like(const ndarray& a, std::optional<DType> dtype, Order order, std::optional<Shape> shape,
                   std::optional<Device> device) {
  const Shape s = shape.value_or(a.shape());
  api::check_shape(s);
  return api::allocate_like(a, s, dtype.value_or(a.dtype()), device.value_or(a.device()), order);
}
ndarray zeros_like(const ndarray& a, std::optional<DType> dtype, Order order, std::optional<Shape> shape,
                   std::optional<Device> device) {
  return filled(empty_like(a, dtype, order, shape, device), Scalar(0));
}
ndarray ones_like(const ndarray& a, std::optional<DType> dtype, Order order, std::optional<Shape> shape,
                  std::optional<Device> device) {
  return filled(empty_like(a, dtype, order, shape, device), Scalar(1));
}
ndarray full_like(const ndarray& a, const Scalar& fill_value, std::optional<DType> dtype, Order order,
                  std::optional<Shape> shape, std::optional<Device> device) {
  return filled(empty_like(a, dtype, order, shape, device), fill_value);
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

ndarray array(const ndarray& a, std::optional<DType> dtype, std::optional<bool> copy, Order order, int ndmin,
              std::optional<Device> device) {
  const DType t = dtype.value_or(a.dtype());
  const Device d = device.value_or(a.device());
  ndarray r = a;
  if (copy.value_or(false) || t != a.dtype() || d != a.device() || !layout_fits(a, order)) {
    if (copy == false) no_copy_possible();
    // NumPy lays out a cast copy in C or F when asked, else keeps a's layout (A: F for a
    // Fortran-ordered input, else K); a plain copy follows `order` (A: F or C).
    Order o = order;
    if (t != a.dtype() && order == Order::A) o = layout::is_fortran(a) ? Order::F : Order::K;
    r = converted(a, t, d, o);
  }
  return with_leading_axes(r, ndmin, order);
}

ndarray asarray(const ndarray& a, std::optional<DType> dtype, std::optional<Order> order,
                std::optional<Device> device, std::optional<bool> copy) {
  return array(a, dtype, copy, order.value_or(Order::K), 0, device);
}

ndarray asarray(const ndarray& a, std::optional<DType> dtype, Device device) {
  return array(a, dtype, std::nullopt, Order::K, 0, device);
}

ndarray astype(const ndarray& a, DType dtype, Casting casting, bool copy, Order order) {
  if (!can_cast(a.dtype(), dtype, casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(a.dtype())) + "') to dtype('" +
                    std::string(name(dtype)) + "') according to the rule '" + std::string(name(casting)) + "'");
  }
  // NumPy's astype keeps the array for A only when it is C- or F-contiguous.
  const bool fits = order == Order::A ? a.is_c_contiguous() || a.is_f_contiguous() : layout_fits(a, order);
  if (!copy && dtype == a.dtype() && fits) return a;
  return converted(a, dtype, a.device(), order);
}

ndarray copy(const ndarray& a, Order order) { return converted(a, a.dtype(), a.device(), order); }

ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype) {
  return array(a, dtype, std::nullopt, Order::C, 1);
}

ndarray asfortranarray(const ndarray& a, std::optional<DType> dtype) {
  return array(a, dtype, std::nullopt, Order::F, 1);
}

ndarray require(const ndarray& a, std::optional<DType> dtype, const std::vector<std::string>& requirements) {
  bool c = false, f = false, own = false;
  for (const std::string& req : requirements) {
    std::string r = req;
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char ch) { return std::toupper(ch); });
    if (r == "C" || r == "C_CONTIGUOUS" || r == "CONTIGUOUS") c = true;
    else if (r == "F" || r == "F_CONTIGUOUS" || r == "FORTRAN") f = true;
    else if (r == "O" || r == "OWNDATA") own = true;
    else if (r == "A" || r == "ALIGNED" || r == "W" || r == "WRITEABLE" || r == "E" || r == "ENSUREARRAY") continue;
    else throw KeyError(req);
  }
  if (c && f) throw ValueError("Cannot specify both \"C\" and \"F\" order");
  const Order order = c ? Order::C : f ? Order::F : Order::A;
  ndarray r = array(a, dtype, std::nullopt, order);
  if (own && r.base()) r = copy(r, order);
  return r;
}

ndarray ndarray::astype(DType t, Order order, Casting casting, bool copy) const {
  return copper::astype(*this, t, casting, copy, order);
}
ndarray ndarray::astype(DType t, Casting casting, bool copy) const {
  return copper::astype(*this, t, casting, copy, Order::K);
}
ndarray ndarray::copy(Order order) const { return copper::copy(*this, order); }

}  // namespace copper
