// Advanced indexing: NumPy's rules for integer and boolean array items (with integers,
// slices, None and Ellipsis around them), reduced to one gather (get) or one scatter
// (set) on the backend; boolean masks go through stream compaction.
#include "api/indexing_advanced.h"

#include <numeric>

#include "api/array_factory.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"

namespace copper::api {

namespace {

// One advanced item of the index, as the walk over the items found it.
struct AdvancedItem {
  enum Kind { int_array, mask, bool_scalar } kind;
  int view_axis = 0;  // first view axis it indexes
  int orig_axis = 0;  // first axis of the original array it indexes
  ndarray array;      // int_array, mask
  bool value = false; // bool_scalar
};

bool is_index_integer(DType t) { return is_integer(t); }

ndarray as_index_dtype(const ndarray& a) {
  if (a.dtype() == int64 || a.dtype() == int32) return a;
  return a.astype(int64);
}

[[noreturn]] void broadcast_mismatch(const std::vector<Shape>& shapes) {
  std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes";
  for (const Shape& s : shapes) msg += " " + shape_str(s);
  throw IndexError(msg + " ");
}

Shape broadcast_index_shapes(const std::vector<Shape>& shapes) {
  try {
    return broadcast_shapes(shapes);
  } catch (const ValueError&) {
    broadcast_mismatch(shapes);
  }
}

}  // namespace

bool is_advanced(const Index& index) {
  for (const auto& item : index)
    if (std::holds_alternative<ndarray>(item) || std::holds_alternative<bool>(item)) return true;
  return false;
}

std::vector<ndarray> mask_positions(const ndarray& mask) {
  backend::Backend& be = backend_of(mask);
  backend::Selection sel = be.select_count(backend::view_of(mask));
  if (mask.ndim() == 0) return {zeros({sel.count}, int64, mask.device())};
  const std::int64_t m = mask.ndim();
  ndarray coords = allocate({m, sel.count}, int64, mask.device());
  if (sel.count > 0) be.select_coordinates(backend::view_of(mask), sel, backend::view_of(transpose(coords)));
  std::vector<ndarray> rows;
  for (std::int64_t d = 0; d < m; ++d) rows.push_back(coords[d]);
  return rows;
}

AdvancedIndex plan_advanced(const ndarray& a, const Index& index, bool keep_whole_mask) {
  int consumed = 0, ellipses = 0;
  for (const auto& item : index) {
    if (std::holds_alternative<std::int64_t>(item) || std::holds_alternative<Slice>(item)) {
      ++consumed;
    } else if (const auto* arr = std::get_if<ndarray>(&item)) {
      if (arr->dtype() == bool_) consumed += arr->ndim();
      else if (is_index_integer(arr->dtype())) ++consumed;
      else throw IndexError("arrays used as indices must be of integer (or boolean) type");
    } else if (std::holds_alternative<Ellipsis>(item)) {
      ++ellipses;
    }
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim()) {
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  }

  // Walk the items: array items become whole axes of the basic view; integers count as
  // advanced for placing the result's new axes (NumPy treats them as 0-d arrays there).
  Index basic;
  std::vector<AdvancedItem> advanced;
  std::vector<int> advanced_positions;  // item positions of advanced items, integers included
  std::vector<int> view_axes_before;    // per item: view axes made by the items before it
  int orig = 0, vaxis = 0;
  for (std::size_t i = 0; i < index.size(); ++i) {
    const IndexItem& item = index[i];
    view_axes_before.push_back(vaxis);
    if (std::holds_alternative<std::int64_t>(item)) {
      basic.push_back(item);
      advanced_positions.push_back(static_cast<int>(i));
      ++orig;
    } else if (std::holds_alternative<Slice>(item)) {
      basic.push_back(item);
      ++orig;
      ++vaxis;
    } else if (std::holds_alternative<NewAxis>(item)) {
      basic.push_back(item);
      ++vaxis;
    } else if (std::holds_alternative<Ellipsis>(item)) {
      basic.push_back(item);
      orig += a.ndim() - consumed;
      vaxis += a.ndim() - consumed;
    } else if (const bool* b = std::get_if<bool>(&item)) {
      basic.push_back(newaxis);
      advanced.push_back({AdvancedItem::bool_scalar, vaxis, orig, ndarray(), *b});
      advanced_positions.push_back(static_cast<int>(i));
      ++vaxis;
    } else {
      const ndarray& arr = std::get<ndarray>(item);
      common_device({&a, &arr}, a.device());
      if (arr.dtype() == bool_) {
        for (int d = 0; d < arr.ndim(); ++d) {
          // NumPy lets a boolean axis of length 0 stand for any axis (nothing selected).
          if (arr.shape()[d] != a.shape()[orig + d] && arr.shape()[d] != 0) {
            throw IndexError("boolean index did not match indexed array along axis " + std::to_string(orig + d) +
                             "; size of axis is " + std::to_string(a.shape()[orig + d]) +
                             " but size of corresponding boolean axis is " + std::to_string(arr.shape()[d]));
          }
        }
        if (arr.ndim() == 0) basic.push_back(newaxis);
        for (int d = 0; d < arr.ndim(); ++d) basic.push_back(Slice());
        advanced.push_back({AdvancedItem::mask, vaxis, orig, arr});
        orig += arr.ndim();
        vaxis += std::max(arr.ndim(), 1);
      } else {
        basic.push_back(Slice());
        advanced.push_back({AdvancedItem::int_array, vaxis, orig, arr});
        ++orig;
        ++vaxis;
      }
      advanced_positions.push_back(static_cast<int>(i));
    }
  }

  AdvancedIndex plan;
  plan.view = a[basic];
  const bool adjacent =
      advanced_positions.back() - advanced_positions.front() + 1 == static_cast<int>(advanced_positions.size());
  plan.insert_at = adjacent ? view_axes_before[advanced_positions.front()] : 0;

  if (keep_whole_mask && advanced.size() == 1 && advanced[0].kind == AdvancedItem::mask &&
      advanced[0].array.ndim() >= 1 && advanced[0].array.shape() == plan.view.shape()) {
    plan.whole_mask = advanced[0].array;
    plan.only_item = index.size() == 1;
    plan.axes.resize(plan.view.ndim());
    std::iota(plan.axes.begin(), plan.axes.end(), 0);
    plan.insert_at = 0;
    plan.unique_targets = true;
    return plan;
  }

  std::vector<Shape> shapes;
  for (const AdvancedItem& adv : advanced) {
    if (adv.kind == AdvancedItem::int_array) {
      plan.axes.push_back(adv.view_axis);
      plan.arrays.push_back(as_index_dtype(adv.array));
      plan.error_axes.push_back(adv.orig_axis);
    } else if (adv.kind == AdvancedItem::mask) {
      std::vector<ndarray> rows = mask_positions(adv.array);
      for (std::size_t d = 0; d < rows.size(); ++d) {
        plan.axes.push_back(adv.view_axis + static_cast<int>(d));
        plan.arrays.push_back(rows[d]);
        plan.error_axes.push_back(adv.orig_axis + static_cast<int>(d));
      }
    } else {
      plan.axes.push_back(adv.view_axis);
      plan.arrays.push_back(zeros({adv.value ? 1 : 0}, int64, a.device()));
      plan.error_axes.push_back(adv.orig_axis);
    }
  }
  for (const ndarray& arr : plan.arrays) shapes.push_back(arr.shape());
  plan.shape = broadcast_index_shapes(shapes);
  for (ndarray& arr : plan.arrays) arr = broadcast_to(arr, plan.shape);
  plan.unique_targets = advanced.size() == 1 && advanced[0].kind != AdvancedItem::int_array;
  return plan;
}

Shape advanced_result_shape(const AdvancedIndex& plan) {
  Shape rest;
  std::vector<bool> indexed(plan.view.ndim(), false);
  for (int ax : plan.axes) indexed[ax] = true;
  for (int d = 0; d < plan.view.ndim(); ++d)
    if (!indexed[d]) rest.push_back(plan.view.shape()[d]);
  Shape out(rest.begin(), rest.begin() + plan.insert_at);
  out.insert(out.end(), plan.shape.begin(), plan.shape.end());
  out.insert(out.end(), rest.begin() + plan.insert_at, rest.end());
  return out;
}

backend::IndexArrays index_arrays(const AdvancedIndex& plan, IndexMode mode) {
  backend::IndexArrays ia;
  for (const ndarray& arr : plan.arrays) ia.arrays.push_back(backend::view_of(arr));
  ia.axes = plan.error_axes;
  ia.mode = mode;
  return ia;
}

std::vector<int> indexed_axes_first(const AdvancedIndex& plan) {
  std::vector<int> perm = plan.axes;
  std::vector<bool> indexed(plan.view.ndim(), false);
  for (int ax : plan.axes) indexed[ax] = true;
  for (int d = 0; d < plan.view.ndim(); ++d)
    if (!indexed[d]) perm.push_back(d);
  return perm;
}

std::vector<int> b_axes_first(const AdvancedIndex& plan) {
  const int nb = static_cast<int>(plan.shape.size());
  const int nd = plan.view.ndim() - static_cast<int>(plan.axes.size()) + nb;
  std::vector<int> perm;
  for (int d = 0; d < nb; ++d) perm.push_back(plan.insert_at + d);
  for (int d = 0; d < nd; ++d)
    if (d < plan.insert_at || d >= plan.insert_at + nb) perm.push_back(d);
  return perm;
}

namespace {

// An empty result still needs in-bounds indices (x[:0, [5]] on a 1-column x raises as in
// NumPy); the gather never runs then, so the index arrays' extremes are read here.
void check_bounds_without_gather(const AdvancedIndex& plan) {
  for (std::size_t i = 0; i < plan.arrays.size(); ++i) {
    const ndarray& arr = plan.arrays[i];
    if (arr.size() == 0) continue;
    const std::int64_t n = plan.view.shape()[plan.axes[i]];
    const std::int64_t lo = amin(arr).astype(int64).to_vector<std::int64_t>()[0];
    const std::int64_t hi = amax(arr).astype(int64).to_vector<std::int64_t>()[0];
    const std::int64_t bad = hi >= n ? hi : lo < -n ? lo : 0;
    if (hi >= n || lo < -n)
      throw IndexError("index " + std::to_string(bad) + " is out of bounds for axis " +
                       std::to_string(plan.error_axes[i]) + " with size " + std::to_string(n));
  }
}

}  // namespace

void check_empty_axes(const AdvancedIndex& plan) {
  for (std::size_t i = 0; i < plan.arrays.size(); ++i) {
    const ndarray& arr = plan.arrays[i];
    const std::int64_t n = plan.view.shape()[plan.axes[i]];
    if (n != 0 || arr.size() == 0) continue;
    const std::int64_t first = ravel(arr)[0].astype(int64).to_vector<std::int64_t>()[0];
    throw IndexError("index " + std::to_string(first) + " is out of bounds for axis " +
                     std::to_string(plan.error_axes[i]) + " with size 0");
  }
}

ndarray advanced_get(const ndarray& a, const Index& index) {
  AdvancedIndex plan = plan_advanced(a, index, true);
  backend::Backend& be = backend_of(a);
  if (plan.whole_mask) {
    const backend::ArrayView flags = backend::view_of(*plan.whole_mask);
    backend::Selection sel = be.select_count(flags);
    ndarray out = allocate({sel.count}, a.dtype(), a.device());
    if (sel.count > 0) be.select_values(flags, sel, backend::view_of(plan.view), backend::view_of(out));
    return out;
  }
  ndarray out = allocate(advanced_result_shape(plan), a.dtype(), a.device());
  if (out.size() == 0) {
    check_bounds_without_gather(plan);
    return out;
  }
  check_empty_axes(plan);
  ndarray src = transpose(plan.view, indexed_axes_first(plan));
  ndarray dst = transpose(out, b_axes_first(plan));
  be.gather(backend::view_of(src), index_arrays(plan), backend::view_of(dst));
  return out;
}

}  // namespace copper::api
