#include "api/sorting_support.h"

#include "backend/backend.h"
#include "copper/creation.hpp"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"

namespace copper::api {

bool stable_requested(const std::optional<std::string>& kind, std::optional<bool> stable) {
  if (kind && stable)
    throw ValueError("`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
  if (stable) return *stable;
  if (!kind) return false;
  // NumPy reads only the first letter: q(uick), h(eap), m(erge) and s(table).
  const char c = kind->empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>((*kind)[0])));
  if (c == 'q' || c == 'h') return false;
  if (c == 'm' || c == 's') return true;
  throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + *kind + "')");
}

SortRows sort_rows_of(const ndarray& a, int axis) {
  SortRows plan;
  plan.axis = axis;
  const ndarray moved = axis == a.ndim() - 1 ? a : moveaxis(a, {axis}, {-1});
  plan.moved_shape = moved.shape();
  const std::int64_t n = a.ndim() ? a.shape()[axis] : 1;
  const std::int64_t rows = n ? a.size() / n : 0;
  ndarray packed = allocate(plan.moved_shape, a.dtype(), a.device());
  if (a.size()) backend_of(a).copy(backend::view_of(moved), backend::view_of(packed));
  plan.rows = packed.view_as(a.dtype(), Shape{rows, n}, c_strides(Shape{rows, n}, a.itemsize()), 0);
  return plan;
}

ndarray from_sort_rows(const ndarray& rows, const SortRows& plan) {
  const ndarray moved = rows.view_as(rows.dtype(), plan.moved_shape, c_strides(plan.moved_shape, rows.itemsize()), 0);
  const int last = static_cast<int>(plan.moved_shape.size()) - 1;
  if (plan.axis == last) return moved;
  return ascontiguousarray(moveaxis(moved, {-1}, {plan.axis}));
}

namespace {

// a flattened (axis None) or a with its axis normalized.
std::pair<ndarray, int> resolve_axis(const ndarray& a, std::optional<int> axis) {
  if (!axis) return {ravel(a), 0};
  return {a, normalize_axis(*axis, a.ndim())};
}

}  // namespace

ndarray sorted_along(const ndarray& a, std::optional<int> axis, bool stable) {
  auto [src, ax] = resolve_axis(a, axis);
  const bool by_values = !(stable && is_inexact(a.dtype()));
  if (by_values && ax == src.ndim() - 1 && src.is_c_contiguous() && src.size()) {
    // Already (rows, n) in memory: sorted from where it is into the result, no packed copy.
    const std::int64_t n = src.shape()[ax], rows = src.size() / n;
    const Shape shape{rows, n};
    const Strides strides = c_strides(shape, src.itemsize());
    ndarray out = allocate(src.shape(), src.dtype(), src.device());
    const backend::ArrayView in{src.data(), src.dtype(), shape, strides}, to{out.data(), src.dtype(), shape, strides};
    backend_of(a).sort_rows(in, &to, nullptr);
    return out;
  }
  SortRows plan = sort_rows_of(src, ax);
  const auto view = backend::view_of(plan.rows);
  if (plan.rows.size()) {
    // Values sort equal elements in any order, -0.0 before +0.0; a stable sort of
    // floats keeps their order (and NaN payloads'), so it goes through argsort.
    if (!by_values) {
      ndarray idx = allocate(plan.rows.shape(), DType::int64, a.device());
      const auto iv = backend::view_of(idx);
      backend_of(a).sort_rows(view, &view, &iv);
    } else {
      backend_of(a).sort_rows(view, &view, nullptr);
    }
  }
  return from_sort_rows(plan.rows, plan);
}

ndarray argsorted_along(const ndarray& a, std::optional<int> axis) {
  if (a.ndim() == 0 && axis) {  // NumPy's argsort treats a 0-d array as 1-d here
    normalize_axis(*axis, 1);
    return argsorted_along(reshape(a, Shape{1}), 0);
  }
  auto [src, ax] = resolve_axis(a, axis);
  SortRows plan = sort_rows_of(src, ax);
  ndarray idx = allocate(plan.rows.shape(), DType::int64, a.device());
  if (plan.rows.size()) {
    const auto iv = backend::view_of(idx);
    backend_of(a).sort_rows(backend::view_of(plan.rows), nullptr, &iv);
  }
  return from_sort_rows(idx, plan);
}

ndarray take_first_axis(const ndarray& a, const ndarray& idx) {
  Shape shape = a.shape();
  shape[0] = idx.size();
  ndarray out = allocate(shape, a.dtype(), a.device());
  if (out.size()) backend_of(a).take_rows(backend::view_of(a), backend::view_of(ascontiguousarray(idx)), backend::view_of(out));
  return out;
}

ndarray true_positions(const ndarray& flags) {
  const ndarray f = ascontiguousarray(flags);
  ndarray pos = allocate(Shape{f.size()}, DType::int64, f.device());
  const std::int64_t count = f.size() ? backend_of(f).flag_positions(backend::view_of(f), backend::view_of(pos)) : 0;
  return pos.view_as(DType::int64, Shape{count}, Strides{8}, 0);
}

ndarray compress_1d(const ndarray& a, const ndarray& flags) { return take_first_axis(a, true_positions(flags)); }

}  // namespace copper::api
