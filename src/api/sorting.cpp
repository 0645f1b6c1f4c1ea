// sort, argsort, ndarray.sort, lexsort, partition, argpartition, sort_complex: checks and
// layout here, the sorting in Backend::sort_rows / lexsort_rows (sorting_support.h).
#include "api/sorting_support.h"
#include "copper/creation.hpp"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

ndarray sort(const ndarray& a, std::optional<int> axis, const std::optional<std::string>& kind,
             std::optional<bool> stable, bool descending) {
  const ndarray s = api::sorted_along(a, axis, api::stable_requested(kind, stable));
  if (!descending) return s;
  return ascontiguousarray(flip(s, std::vector<int>{axis ? normalize_axis(*axis, a.ndim()) : 0}));
}

ndarray argsort(const ndarray& a, std::optional<int> axis, const std::optional<std::string>& kind,
                std::optional<bool> stable, bool descending) {
  api::stable_requested(kind, stable);  // argsort is always stable; the arguments are still checked
  if (!descending || a.ndim() == 0) return api::argsorted_along(a, axis);
  // Descending and stable (equal elements keep their order): the ascending argsort of the
  // reversed array, read backwards, in the original positions.
  const ndarray src = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim()) : 0;
  const std::vector<int> along{ax};
  const ndarray reversed_order = api::argsorted_along(flip(src, along), ax);
  return ascontiguousarray(subtract(src.shape()[ax] - 1, flip(reversed_order, along)));
}

void sort_inplace(const ndarray& a, int axis, const std::optional<std::string>& kind, std::optional<bool> stable) {
  const bool want_stable = api::stable_requested(kind, stable);
  const int ax = normalize_axis(axis, a.ndim());
  // A C-contiguous array sorted along its last axis is its own (rows, n) block.
  if (ax == a.ndim() - 1 && a.is_c_contiguous() && !(want_stable && is_inexact(a.dtype()))) {
    const std::int64_t n = a.shape()[ax], rows = n ? a.size() / n : 0;
    if (a.size() == 0) return;
    const backend::ArrayView v{a.data(), a.dtype(), Shape{rows, n}, c_strides(Shape{rows, n}, a.itemsize())};
    api::backend_of(a).sort_rows(v, &v, nullptr);
    return;
  }
  const ndarray sorted = api::sorted_along(a, ax, want_stable);
  api::backend_of(a).copy(backend::view_of(sorted), backend::view_of(a));
}

ndarray lexsort(const std::vector<ndarray>& keys, int axis) {
  if (keys.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  const Shape& shape = keys[0].shape();
  for (const ndarray& k : keys) {
    if (k.shape() != shape) throw ValueError("all keys need to be the same shape");
  }
  api::common_device([&] {
    std::vector<const ndarray*> p;
    for (const ndarray& k : keys) p.push_back(&k);
    return p;
  }(), keys[0].device());
  if (keys[0].ndim() == 0) {
    normalize_axis(axis, 1);  // NumPy treats a 0-d key as one element
    return zeros(Shape{}, DType::int64, keys[0].device());
  }
  const int ax = normalize_axis(axis, keys[0].ndim());
  std::vector<api::SortRows> plans;
  std::vector<backend::ArrayView> views;
  for (const ndarray& k : keys) {
    plans.push_back(api::sort_rows_of(k, ax));
    views.push_back(backend::view_of(plans.back().rows));
  }
  ndarray idx = api::allocate(plans[0].rows.shape(), DType::int64, keys[0].device());
  if (idx.size()) api::backend_of(idx).lexsort_rows(views, backend::view_of(idx));
  return api::from_sort_rows(idx, plans[0]);
}

namespace {

// NumPy's kth checks against the length of the partitioned axis.
void check_partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis,
                     const std::string& kind) {
  if (kind != "introselect") throw ValueError("select kind must be 'introselect' (got '" + kind + "')");
  std::int64_t n = a.size();
  if (axis) n = a.shape()[normalize_axis(*axis, a.ndim())];  // AxisError for 0-d, as NumPy's
  if (a.size() == 0) return;  // NumPy checks nothing on empty arrays
  for (std::int64_t k : kth) {
    const std::int64_t normalized = k < 0 ? k + n : k;
    if (normalized < 0 || normalized >= n)
      throw ValueError("kth(=" + std::to_string(normalized) + ") out of bounds (" + std::to_string(n) + ")");
  }
}

}  // namespace

// A full sort is a valid partition for every kth at once.
ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis,
                  const std::string& kind) {
  check_partition(a, kth, axis, kind);
  return api::sorted_along(a, axis, false);
}

ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis,
                     const std::string& kind) {
  if (a.ndim() == 0) {  // as argsort: a 0-d array counts as 1-d
    const ndarray one = reshape(a, Shape{1});
    if (axis) normalize_axis(*axis, 1);
    check_partition(one, kth, axis ? std::optional<int>(0) : std::nullopt, kind);
    return api::argsorted_along(one, 0);
  }
  check_partition(a, kth, axis, kind);
  return api::argsorted_along(a, axis);
}

void partition_inplace(const ndarray& a, const std::vector<std::int64_t>& kth, int axis, const std::string& kind) {
  check_partition(a, kth, axis, kind);
  sort_inplace(a, axis);
}

ndarray sort_complex(const ndarray& a) {
  ndarray b = sort(a, -1);
  if (is_complex(b.dtype())) return b;
  const DType t = b.dtype();
  const bool small = t == DType::int8 || t == DType::uint8 || t == DType::int16 || t == DType::uint16;
  return astype(b, small ? DType::complex64 : DType::complex128);
}

}  // namespace copper
