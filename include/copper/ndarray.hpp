// The n-dimensional array: a typed, strided view of a device buffer.
// Copies of an ndarray share the buffer (like Python references to one array);
// views made by slicing, reshaping or transposing share it too.
#pragma once
#include <atomic>
#include <complex>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "copper/device.hpp"
#include "copper/dtype.hpp"
#include "copper/errors.hpp"
#include "copper/scalar.hpp"

namespace copper {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;  // in bytes, as NumPy's

// Memory layout of a new array, as NumPy's `order=`: C (row-major), F (column-major),
// A (F when the source is Fortran-ordered, else C), K (keep the source's axis order).
enum class Order : std::uint8_t { C, F, A, K };
// "C", "F", "A", "K" (either case); ValueError "order must be one of 'C', 'F', 'A', or 'K' (got 'X')".
Order order_from_name(std::string_view name);
std::string_view name(Order order);

class Buffer;
namespace detail {
// Automatic fusion gives a deferred op's result a Buffer without memory (src/api/
// fusion_deferred.cpp): memory comes when the chain that computes it runs, and only if
// someone still holds it then. settle_buffer runs that chain (or, when none will, gives
// the buffer memory at once); bind_memory makes `memory` the buffer's own.
void settle_buffer(const Buffer& b);
void bind_memory(Buffer& b, std::shared_ptr<Buffer> memory);
}  // namespace detail

// A block of device memory. The allocating backend supplies the deleter (RAII).
class Buffer {
 public:
  Buffer(void* ptr, std::size_t nbytes, Device device, std::function<void(void*)> deleter)
      : ptr_(ptr), nbytes_(nbytes), device_(device), deleter_(std::move(deleter)) {}
  // A buffer whose memory comes later (detail::bind_memory); until then `placeholder`, an
  // address no memory can have, names it, and data() first settles it.
  struct Deferred {};
  Buffer(Deferred, void* placeholder, std::size_t nbytes, Device device)
      : ptr_(placeholder), nbytes_(nbytes), device_(device), deferred_(true) {}
  ~Buffer() {
    if (deleter_) deleter_(ptr_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const {
    if (deferred_.load(std::memory_order_acquire)) [[unlikely]]
      detail::settle_buffer(*this);
    return ptr_;
  }
  // The address as it is now, without settling: a deferred buffer's placeholder. For
  // automatic fusion's bookkeeping, which names buffers by address; never dereference it.
  void* address() const { return ptr_; }
  bool deferred() const { return deferred_.load(std::memory_order_acquire); }
  std::size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }

 private:
  friend void detail::bind_memory(Buffer& b, std::shared_ptr<Buffer> memory);
  void* ptr_;
  std::size_t nbytes_;
  Device device_;
  std::function<void(void*)> deleter_;
  std::atomic<bool> deferred_{false};
};

// Where an array's memory starts, as CuPy's MemoryPointer: a buffer and a byte offset into
// it. Holding one keeps the buffer alive; `ndarray(shape, dtype, memptr, strides)` views it.
struct MemoryPointer {
  std::shared_ptr<Buffer> mem;
  std::int64_t offset = 0;  // bytes from the buffer's start

  // The address (device memory for GPU buffers, host memory on the CPU); 0 for an
  // empty buffer, as CuPy's arrays of size 0.
  std::uintptr_t ptr() const;
  Device device() const;
  MemoryPointer operator+(std::int64_t bytes) const { return {mem, offset + bytes}; }
  MemoryPointer operator-(std::int64_t bytes) const { return {mem, offset - bytes}; }
};

// Index items: integer, slice, newaxis, ellipsis (basic indexing: a view), and
// integer or boolean arrays and a lone bool (advanced indexing: a copy), as NumPy's.
struct Slice {
  std::optional<std::int64_t> start, stop, step;
  Slice() = default;
  Slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_,
        std::optional<std::int64_t> step_ = std::nullopt)
      : start(start_), stop(stop_), step(step_) {}
};
struct NewAxis {};
struct Ellipsis {};
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};
class ndarray;
// An ndarray item is an integer or boolean index array (a 0-d integer array counts as
// an integer); a bool is a 0-d boolean index (x[true] adds an axis of length 1).
using IndexItem = std::variant<std::int64_t, Slice, NewAxis, Ellipsis, bool, ndarray>;
using Index = std::vector<IndexItem>;

class operand;

class ndarray {
 public:
  ndarray() = default;  // a null handle; valid() is false
  ndarray(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides,
          std::int64_t offset, std::shared_ptr<const ndarray> base = nullptr);
  // CuPy's ndarray(shape, dtype, memptr, strides, order): an array over existing memory.
  // Without strides the layout is F for Order::F, else C (as numpy.ndarray); ValueError if
  // the elements would reach outside the buffer.
  ndarray(const Shape& shape, DType dtype, const MemoryPointer& memptr, std::optional<Strides> strides = std::nullopt,
          Order order = Order::C);

  bool valid() const { return buffer_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  std::int64_t offset() const { return offset_; }  // bytes from the buffer's start
  int ndim() const { return static_cast<int>(shape_.size()); }
  std::int64_t size() const;
  std::int64_t itemsize() const { return copper::itemsize(dtype_); }
  std::int64_t nbytes() const { return size() * itemsize(); }
  Device device() const;
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  void* data() const;  // first element; a device pointer for GPU arrays
  MemoryPointer memptr() const { return {buffer_, offset_}; }  // CuPy's ndarray.data
  // The array that owns the memory, for views; nullptr for an array that owns its data.
  const std::shared_ptr<const ndarray>& base() const { return base_; }
  // A new view sharing this array's memory with other metadata (base set to the owner).
  ndarray view_as(DType dtype, Shape shape, Strides strides, std::int64_t offset) const;
  // NumPy's a.view(dtype): the same bytes read as `dtype`. Another item size rescales the
  // last axis, which must then be contiguous (ValueError otherwise, and for 0-d arrays).
  ndarray view(DType dtype) const;
  // Names another object as this view's owner (same buffer): for language bindings, whose
  // owner objects wrap a copy of the owning array (Python's `view.base is a`).
  void set_owner(std::shared_ptr<const ndarray> owner);

  // Host access (synchronizes with the device).
  Scalar item() const;                          // size-1 arrays only (ValueError otherwise)
  // NumPy's item(i) and item(i, j, ...): the element at flat C-order index i (negative
  // from the end), or at one index per axis; IndexError out of bounds, ValueError for a
  // count of indices that is neither 1 nor ndim.
  Scalar item(std::int64_t flat_index) const;
  Scalar item(const std::vector<std::int64_t>& index) const;
  void copy_to_host(void* dst) const;           // C-order, dst holds nbytes()
  template <class T>
  std::vector<T> to_vector() const;             // converts to T when T differs from dtype

  // Methods mirroring NumPy's; each forwards to the free function of the same name.
  // NumPy's defaults: astype keeps the layout (K), copy/ravel/flatten/reshape use C order.
  ndarray astype(DType t, Order order, Casting casting = Casting::unsafe, bool copy = true) const;
  ndarray astype(DType t, Casting casting = Casting::unsafe, bool copy = true) const;
  ndarray copy(Order order = Order::C) const;
  ndarray reshape(const Shape& shape, Order order = Order::C) const;
  ndarray ravel(Order order = Order::C) const;
  ndarray flatten(Order order = Order::C) const;
  ndarray transpose() const;
  ndarray transpose(const std::vector<int>& axes) const;
  ndarray T() const { return transpose(); }
  ndarray squeeze() const;
  ndarray real() const;
  ndarray imag() const;
  ndarray conj() const;

  // Basic indexing returns a view: x[{1, Slice(0, 3), newaxis, ellipsis}]; an index with
  // integer or boolean arrays (x[{idx}], x[{mask}], x[{idx, Slice(), 0}]) returns a copy.
  ndarray operator[](const Index& index) const;
  ndarray operator[](std::int64_t i) const;
  ndarray operator[](const ndarray& index) const;
  // Writes value (broadcast, cast 'unsafe' as NumPy's setitem) into this array or, through
  // any index (advanced ones included; the last of repeated targets wins), into part of it.
  void assign(const operand& value);
  void assign(const Index& index, const operand& value);

  ndarray& operator+=(const operand& other);
  ndarray& operator-=(const operand& other);
  ndarray& operator*=(const operand& other);
  ndarray& operator/=(const operand& other);
  ndarray& operator%=(const operand& other);
  ndarray& operator&=(const operand& other);
  ndarray& operator|=(const operand& other);
  ndarray& operator^=(const operand& other);
  ndarray& operator<<=(const operand& other);
  ndarray& operator>>=(const operand& other);

 private:
  std::shared_ptr<Buffer> buffer_;
  DType dtype_ = DType::float64;
  Shape shape_;
  Strides strides_;
  std::int64_t offset_ = 0;
  std::shared_ptr<const ndarray> base_;
};

// Either an array or a scalar: the argument type of every ufunc, so that
// `x * 5`, `add(x, y)` and `where(c, x, 0.5)` all work. C++ scalars are weak.
// An operand made from a named array refers to it (no copy on the per-call path), so
// it must not outlive that array; one made from a temporary array holds it.
class operand {
 public:
  operand(const ndarray& a) : value_(&a) {}
  operand(ndarray&& a) : value_(std::move(a)) {}
  operand(const Scalar& s) : value_(s) {}
  template <class T>
    requires(std::is_arithmetic_v<T>)
  operand(T v) : value_(Scalar(v)) {}
  template <class T>
  operand(std::complex<T> v) : value_(Scalar(std::complex<double>(v))) {}

  bool is_array() const { return value_.index() != 2; }
  const ndarray& array() const { return value_.index() == 0 ? *std::get<0>(value_) : std::get<1>(value_); }
  const Scalar& scalar() const { return std::get<2>(value_); }

 private:
  std::variant<const ndarray*, ndarray, Scalar> value_;
};

// C-order strides (bytes) for a shape and item size.
Strides c_strides(const Shape& shape, std::int64_t itemsize);
Strides f_strides(const Shape& shape, std::int64_t itemsize);
std::int64_t shape_size(const Shape& shape);
std::string shape_str(const Shape& shape);  // "(2,3)" as NumPy prints in messages

}  // namespace copper
