// Advanced indexing (NumPy's rules) reduced to the backend's gather, scatter and
// compaction: an index is split into a basic view of the array plus index arrays over
// some of the view's axes, and the broadcast shape of those arrays goes where NumPy
// puts it (in place when the advanced items are adjacent, first otherwise).
#pragma once
#include <optional>
#include <vector>

#include "backend/backend.h"
#include "copper/ndarray.hpp"

namespace copper::api {

struct AdvancedIndex {
  ndarray view;                  // the array after the basic items (array items take whole axes)
  std::vector<int> axes;         // the view axes the index arrays index, in order
  std::vector<ndarray> arrays;   // int32/int64 index arrays, each broadcast (a view) to `shape`
  std::vector<int> error_axes;   // per array: the axis of the original array its messages name
  Shape shape;                   // the index arrays' broadcast shape (B)
  int insert_at = 0;             // the result axis where B's axes go
  bool unique_targets = false;   // only mask positions: no target repeats
  // x[mask] where one boolean array spans every axis of the view and nothing else is
  // advanced: the selection goes straight to compaction (arrays stay empty).
  std::optional<ndarray> whole_mask;
  bool only_item = false;        // the mask is the whole index (NumPy's assignment rules differ)
};

// Whether the index has an array or bool item (then it is advanced indexing).
bool is_advanced(const Index& index);
// Parses and checks `index` against `a` (NumPy's IndexErrors); reads no data except to
// turn boolean masks into positions, which costs one host read of their count.
AdvancedIndex plan_advanced(const ndarray& a, const Index& index, bool keep_whole_mask);
// The result shape of indexing with `plan`.
Shape advanced_result_shape(const AdvancedIndex& plan);
// Backend views of an index plan's arrays.
backend::IndexArrays index_arrays(const AdvancedIndex& plan, IndexMode mode = IndexMode::raise);
// IndexError (NumPy's words) when an index array has elements for an axis of length 0:
// every index is then out of bounds, which the host knows without the gather (a GPU's
// gather reports bad indices at the next synchronization, in a later call).
void check_empty_axes(const AdvancedIndex& plan);
// The permutation that moves the indexed axes of the view first (the gather's source
// order), and the one that moves B's axes of the result first (the gather's output order).
std::vector<int> indexed_axes_first(const AdvancedIndex& plan);
std::vector<int> b_axes_first(const AdvancedIndex& plan);

ndarray advanced_get(const ndarray& a, const Index& index);
void advanced_set(const ndarray& a, const Index& index, const operand& value);

// NumPy's setitem converts a scalar for an integer array with int() first: values that
// cannot be represented raise (OverflowError, ValueError for NaN) instead of wrapping.
void check_scalar_assignable(const Scalar& v, DType dst);

// The value operand of an assignment-like function as an array of `dtype` on `device`
// (a 0-d array for a scalar, checked as setitem checks scalars).
ndarray values_as(const operand& v, DType dtype, Device device);
// `flat` (1-D) repeated or cut to n elements, as put, place and putmask use their values.
ndarray repeated_to(const ndarray& flat, std::int64_t n);

// Boolean mask positions: count (one host read), then the coordinates as ndim int64
// arrays of that length (rows of one (ndim, count) array).
std::vector<ndarray> mask_positions(const ndarray& mask);

}  // namespace copper::api
