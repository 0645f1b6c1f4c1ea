// Rearranging elements: flip (a view with negative strides), and roll, repeat and
// tile, which build a new array from a few strided block copies on the backend.
#include <numeric>

#include "api/array_factory.h"
#include "copper/manipulation.hpp"

namespace copper {

namespace {

std::vector<int> unique_axes(const std::vector<int>& axes, int ndim) {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int ax : axes) {
    int a = normalize_axis(ax, ndim);
    if (seen[a]) throw ValueError("repeated axis");
    seen[a] = true;
    out.push_back(a);
  }
  return out;
}

// The same array seen through `index` along one axis only.
ndarray along(const ndarray& a, int axis, Slice s) {
  Index index(axis, Slice());
  index.push_back(s);
  return a[index];
}

void copy_block(const ndarray& src, const ndarray& dst) {
  if (dst.size()) api::backend_of(dst).copy(backend::view_of(src), backend::view_of(dst));
}

}  // namespace

ndarray flip(const ndarray& a, std::optional<std::vector<int>> axis) {
  std::vector<int> axes(a.ndim());
  std::iota(axes.begin(), axes.end(), 0);
  if (axis) axes = unique_axes(*axis, a.ndim());
  Strides strides = a.strides();
  std::int64_t offset = a.offset();
  for (int ax : axes) {
    // Start at the last element and walk backwards; an empty axis keeps the offset.
    if (a.shape()[ax] > 0) offset += (a.shape()[ax] - 1) * strides[ax];
    strides[ax] = -strides[ax];
  }
  return a.view_as(a.dtype(), a.shape(), strides, offset);
}

ndarray fliplr(const ndarray& a) {
  if (a.ndim() < 2) throw ValueError("Input must be >= 2-d.");
  return flip(a, std::vector<int>{1});
}

ndarray flipud(const ndarray& a) {
  if (a.ndim() < 1) throw ValueError("Input must be >= 1-d.");
  return flip(a, std::vector<int>{0});
}

ndarray roll(const ndarray& a, const std::vector<std::int64_t>& shift, std::optional<std::vector<int>> axis) {
  if (!axis) {
    // NumPy rolls the flattened array by every shift, then restores the shape.
    std::int64_t total = std::accumulate(shift.begin(), shift.end(), std::int64_t{0});
    return reshape(roll(ravel(a), {total}, std::vector<int>{0}), a.shape());
  }
  const std::vector<int>& axes = *axis;
  if (shift.size() != axes.size() && shift.size() != 1 && axes.size() != 1) {
    throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 "
                     "with shape " + shape_str(Shape{static_cast<std::int64_t>(shift.size())}) +
                     " and arg 1 with shape " + shape_str(Shape{static_cast<std::int64_t>(axes.size())}) + ".");
  }
  std::vector<std::int64_t> per_axis(a.ndim(), 0);
  const std::size_t n = std::max(shift.size(), axes.size());
  for (std::size_t i = 0; i < n; ++i) {
    int ax = normalize_axis(axes[axes.size() == 1 ? 0 : i], a.ndim());
    per_axis[ax] += shift[shift.size() == 1 ? 0 : i];
  }
  ndarray out = api::allocate(a.shape(), a.dtype(), a.device());
  if (a.size() == 0) return out;
  // Each rolled axis splits into two blocks; copy every combination (2^k copies).
  std::vector<int> rolled;
  for (int ax = 0; ax < a.ndim(); ++ax) {
    std::int64_t len = a.shape()[ax];
    per_axis[ax] = ((per_axis[ax] % len) + len) % len;
    if (per_axis[ax]) rolled.push_back(ax);
  }
  for (std::size_t mask = 0; mask < (std::size_t{1} << rolled.size()); ++mask) {
    ndarray src = a, dst = out;
    for (std::size_t j = 0; j < rolled.size(); ++j) {
      int ax = rolled[j];
      std::int64_t s = per_axis[ax], len = a.shape()[ax];
      if (mask >> j & 1) {  // the tail of the source wraps to the front
        src = along(src, ax, Slice(len - s, std::nullopt));
        dst = along(dst, ax, Slice(std::nullopt, s));
      } else {
        src = along(src, ax, Slice(std::nullopt, len - s));
        dst = along(dst, ax, Slice(s, std::nullopt));
      }
    }
    copy_block(src, dst);
  }
  return out;
}

ndarray repeat(const ndarray& input, const std::vector<std::int64_t>& repeats, std::optional<int> axis_arg) {
  ndarray a = axis_arg ? input : ravel(input);
  int axis = axis_arg ? normalize_axis(*axis_arg, a.ndim()) : 0;
  const std::int64_t n = a.shape()[axis];
  if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != n) {
    throw ValueError("operands could not be broadcast together with shape " + shape_str(Shape{n}) + " " +
                     shape_str(Shape{static_cast<std::int64_t>(repeats.size())}));
  }
  for (auto r : repeats) {
    if (r < 0) {
      throw ValueError(repeats.size() == 1 ? "negative dimensions are not allowed"
                                           : "repeats may not contain negative values.");
    }
  }
  auto count = [&](std::int64_t i) { return repeats[repeats.size() == 1 ? 0 : i]; };
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < n; ++i) total += count(i);
  Shape out_shape = a.shape();
  out_shape[axis] = total;
  ndarray out = api::allocate(out_shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  // Runs of equal counts become one copy: source [i, j) gets a zero-stride repeat axis,
  // destination [pos, pos + (j - i) * r) is split into (j - i, r).
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i < n;) {
    std::int64_t r = count(i), j = i + 1;
    while (j < n && count(j) == r) ++j;
    if (r > 0) {
      ndarray src = along(a, axis, Slice(i, j));
      ndarray dst = along(out, axis, Slice(pos, pos + (j - i) * r));
      Shape shape = src.shape();
      shape.insert(shape.begin() + axis + 1, r);
      Strides src_strides = src.strides();
      src_strides.insert(src_strides.begin() + axis + 1, 0);
      Strides dst_strides = dst.strides();
      dst_strides[axis] = dst.strides()[axis] * r;
      dst_strides.insert(dst_strides.begin() + axis + 1, dst.strides()[axis]);
      copy_block(src.view_as(a.dtype(), shape, src_strides, src.offset()),
                 dst.view_as(a.dtype(), shape, dst_strides, dst.offset()));
    }
    pos += (j - i) * r;
    i = j;
  }
  return out;
}

ndarray tile(const ndarray& a, const std::vector<std::int64_t>& reps_arg) {
  const int d = std::max<int>(a.ndim(), static_cast<int>(reps_arg.size()));
  // Pad both the shape and the repetitions with leading ones to a common length.
  Shape shape(d - a.ndim(), 1), reps(d - reps_arg.size(), 1);
  Strides strides(d - a.ndim(), 0);
  shape.insert(shape.end(), a.shape().begin(), a.shape().end());
  strides.insert(strides.end(), a.strides().begin(), a.strides().end());
  reps.insert(reps.end(), reps_arg.begin(), reps_arg.end());
  Shape out_shape(d);
  for (int i = 0; i < d; ++i) out_shape[i] = shape[i] * reps[i];
  api::check_shape(reps);
  ndarray out = api::allocate(out_shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  // One copy: view the output as (r0, s0, r1, s1, ...) and the input with zero strides on r.
  Shape split_shape;
  Strides src_strides, dst_strides;
  for (int i = 0; i < d; ++i) {
    split_shape.insert(split_shape.end(), {reps[i], shape[i]});
    src_strides.insert(src_strides.end(), {0, strides[i]});
    dst_strides.insert(dst_strides.end(), {out.strides()[i] * shape[i], out.strides()[i]});
  }
  copy_block(a.view_as(a.dtype(), split_shape, src_strides, a.offset()),
             out.view_as(a.dtype(), split_shape, dst_strides, 0));
  return out;
}

ndarray atleast_1d(const ndarray& a) { return a.ndim() >= 1 ? a : reshape(a, Shape{1}); }

ndarray atleast_2d(const ndarray& a) {
  if (a.ndim() >= 2) return a;
  return a.ndim() == 0 ? reshape(a, Shape{1, 1}) : expand_dims(a, {0});
}

ndarray atleast_3d(const ndarray& a) {
  if (a.ndim() >= 3) return a;
  if (a.ndim() == 0) return reshape(a, Shape{1, 1, 1});
  if (a.ndim() == 1) return expand_dims(a, {0, 2});
  return expand_dims(a, {2});
}

}  // namespace copper
