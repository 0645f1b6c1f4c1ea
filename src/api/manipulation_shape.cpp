// Shape-only manipulation: reshape, ravel, transpose, axis moves, squeeze, expand_dims.
// Each returns a view (new shape/strides over the same buffer) whenever NumPy does.
#include <algorithm>
#include <numeric>

#include "api/array_factory.h"
#include "copper/manipulation.hpp"
#include "core/layout.h"

namespace copper {

namespace {

// NumPy's shape text in reshape errors: leading unknown (-1) dims are dropped,
// later ones print as "newaxis", and only a one-item shape gets a trailing comma.
std::string requested_shape_str(const Shape& shape) {
  std::size_t i = 0;
  while (i < shape.size() && shape[i] < 0) ++i;
  if (i == shape.size()) return "()";
  std::string s = "(" + std::to_string(shape[i++]);
  for (; i < shape.size(); ++i) s += shape[i] < 0 ? ",newaxis" : "," + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Resolves one negative (unknown) dimension and checks the element count.
Shape resolve_shape(const Shape& requested, std::int64_t size) {
  Shape shape = requested;
  int unknown = -1;
  std::int64_t known = 1;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (shape[i] < 0) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = i;
    } else {
      known *= shape[i];
    }
  }
  auto mismatch = [&] {
    return ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " +
                      requested_shape_str(requested));
  };
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) throw mismatch();
    shape[unknown] = size / known;
  } else if (known != size) {
    throw mismatch();
  }
  return shape;
}

// NumPy's no-copy reshape: walk old and new axes together, grouping them into runs with
// equal products; each old run must be contiguous in the requested order, and the new
// strides of the run follow from it. Length-1 axes get the strides NumPy gives them.
std::optional<Strides> reshape_strides(const ndarray& a, const Shape& nd, Order order) {
  Shape od;
  Strides os;
  for (int i = 0; i < a.ndim(); ++i) {
    if (a.shape()[i] != 1) {
      od.push_back(a.shape()[i]);
      os.push_back(a.strides()[i]);
    }
  }
  const bool f = order == Order::F;
  const int on = static_cast<int>(od.size()), nn = static_cast<int>(nd.size());
  Strides ns(nn, 0);
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < nn && oi < on) {
    std::int64_t np = nd[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= nd[nj++];
      else op *= od[oj++];
    }
    for (int ok = oi; ok < oj - 1; ++ok) {
      bool joined = f ? os[ok + 1] == od[ok] * os[ok] : os[ok] == od[ok + 1] * os[ok + 1];
      if (!joined) return std::nullopt;
    }
    if (f) {
      ns[ni] = os[oi];
      for (int nk = ni + 1; nk < nj; ++nk) ns[nk] = ns[nk - 1] * nd[nk - 1];
    } else {
      ns[nj - 1] = os[oj - 1];
      for (int nk = nj - 1; nk > ni; --nk) ns[nk - 1] = ns[nk] * nd[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  std::int64_t last = ni >= 1 ? ns[ni - 1] : a.itemsize();
  if (f && ni >= 1) last *= nd[ni - 1];
  for (int nk = ni; nk < nn; ++nk) ns[nk] = last;
  return ns;
}

std::vector<int> normalize_axes(const std::vector<int>& axes, int ndim, const char* repeated_msg) {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int ax : axes) {
    int a = normalize_axis(ax, ndim);
    if (seen[a]) throw ValueError(repeated_msg);
    seen[a] = true;
    out.push_back(a);
  }
  return out;
}

std::vector<int> normalize_axes_arg(const std::vector<int>& axes, int ndim, const std::string& argname) {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int ax : axes) {
    int a;
    try {
      a = normalize_axis(ax, ndim);
    } catch (const AxisError& e) {
      throw AxisError(argname + ": " + e.what());
    }
    if (seen[a]) throw ValueError("repeated axis in `" + argname + "` argument");
    seen[a] = true;
    out.push_back(a);
  }
  return out;
}

ndarray permuted(const ndarray& a, const std::vector<int>& perm) {
  Shape shape;
  Strides strides;
  for (int p : perm) {
    shape.push_back(a.shape()[p]);
    strides.push_back(a.strides()[p]);
  }
  return a.view_as(a.dtype(), shape, strides, a.offset());
}

}  // namespace

ndarray reshape(const ndarray& a, const Shape& requested, Order order) {
  if (order == Order::K) throw ValueError("order 'K' is not permitted for reshaping");
  if (order == Order::A) order = layout::is_fortran(a) ? Order::F : Order::C;
  Shape shape = resolve_shape(requested, a.size());
  // NumPy returns a plain view when the request literally repeats the shape (before -1 is resolved).
  if (requested == a.shape()) return a.view_as(a.dtype(), shape, a.strides(), a.offset());
  const bool contiguous = order == Order::C ? a.is_c_contiguous() : a.is_f_contiguous();
  auto default_strides = [&](const Shape& s) {
    return order == Order::C ? c_strides(s, a.itemsize()) : f_strides(s, a.itemsize());
  };
  if (contiguous || a.size() == 0) return a.view_as(a.dtype(), shape, default_strides(shape), a.offset());
  if (auto strides = reshape_strides(a, shape, order)) return a.view_as(a.dtype(), shape, *strides, a.offset());
  // No view fits: NumPy copies in the requested order and returns a view of the copy.
  ndarray copy = api::allocate(a.shape(), a.dtype(), a.device());
  if (order == Order::F) copy = copy.view_as(a.dtype(), a.shape(), f_strides(a.shape(), a.itemsize()), 0);
  copyto(copy, a, Casting::unsafe);
  return copy.view_as(a.dtype(), shape, default_strides(shape), copy.offset());
}

ndarray ravel(const ndarray& a, Order order) {
  if (order == Order::A) order = layout::is_fortran(a) ? Order::F : Order::C;
  const bool view = order == Order::C ? a.is_c_contiguous() : order == Order::F ? a.is_f_contiguous() : layout::is_dense(a);
  // A dense array read in its memory order (K) is a unit-stride walk from its first element.
  if (view) return a.view_as(a.dtype(), Shape{a.size()}, Strides{a.itemsize()}, a.offset());
  return flatten(a, order);
}

ndarray flatten(const ndarray& a, Order order) {
  ndarray out = api::allocate(Shape{a.size()}, a.dtype(), a.device());
  if (a.size() == 0) return out;
  // Writing through a view of the output laid out in `order` puts the elements in that order
  // (K: the order NumPy's iterator walks a in, its axes by decreasing |stride|).
  const Strides strides = order == Order::K ? layout::keep_order_strides(a, a.itemsize())
                                           : layout::strides_like(a, a.shape(), a.itemsize(), order);
  ndarray target = out.view_as(a.dtype(), a.shape(), strides, 0);
  copyto(target, a, Casting::unsafe);
  return out;
}

ndarray transpose(const ndarray& a, std::optional<std::vector<int>> axes) {
  std::vector<int> perm(a.ndim());
  if (!axes) {
    std::iota(perm.rbegin(), perm.rend(), 0);
  } else {
    if (static_cast<int>(axes->size()) != a.ndim()) throw ValueError("axes don't match array");
    perm = normalize_axes(*axes, a.ndim(), "repeated axis in transpose");
  }
  return permuted(a, perm);
}

ndarray swapaxes(const ndarray& a, int axis1, int axis2) {
  int ax1, ax2;
  try {
    ax1 = normalize_axis(axis1, a.ndim());
  } catch (const AxisError& e) {
    throw AxisError(std::string("axis1: ") + e.what());
  }
  try {
    ax2 = normalize_axis(axis2, a.ndim());
  } catch (const AxisError& e) {
    throw AxisError(std::string("axis2: ") + e.what());
  }
  std::vector<int> perm(a.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[ax1], perm[ax2]);
  return permuted(a, perm);
}

ndarray moveaxis(const ndarray& a, const std::vector<int>& source, const std::vector<int>& destination) {
  auto src = normalize_axes_arg(source, a.ndim(), "source");
  auto dst = normalize_axes_arg(destination, a.ndim(), "destination");
  if (src.size() != dst.size())
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  // The axes not moved keep their order and fill the free slots.
  std::vector<int> order;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;
  for (std::size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return permuted(a, order);
}

ndarray squeeze(const ndarray& a, std::optional<std::vector<int>> axis) {
  std::vector<bool> drop(a.ndim(), false);
  if (!axis) {
    for (int i = 0; i < a.ndim(); ++i) drop[i] = a.shape()[i] == 1;
  } else {
    for (int ax : *axis) {
      int k = normalize_axis(ax, a.ndim());
      if (drop[k]) throw ValueError("duplicate value in 'axis'");
      if (a.shape()[k] != 1)
        throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
      drop[k] = true;
    }
  }
  Shape shape;
  Strides strides;
  for (int i = 0; i < a.ndim(); ++i) {
    if (drop[i]) continue;
    shape.push_back(a.shape()[i]);
    strides.push_back(a.strides()[i]);
  }
  return a.view_as(a.dtype(), shape, strides, a.offset());
}

ndarray expand_dims(const ndarray& a, const std::vector<int>& axis) {
  const int out_ndim = a.ndim() + static_cast<int>(axis.size());
  auto positions = normalize_axes(axis, out_ndim, "repeated axis");
  std::vector<bool> is_new(out_ndim, false);
  for (int p : positions) is_new[p] = true;
  Shape shape(out_ndim);
  Strides strides(out_ndim);
  // A new axis takes the stride its inner neighbour would step over (as reshape gives).
  std::int64_t inner = a.itemsize();
  int src = a.ndim() - 1;
  for (int i = out_ndim - 1; i >= 0; --i) {
    if (is_new[i]) {
      shape[i] = 1;
      strides[i] = inner;
    } else {
      shape[i] = a.shape()[src];
      strides[i] = a.strides()[src];
      inner = a.strides()[src] * a.shape()[src];
      --src;
    }
  }
  return a.view_as(a.dtype(), shape, strides, a.offset());
}

ndarray ndarray::reshape(const Shape& shape, Order order) const { return copper::reshape(*this, shape, order); }
ndarray ndarray::ravel(Order order) const { return copper::ravel(*this, order); }
ndarray ndarray::flatten(Order order) const { return copper::flatten(*this, order); }
ndarray ndarray::transpose() const { return copper::transpose(*this); }
ndarray ndarray::transpose(const std::vector<int>& axes) const { return copper::transpose(*this, axes); }
ndarray ndarray::squeeze() const { return copper::squeeze(*this); }

}  // namespace copper
