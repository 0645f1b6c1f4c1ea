// Array creation, and transfer between host memory and a device.
#pragma once
#include <initializer_list>
#include <optional>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

ndarray empty(const Shape& shape, DType dtype = float64, Device device = default_device());
ndarray zeros(const Shape& shape, DType dtype = float64, Device device = default_device());
ndarray ones(const Shape& shape, DType dtype = float64, Device device = default_device());
// dtype defaults to the fill value's own (NumPy: full((2,), 3) is int64).
ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype = std::nullopt,
             Device device = default_device());
ndarray empty_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
ndarray zeros_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
ndarray ones_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
ndarray full_like(const ndarray& a, const Scalar& fill_value, std::optional<DType> dtype = std::nullopt);

// arange(stop), arange(start, stop, step): int64 for integer arguments, float64 otherwise.
ndarray arange(const Scalar& stop, std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step = 1,
               std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, bool endpoint = true,
                 std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, bool endpoint = true,
                 double base = 10.0, std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            DType dtype = float64, Device device = default_device());
ndarray identity(std::int64_t n, DType dtype = float64, Device device = default_device());

// From host memory: copies `shape` elements of `dtype` in C order from ptr.
ndarray array(const void* ptr, const Shape& shape, DType dtype, Device device = default_device());
template <class T>
ndarray array(const std::vector<T>& values, std::optional<Shape> shape = std::nullopt,
              Device device = default_device());
template <class T>
ndarray array(std::initializer_list<T> values, Device device = default_device()) {
  return array(std::vector<T>(values), std::nullopt, device);
}
// The same data on `device` (no copy when it already lives there and dtype matches).
ndarray asarray(const ndarray& a, std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray copy(const ndarray& a);
ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype = std::nullopt);

// The C++ type of each dtype, for templated host access.
template <class T>
DType dtype_of();

}  // namespace copper
