// NumPy's append, insert, delete, resize and trim_zeros, composed from concatenation,
// slicing views and index assignment (so both devices run them unchanged).
#include <algorithm>
#include <string>

#include "copper/creation.hpp"
#include "copper/indexing.hpp"
#include "copper/manipulation.hpp"
#include "copper/manipulation_editing.hpp"
#include "copper/reductions.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"
#include "api/manipulation_support.h"

namespace copper {
namespace {

// The layout NumPy's insert/delete give their result: F for Fortran (not C) arrays.
Order order_of(const ndarray& a) { return a.is_f_contiguous() && !a.is_c_contiguous() ? Order::F : Order::C; }

// arr flattened when axis is none (then axis 0), else the normalized axis.
std::pair<ndarray, int> flatten_for_axis(const ndarray& arr, std::optional<int> axis) {
  if (!axis) return {arr.ndim() == 1 ? arr : ravel(arr), 0};
  return {arr, normalize_axis(*axis, arr.ndim())};
}

Index axis_index(int ndim, int axis, IndexItem item) {
  Index idx(static_cast<std::size_t>(ndim), Slice());
  idx[static_cast<std::size_t>(axis)] = std::move(item);
  return idx;
}

ndarray slice_indices(const Slice& s, std::int64_t n, Device device) {
  const SliceBounds b = slice_bounds(s, n);
  return arange(Scalar(b.start), Scalar(b.stop), Scalar(b.step), int64, device);
}

ndarray insert_at(const ndarray& a, int axis, const ndarray& obj, bool obj_is_array, const ndarray& values) {
  const std::int64_t n = a.shape()[axis];
  ndarray indices = obj.dtype() == bool_ ? obj.astype(int64) : obj;
  if (indices.ndim() > 1)
    throw ValueError("index array argument obj to insert must be one dimensional or scalar");
  if (indices.size() > 0 && !is_integer(indices.dtype()) && indices.dtype() != bool_) {
    // NumPy slices with a lone position and indexes with several.
    if (indices.size() == 1) throw TypeError("slice indices must be integers or None or have an __index__ method");
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  }
  Shape new_shape = a.shape();
  if (indices.size() == 1) {
    std::int64_t index = indices.item().to_int64();
    if (index < -n || index > n)
      throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
                       " with size " + std::to_string(n));
    if (index < 0) index += n;
    ndarray vals = array(values, a.dtype(), std::nullopt, Order::K, a.ndim());
    // A scalar position lines the values up as a[:, i:i+1, :] would (NumPy moves axis 0 there).
    if (indices.ndim() == 0) vals = moveaxis(vals, {0}, {axis});
    const std::int64_t added = vals.shape()[axis];
    new_shape[axis] += added;
    ndarray out = empty(new_shape, a.dtype(), order_of(a), a.device());
    out.assign(axis_index(a.ndim(), axis, Slice(std::nullopt, index)),
               a[axis_index(a.ndim(), axis, Slice(std::nullopt, index))]);
    out.assign(axis_index(a.ndim(), axis, Slice(index, index + added)), vals);
    out.assign(axis_index(a.ndim(), axis, Slice(index + added, std::nullopt)),
               a[axis_index(a.ndim(), axis, Slice(index, std::nullopt))]);
    return out;
  }
  if (indices.size() == 0 && !obj_is_array) indices = indices.astype(int64);
  indices = where(less(indices, 0), add(indices, n), indices).astype(int64);
  const std::int64_t added = indices.size();
  // Each new element lands after the ones inserted before it (stable order of positions).
  const ndarray order = argsort(indices, 0, std::string("stable"));
  ndarray shifted = empty_like(indices);
  shifted.assign({order}, add(take(indices, order), arange(Scalar(added), int64, a.device())));
  new_shape[axis] += added;
  ndarray old_mask = ones({new_shape[axis]}, bool_, a.device());
  old_mask.assign({shifted}, false);
  ndarray out = empty(new_shape, a.dtype(), order_of(a), a.device());
  out.assign(axis_index(a.ndim(), axis, shifted), values);
  out.assign(axis_index(a.ndim(), axis, old_mask), a);
  return out;
}

ndarray delete_at(const ndarray& a, int axis, const ndarray& obj, bool from_slice) {
  const std::int64_t n = a.shape()[axis];
  const bool integer = is_integer(obj.dtype());
  if (integer && obj.size() == 1 && !from_slice) {
    std::int64_t index = obj.item().to_int64();
    if (index < -n || index >= n)
      throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
                       " with size " + std::to_string(n));
    if (index < 0) index += n;
    Shape new_shape = a.shape();
    new_shape[axis] -= 1;
    ndarray out = empty(new_shape, a.dtype(), order_of(a), a.device());
    out.assign(axis_index(a.ndim(), axis, Slice(std::nullopt, index)),
               a[axis_index(a.ndim(), axis, Slice(std::nullopt, index))]);
    out.assign(axis_index(a.ndim(), axis, Slice(index, std::nullopt)),
               a[axis_index(a.ndim(), axis, Slice(index + 1, std::nullopt))]);
    return out;
  }
  ndarray keep;
  if (obj.dtype() == bool_) {
    if (obj.ndim() != 1 || obj.shape()[0] != n)
      throw ValueError("boolean array argument obj to delete must be one dimensional and match the axis length of " +
                       std::to_string(n));
    keep = logical_not(obj);
  } else {
    if (obj.size() > 0 && !integer) throw IndexError("arrays used as indices must be of integer (or boolean) type");
    keep = ones({n}, bool_, a.device());
    if (obj.size() > 0) keep.assign({obj.ndim() == 0 ? reshape(obj, {1}) : obj}, false);
  }
  return copy(a[axis_index(a.ndim(), axis, keep)], order_of(a));
}

}  // namespace

SliceBounds slice_bounds(const Slice& s, std::int64_t n) {
  const std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  const std::int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  auto bound = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t x = *v;
    if (x < 0) return std::max(x + n, lower);
    return std::min(x, upper);
  };
  return {bound(s.start, step > 0 ? lower : upper), bound(s.stop, step > 0 ? upper : lower), step};
}

ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis) {
  if (!axis) return concatenate({ravel(arr), ravel(values)}, 0);
  return concatenate({arr, values}, axis);
}

ndarray insert(const ndarray& arr, const ndarray& obj, const ndarray& values, std::optional<int> axis) {
  auto [a, ax] = flatten_for_axis(arr, axis);
  return insert_at(a, ax, obj.device() == a.device() ? obj : asarray(obj, std::nullopt, a.device()), true,
                   values);
}

ndarray insert(const ndarray& arr, const Slice& obj, const ndarray& values, std::optional<int> axis) {
  auto [a, ax] = flatten_for_axis(arr, axis);
  return insert_at(a, ax, slice_indices(obj, a.shape()[ax], a.device()), false, values);
}

ndarray delete_(const ndarray& arr, const ndarray& obj, std::optional<int> axis) {
  auto [a, ax] = flatten_for_axis(arr, axis);
  return delete_at(a, ax, obj.device() == a.device() ? obj : asarray(obj, std::nullopt, a.device()), false);
}

ndarray delete_(const ndarray& arr, const Slice& obj, std::optional<int> axis) {
  auto [a, ax] = flatten_for_axis(arr, axis);
  return delete_at(a, ax, slice_indices(obj, a.shape()[ax], a.device()), true);
}

ndarray resize(const ndarray& a, const Shape& new_shape) {
  std::int64_t new_size = 1;
  for (std::int64_t d : new_shape) {
    new_size *= d;
    if (d < 0) throw ValueError("all elements of `new_shape` must be non-negative");
  }
  const ndarray flat = ravel(a);
  if (flat.size() == 0 || new_size == 0) return zeros(new_shape, a.dtype(), a.device());
  const std::int64_t repeats = (new_size + flat.size() - 1) / flat.size();
  const ndarray filled = repeats == 1 ? flat : tile(flat, {repeats});
  return reshape(filled[{Slice(std::nullopt, new_size)}], new_shape);
}

ndarray trim_zeros(const ndarray& filt, const std::string& trim, std::optional<int> axis) {
  std::string t = trim;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t != "fb" && t != "bf" && t != "f" && t != "b")
    throw ValueError("unexpected character(s) in `trim`: '" + trim + "'");
  const int nd = filt.ndim();
  const ndarray where_nonzero = argwhere(filt);  // (count, ndim)
  std::vector<std::optional<std::int64_t>> start(nd), stop(nd);
  if (where_nonzero.shape()[0] == 0) {
    for (int i = 0; i < nd; ++i) start[i] = stop[i] = 0;
  } else if (nd > 0) {
    const auto lo = amin(where_nonzero, 0).to_vector<std::int64_t>();
    const auto hi = amax(where_nonzero, 0).to_vector<std::int64_t>();
    for (int i = 0; i < nd; ++i) {
      if (t.find('f') != std::string::npos) start[i] = lo[i];
      if (t.find('b') != std::string::npos) stop[i] = hi[i] + 1;
    }
  }
  Index idx;
  if (nd == 1 || !axis) {
    for (int i = 0; i < nd; ++i) idx.push_back(Slice(start[i], stop[i]));
  } else {
    const int ax = normalize_axis(*axis, nd);
    idx = axis_index(nd, ax, Slice(start[ax], stop[ax]));
  }
  return filt[idx];
}

}  // namespace copper
