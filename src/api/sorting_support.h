// Front-end pieces shared by sorting, searching and the set functions: NumPy's kind=
// checks, arrays laid out as the (rows, n) C-contiguous blocks Backend::sort_rows takes,
// and the gathers and compactions the set functions compose.
#pragma once
#include <optional>
#include <string>

#include "api/array_factory.h"

namespace copper::api {

// Validates kind= and stable= as np.sort does; true when a stable sort is asked for.
bool stable_requested(const std::optional<std::string>& kind, std::optional<bool> stable);

// `a` with `axis` moved last, as a fresh C-contiguous (rows, n) array.
struct SortRows {
  ndarray rows;       // (rows, n), C-contiguous, owned
  Shape moved_shape;  // a's shape with axis last
  int axis;
};
SortRows sort_rows_of(const ndarray& a, int axis);
// A (rows, n) result back in a's layout: C-contiguous, axis in place.
ndarray from_sort_rows(const ndarray& rows, const SortRows& plan);

// Sorted copy (values) or argsort (int64 indices) of a along axis, or flattened.
ndarray sorted_along(const ndarray& a, std::optional<int> axis, bool stable);
ndarray argsorted_along(const ndarray& a, std::optional<int> axis);

// out[i] = a[idx[i]] along a's first axis (idx int64 1-d, values checked by the caller).
ndarray take_first_axis(const ndarray& a, const ndarray& idx);
// The positions (int64, 1-d) of the true elements of the 1-d bool `flags`.
ndarray true_positions(const ndarray& flags);
// a[flags] for 1-d a and flags.
ndarray compress_1d(const ndarray& a, const ndarray& flags);

}  // namespace copper::api
