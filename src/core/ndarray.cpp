// ndarray's own state: layout queries, views, host reads.
#include "copper/ndarray.hpp"

#include <complex>
#include <cstring>
#include <utility>

#include "backend/backend.h"
#include "copper/creation.hpp"
#include "copper/fusion.hpp"
#include "copper/manipulation.hpp"
#include "copper/runtime.hpp"
#include "ops/dtype_traits.h"

namespace copper {

std::int64_t shape_size(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

Strides c_strides(const Shape& shape, std::int64_t itemsize) {
  Strides s(shape.size());
  std::int64_t step = itemsize;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s[i] = step;
    step *= std::max<std::int64_t>(shape[i], 1);
  }
  return s;
}

Strides f_strides(const Shape& shape, std::int64_t itemsize) {
  Strides s(shape.size());
  std::int64_t step = itemsize;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    s[i] = step;
    step *= std::max<std::int64_t>(shape[i], 1);
  }
  return s;
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {
// NumPy's limit on dimensions (NPY_MAXDIMS).
void check_ndim(std::size_t ndim) {
  if (ndim > 64)
    throw ValueError("maximum supported dimension for an ndarray is currently 64, found " + std::to_string(ndim));
}

// Byte range [lo, hi) the elements of (shape, strides, itemsize) span from the first one.
std::pair<std::int64_t, std::int64_t> element_extent(const Shape& shape, const Strides& strides, std::int64_t itemsize) {
  std::int64_t lo = 0, hi = itemsize;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return {0, 0};
    std::int64_t span = (shape[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}
}  // namespace

ndarray::ndarray(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides, std::int64_t offset,
                 std::shared_ptr<const ndarray> base)
    : buffer_(std::move(buffer)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset),
      base_(std::move(base)) {
  check_ndim(shape_.size());
}


ndarray::ndarray(const Shape& shape, DType dtype, const MemoryPointer& memptr, std::optional<Strides> strides,
                 Order order)
    : buffer_(memptr.mem), dtype_(dtype), shape_(shape), offset_(memptr.offset) {
  check_ndim(shape_.size());
  if (!buffer_) throw ValueError("ndarray: memptr holds no memory");
  for (auto d : shape_)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  if (strides && strides->size() != shape_.size()) throw ValueError("strides, if given, must be the same length as shape");
  strides_ = strides ? *strides : order == Order::F ? f_strides(shape_, itemsize()) : c_strides(shape_, itemsize());
  auto [lo, hi] = element_extent(shape_, strides_, itemsize());
  if (lo < hi && (offset_ + lo < 0 || offset_ + hi > static_cast<std::int64_t>(buffer_->nbytes())))
    throw ValueError("ndarray: the array (offset " + std::to_string(offset_) + ", " + std::to_string(hi - lo) +
                     " bytes spanned) does not fit in the " + std::to_string(buffer_->nbytes()) + "-byte memory");
}

std::uintptr_t MemoryPointer::ptr() const {
  if (!mem || mem->nbytes() == 0) return 0;
  detail::mark_shared_outside(mem);
  if (detail::deferred_pending.load(std::memory_order_acquire)) detail::run_deferred_touching(mem.get());
  return reinterpret_cast<std::uintptr_t>(mem->data()) + static_cast<std::uintptr_t>(offset);
}

Device MemoryPointer::device() const { return mem ? mem->device() : cpu; }

ndarray ndarray::view(DType t) const {
  const std::int64_t old_size = itemsize(), new_size = copper::itemsize(t);
  Shape shape = shape_;
  Strides strides = strides_;
  if (new_size != old_size) {
    if (ndim() == 0)
      throw ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    const int axis = ndim() - 1;
    if (shape[axis] != 1 && size() != 0 && strides[axis] != old_size)
      throw ValueError("To change to a dtype of a different size, the last axis must be contiguous");
    if (new_size < old_size) {
      if (old_size % new_size)
        throw ValueError("When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
      shape[axis] *= old_size / new_size;
    } else {
      if ((shape[axis] * old_size) % new_size)
        throw ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
                         "the last axis of the array.");
      shape[axis] = shape[axis] * old_size / new_size;
    }
    strides[axis] = new_size;
  }
  return view_as(t, std::move(shape), std::move(strides), offset_);
}

void ndarray::set_owner(std::shared_ptr<const ndarray> owner) {
  if (owner && owner->buffer() != buffer_) throw ValueError("set_owner: the owner must share this array's memory");
  base_ = std::move(owner);
}

std::int64_t ndarray::size() const { return shape_size(shape_); }

Device ndarray::device() const { return buffer_ ? buffer_->device() : cpu; }

void* ndarray::data() const {
  // Automatic fusion: pending writes (and reads) of this memory happen before it is read.
  if (detail::deferred_pending.load(std::memory_order_acquire)) detail::run_deferred_touching(buffer_.get());
  return static_cast<char*>(buffer_->data()) + offset_;
}

// NumPy's rule: dimensions of length 1 may have any stride; an empty array is contiguous.
bool ndarray::is_c_contiguous() const {
  if (size() == 0) return true;
  std::int64_t expected = itemsize();
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool ndarray::is_f_contiguous() const {
  if (size() == 0) return true;
  std::int64_t expected = itemsize();
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

ndarray ndarray::view_as(DType dtype, Shape shape, Strides strides, std::int64_t offset) const {
  auto owner = base_ ? base_ : std::make_shared<const ndarray>(*this);
  return ndarray(buffer_, dtype, std::move(shape), std::move(strides), offset, std::move(owner));
}

void ndarray::copy_to_host(void* dst) const {
  check_synchronize_allowed("a copy to the host");
  if (size() == 0) return;
  backend::backend_for(device()).copy_to_host(backend::view_of(*this), dst);
}

Scalar ndarray::item() const {
  if (size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
  unsigned char buf[16];
  copy_to_host(buf);
  return Scalar::load(dtype_, buf);
}

Scalar ndarray::item(std::int64_t flat_index) const {
  const std::int64_t n = size();
  if (flat_index < -n || flat_index >= n)
    throw IndexError("index " + std::to_string(flat_index) + " is out of bounds for size " + std::to_string(n));
  std::int64_t rest = flat_index < 0 ? flat_index + n : flat_index;
  Index at(static_cast<std::size_t>(ndim()));
  for (int d = ndim(); d-- > 0;) {
    at[static_cast<std::size_t>(d)] = rest % shape_[static_cast<std::size_t>(d)];
    rest /= shape_[static_cast<std::size_t>(d)];
  }
  return (*this)[at].item();
}

Scalar ndarray::item(const std::vector<std::int64_t>& index) const {
  if (index.size() == 1) return item(index[0]);
  if (index.size() != static_cast<std::size_t>(ndim())) throw ValueError("incorrect number of indices for array");
  if (index.empty()) return item();
  Index at(index.begin(), index.end());
  return (*this)[at].item();
}

template <> DType dtype_of<bool>() { return bool_; }
template <> DType dtype_of<std::int8_t>() { return int8; }
template <> DType dtype_of<std::uint8_t>() { return uint8; }
template <> DType dtype_of<std::int16_t>() { return int16; }
template <> DType dtype_of<std::uint16_t>() { return uint16; }
template <> DType dtype_of<std::int32_t>() { return int32; }
template <> DType dtype_of<std::uint32_t>() { return uint32; }
template <> DType dtype_of<std::int64_t>() { return int64; }
template <> DType dtype_of<std::uint64_t>() { return uint64; }
template <> DType dtype_of<float>() { return float32; }
template <> DType dtype_of<double>() { return float64; }
template <> DType dtype_of<std::complex<float>>() { return complex64; }
template <> DType dtype_of<std::complex<double>>() { return complex128; }

template <class T>
std::vector<T> ndarray::to_vector() const {
  ndarray converted = dtype_ == dtype_of<T>() ? *this : astype(dtype_of<T>());
  std::vector<T> out(static_cast<std::size_t>(size()));
  converted.copy_to_host(out.data());
  return out;
}

#define COPPER_TO_VECTOR(T) template std::vector<T> ndarray::to_vector<T>() const;
COPPER_TO_VECTOR(std::int8_t)
COPPER_TO_VECTOR(std::uint8_t)
COPPER_TO_VECTOR(std::int16_t)
COPPER_TO_VECTOR(std::uint16_t)
COPPER_TO_VECTOR(std::int32_t)
COPPER_TO_VECTOR(std::uint32_t)
COPPER_TO_VECTOR(std::int64_t)
COPPER_TO_VECTOR(std::uint64_t)
COPPER_TO_VECTOR(float)
COPPER_TO_VECTOR(double)
COPPER_TO_VECTOR(std::complex<float>)
COPPER_TO_VECTOR(std::complex<double>)
#undef COPPER_TO_VECTOR

// bool vectors pack bits, so booleans come back as bytes.
template <>
std::vector<bool> ndarray::to_vector<bool>() const {
  auto bytes = astype(bool_).to_vector<std::uint8_t>();
  return std::vector<bool>(bytes.begin(), bytes.end());
}


}  // namespace copper
