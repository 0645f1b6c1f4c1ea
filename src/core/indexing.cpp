// Basic indexing: integers, slices, newaxis and ellipsis give a view of the same
// buffer; assignment writes through such a view with NumPy's setitem casting. Indices
// with array items go to advanced indexing (src/api/indexing_advanced.cpp).
#include <cmath>

#include "api/indexing_advanced.h"
#include "copper/manipulation.hpp"
#include "copper/ndarray.hpp"

namespace copper {

namespace {

// Python's slice.indices(): clamps start/stop into range for the step's direction.
struct SliceBounds {
  std::int64_t start, step, length;
};

SliceBounds normalize_slice(const Slice& s, std::int64_t size) {
  std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  const bool forward = step > 0;
  auto clamp = [&](std::optional<std::int64_t> v, std::int64_t fallback) {
    if (!v) return fallback;
    std::int64_t i = *v;
    if (i < 0) {
      i += size;
      if (i < 0) i = forward ? 0 : -1;
    } else if (i >= size) {
      i = forward ? size : size - 1;
    }
    return i;
  };
  std::int64_t start = clamp(s.start, forward ? 0 : size - 1);
  std::int64_t stop = clamp(s.stop, forward ? size : -1);
  std::int64_t length = 0;
  if (forward && start < stop) length = (stop - start - 1) / step + 1;
  if (!forward && start > stop) length = (start - stop - 1) / (-step) + 1;
  return {start, step, length};
}

bool consumes_axis(const IndexItem& item) {
  return std::holds_alternative<std::int64_t>(item) || std::holds_alternative<Slice>(item);
}

}  // namespace

ndarray ndarray::operator[](const Index& index) const {
  if (api::is_advanced(index)) return api::advanced_get(*this, index);
  int consumed = 0, ellipses = 0;
  for (const auto& item : index) {
    consumed += consumes_axis(item);
    ellipses += std::holds_alternative<Ellipsis>(item);
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > ndim()) {
    throw IndexError("too many indices for array: array is " + std::to_string(ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  }
  Shape shape;
  Strides strides;
  std::int64_t offset = offset_;
  int axis = 0;
  for (const auto& item : index) {
    if (const auto* i = std::get_if<std::int64_t>(&item)) {
      std::int64_t n = shape_[axis], k = *i;
      if (k < -n || k >= n) {
        throw IndexError("index " + std::to_string(k) + " is out of bounds for axis " + std::to_string(axis) +
                         " with size " + std::to_string(n));
      }
      if (k < 0) k += n;
      offset += k * strides_[axis];
      ++axis;
    } else if (const auto* s = std::get_if<Slice>(&item)) {
      SliceBounds b = normalize_slice(*s, shape_[axis]);
      // An empty result keeps the base offset: start may point one past the end.
      if (b.length > 0) offset += b.start * strides_[axis];
      shape.push_back(b.length);
      strides.push_back(strides_[axis] * b.step);
      ++axis;
    } else if (std::holds_alternative<NewAxis>(item)) {
      shape.push_back(1);
      strides.push_back(0);
    } else {  // ellipsis: every axis the other items leave unnamed
      for (int k = 0; k < ndim() - consumed; ++k, ++axis) {
        shape.push_back(shape_[axis]);
        strides.push_back(strides_[axis]);
      }
    }
  }
  for (; axis < ndim(); ++axis) {  // trailing axes are taken whole
    shape.push_back(shape_[axis]);
    strides.push_back(strides_[axis]);
  }
  return view_as(dtype_, std::move(shape), std::move(strides), offset);
}

ndarray ndarray::operator[](std::int64_t i) const { return (*this)[Index{i}]; }
ndarray ndarray::operator[](const ndarray& index) const { return (*this)[Index{index}]; }

namespace api {

// NumPy's setitem converts a scalar for an integer array with int() first, so values
// that cannot be represented raise instead of wrapping around.
void check_scalar_assignable(const Scalar& v, DType dst) {
  if (v.kind() == Kind::complex_ && (is_integer(dst) || is_floating(dst))) {
    throw TypeError(is_integer(dst)
                        ? "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                        : "float() argument must be a string or a real number, not 'complex'");
  }
  if (!is_integer(dst)) return;
  // NumPy's own quirk: typed (NumPy) scalars wrap into unsigned arrays unchecked.
  if (!v.weak() && kind(dst) == Kind::uint_) return;
  Scalar integral = v;
  if (v.kind() == Kind::float_) {
    double d = v.to_double();
    if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
    if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
    double t = std::trunc(d);
    if (t < -9223372036854775808.0 || t >= 9223372036854775808.0)
      throw OverflowError("Python int too large to convert to C long");
    integral = Scalar(static_cast<std::int64_t>(t));
  }
  if (integral.kind() == Kind::bool_) return;
  if (!Scalar(integral.kind() == Kind::uint_ ? Scalar(integral.to_uint64()) : Scalar(integral.to_int64())).fits_in(dst)) {
    std::string value = integral.kind() == Kind::uint_ ? std::to_string(integral.to_uint64())
                                                       : std::to_string(integral.to_int64());
    throw OverflowError("Python integer " + value + " out of bounds for " + std::string(name(dst)));
  }
}

}  // namespace api

void ndarray::assign(const operand& value) {
  if (!value.is_array()) api::check_scalar_assignable(value.scalar(), dtype_);
  copyto(*this, value, Casting::unsafe);
}

void ndarray::assign(const Index& index, const operand& value) {
  if (api::is_advanced(index)) return api::advanced_set(*this, index, value);
  (*this)[index].assign(value);
}

}  // namespace copper
