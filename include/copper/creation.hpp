// Array creation, and transfer between host memory and a device. Parameters follow NumPy 2's
// signatures in NumPy's order; the device comes last (it is keyword-only in Python).
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// order: C or F (ValueError "only 'C' or 'F' order is permitted" for A and K, as NumPy).
ndarray empty(const Shape& shape, DType dtype = float64, Order order = Order::C, Device device = default_device());
ndarray zeros(const Shape& shape, DType dtype = float64, Order order = Order::C, Device device = default_device());
ndarray ones(const Shape& shape, DType dtype = float64, Order order = Order::C, Device device = default_device());
// dtype defaults to the fill value's own (NumPy: full((2,), 3) is int64).
ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype = std::nullopt,
             Order order = Order::C, Device device = default_device());
// C order on `device` (the shorter form most C++ callers want).
ndarray empty(const Shape& shape, DType dtype, Device device);
ndarray zeros(const Shape& shape, DType dtype, Device device);
ndarray ones(const Shape& shape, DType dtype, Device device);
ndarray full(const Shape& shape, const Scalar& fill_value, std::optional<DType> dtype, Device device);

// The _like forms: a's shape, dtype and device unless given; order K keeps a's layout
// (NumPy's default), A follows a's Fortran order, C and F as named.
ndarray empty_like(const ndarray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::K,
                   std::optional<Shape> shape = std::nullopt, std::optional<Device> device = std::nullopt);
ndarray zeros_like(const ndarray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::K,
                   std::optional<Shape> shape = std::nullopt, std::optional<Device> device = std::nullopt);
ndarray ones_like(const ndarray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::K,
                  std::optional<Shape> shape = std::nullopt, std::optional<Device> device = std::nullopt);
ndarray full_like(const ndarray& a, const Scalar& fill_value, std::optional<DType> dtype = std::nullopt,
                  Order order = Order::K, std::optional<Shape> shape = std::nullopt,
                  std::optional<Device> device = std::nullopt);

// arange(stop), arange(start, stop, step): int64 for integer arguments, float64 otherwise.
ndarray arange(const Scalar& stop, std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step = 1,
               std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, bool endpoint = true,
                 std::optional<DType> dtype = std::nullopt, Device device = default_device());
ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num = 50, bool endpoint = true,
                 double base = 10.0, std::optional<DType> dtype = std::nullopt, Device device = default_device());
// The array forms (NumPy's start/stop arrays): bounds broadcast together, the samples run
// along `axis` of the result (0: first). All arguments required, so scalar calls pick the
// forms above.
ndarray linspace(const operand& start, const operand& stop, std::int64_t num, bool endpoint,
                 std::optional<DType> dtype, int axis, Device device);
ndarray logspace(const operand& start, const operand& stop, std::int64_t num, bool endpoint, const operand& base,
                 std::optional<DType> dtype, int axis, Device device);
ndarray eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            DType dtype = float64, Order order = Order::C, Device device = default_device());
ndarray eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, Device device);
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

// NumPy's array(a, dtype, copy, order, ndmin) for an array: copy true always copies, nullopt
// copies only when dtype, order or device ask for it, false raises ValueError when they do.
// The copy is laid out as `order` says (K keeps a's axis order); ndmin prepends length-1 axes.
// device: a's own when nullopt.
ndarray array(const ndarray& a, std::optional<DType> dtype = std::nullopt, std::optional<bool> copy = true,
              Order order = Order::K, int ndmin = 0, std::optional<Device> device = std::nullopt);
// NumPy's asarray: array() with copy=nullopt (order nullopt means K).
ndarray asarray(const ndarray& a, std::optional<DType> dtype = std::nullopt, std::optional<Order> order = std::nullopt,
                std::optional<Device> device = std::nullopt, std::optional<bool> copy = std::nullopt);
// The same data on `device` (no copy when it already lives there and dtype matches).
ndarray asarray(const ndarray& a, std::optional<DType> dtype, Device device);
inline ndarray asanyarray(const ndarray& a, std::optional<DType> dtype = std::nullopt,
                          std::optional<Order> order = std::nullopt, std::optional<Device> device = std::nullopt,
                          std::optional<bool> copy = std::nullopt) {
  return asarray(a, dtype, order, device, copy);
}
// NumPy's np.copy (order K by default; ndarray::copy defaults to C as NumPy's method does).
ndarray copy(const ndarray& a, Order order = Order::K);
// C- or Fortran-contiguous (no copy when a already is and dtype matches); at least 1-d, as NumPy.
ndarray ascontiguousarray(const ndarray& a, std::optional<DType> dtype = std::nullopt);
ndarray asfortranarray(const ndarray& a, std::optional<DType> dtype = std::nullopt);
// NumPy's require: requirements are flags "C"/"C_CONTIGUOUS"/"CONTIGUOUS", "F"/"F_CONTIGUOUS"/
// "FORTRAN", "A"/"ALIGNED", "W"/"WRITEABLE", "O"/"OWNDATA", "E"/"ENSUREARRAY" (any case);
// a copy is made when one is not met. ValueError for C with F, or an unknown flag.
ndarray require(const ndarray& a, std::optional<DType> dtype = std::nullopt,
                const std::vector<std::string>& requirements = {});

// The C++ type of each dtype, for templated host access.
template <class T>
DType dtype_of();

}  // namespace copper
