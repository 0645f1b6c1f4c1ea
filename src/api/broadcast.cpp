// Broadcasting (NumPy's rules), broadcast views, copyto, axis normalization.
#include <algorithm>

#include "api/array_factory.h"
#include "api/ufunc.h"
#include "copper/manipulation.hpp"

namespace copper {

int normalize_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  std::size_t nd = 0;
  for (const auto& s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (const auto& s : shapes) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[nd - s.size() + i];
      std::int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes";
      for (const auto& t : shapes) {
        msg += ' ';
        msg += shape_str(t);
      }
      msg += ' ';  // NumPy's message ends with a space too
      throw ValueError(msg);
    }
  }
  return out;
}

ndarray broadcast_to(const ndarray& a, const Shape& shape) {
  api::check_shape(shape);
  const int nd = static_cast<int>(shape.size());
  if (a.ndim() > nd) {
    throw ValueError("input operand has more dimensions than allowed by the axis remapping");
  }
  Strides strides(nd, 0);
  for (int i = 0; i < a.ndim(); ++i) {
    int j = nd - a.ndim() + i;
    if (a.shape()[i] == shape[j]) {
      strides[j] = a.strides()[i];
    } else if (a.shape()[i] != 1) {
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       shape_str(a.shape()) + "  and requested shape " + shape_str(shape));
    }
  }
  return a.view_as(a.dtype(), shape, strides, a.offset());
}

std::vector<ndarray> broadcast_arrays(const std::vector<ndarray>& arrays) {
  std::vector<Shape> shapes;
  for (const auto& a : arrays) shapes.push_back(a.shape());
  Shape s = broadcast_shapes(shapes);
  std::vector<ndarray> out;
  for (const auto& a : arrays) out.push_back(broadcast_to(a, s));
  return out;
}

namespace {

// src broadcast to dst's shape for assignment: NumPy also drops extra leading
// length-1 axes of the source here, and words the error differently from ufuncs.
ndarray assignable_source(const ndarray& src, const Shape& target) {
  int extra = src.ndim() - static_cast<int>(target.size());
  int drop = 0;
  while (drop < extra && src.shape()[drop] == 1) ++drop;
  bool fits = drop == std::max(extra, 0);
  const int kept = src.ndim() - drop;
  for (int i = 0; fits && i < kept; ++i) {
    std::int64_t s = src.shape()[drop + i], t = target[target.size() - kept + i];
    fits = s == t || s == 1;
  }
  if (!fits) {  // NumPy names the source shape without the leading 1s it dropped
    throw ValueError("could not broadcast input array from shape " +
                     shape_str(Shape(src.shape().begin() + drop, src.shape().end())) + " into shape " +
                     shape_str(target));
  }
  ndarray trimmed = drop == 0 ? src
                              : src.view_as(src.dtype(), Shape(src.shape().begin() + drop, src.shape().end()),
                                            Strides(src.strides().begin() + drop, src.strides().end()), src.offset());
  return broadcast_to(trimmed, target);
}

}  // namespace

namespace {

// NEP 50: a weak (Python) scalar may go into any dtype of its kind or a higher one (ints
// into unsigned ones too), checked for overflow; casting rules apply to strong ones.
void check_scalar_copy(const ndarray& dst, const Scalar& v, Casting casting) {
  auto level = [](Kind k) { return k == Kind::uint_ ? static_cast<int>(Kind::int_) : static_cast<int>(k); };
  DType from = v.weak() && level(v.kind()) <= level(kind(dst.dtype())) ? dst.dtype() : v.dtype();
  if (!can_cast(from, dst.dtype(), casting)) {
    throw TypeError("Cannot cast scalar from dtype('" + std::string(name(from)) + "') to dtype('" +
                    std::string(name(dst.dtype())) + "') according to the rule '" + std::string(name(casting)) + "'");
  }
  if (v.weak() && is_integer(dst.dtype()) && v.kind() != Kind::bool_ && !v.fits_in(dst.dtype()) &&
      casting != Casting::unsafe) {
    throw OverflowError("Python integer " + std::to_string(v.to_int64()) + " out of bounds for " +
                        std::string(name(dst.dtype())));
  }
}

void check_array_copy(const ndarray& dst, const ndarray& s, Casting casting) {
  if (!can_cast(s.dtype(), dst.dtype(), casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(s.dtype())) + "') to dtype('" +
                    std::string(name(dst.dtype())) + "') according to the rule '" + std::string(name(casting)) + "'");
  }
  api::common_device({&dst, &s}, dst.device());
}

}  // namespace

void copyto(const ndarray& dst, const operand& src, Casting casting) {
  if (!src.is_array()) {
    const Scalar& v = src.scalar();
    check_scalar_copy(dst, v, casting);
    if (dst.size()) api::backend_of(dst).fill(backend::view_of(dst), v);
    return;
  }
  const ndarray& s = src.array();
  check_array_copy(dst, s, casting);
  ndarray b = assignable_source(s, dst.shape());
  if (dst.size() == 0) return;
  // Overlapping source and destination (x[1:] = x[:-1]): copy the source out first.
  // Reading exactly the elements being written is safe and needs no copy.
  const bool same_view = b.offset() == dst.offset() && b.strides() == dst.strides();
  if (!same_view && api::overlaps(b, dst)) b = b.copy();
  api::backend_of(dst).copy(backend::view_of(b), backend::view_of(dst));
}

void copyto(const ndarray& dst, const operand& src, Casting casting, const operand& where) {
  if (!where.is_array()) {
    // A scalar mask is taken by its truth value, as NumPy does.
    if (where.scalar().to_bool()) return copyto(dst, src, casting);
    if (src.is_array()) check_array_copy(dst, src.array(), casting);
    else check_scalar_copy(dst, src.scalar(), casting);
    return;
  }
  const ndarray& mask = where.array();
  if (mask.dtype() != bool_)
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(mask.dtype())) +
                    "') to dtype('bool') according to the rule 'safe'");
  api::common_device({&dst, &mask}, dst.device());
  api::KernelInput m, s;
  if (src.is_array()) {
    check_array_copy(dst, src.array(), casting);
    s = api::array_input(assignable_source(src.array(), dst.shape()), dst.shape(), dst.dtype(), &dst);
  } else {
    check_scalar_copy(dst, src.scalar(), casting);
    api::scalar_input(s, src.scalar(), dst.shape(), dst.dtype(), dst.device());
  }
  m = api::array_input(assignable_source(mask, dst.shape()), dst.shape(), bool_, &dst);
  if (dst.size() == 0) return;
  // dst keeps its value where the mask is false: where(mask, src, dst) written in place.
  const backend::ArrayView out = backend::view_of(dst);
  api::backend_of(dst).where(m.view, s.view, out, out);
}

}  // namespace copper
