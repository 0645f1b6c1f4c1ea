// NumPy's array editing, stacking and rearranging functions that compose the core
// manipulation primitives (src/api/manipulation_editing.cpp, manipulation_stacking.cpp).
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// ---- editing (src/api/manipulation_editing.cpp) ----
// axis none: both are flattened first. The result has the promoted dtype.
ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis = std::nullopt);
// obj: integer index array (0-d: one position, values' axes line up as a[:, i, :] = ...)
// or a slice; values are cast to arr's dtype. axis none: arr is flattened.
ndarray insert(const ndarray& arr, const ndarray& obj, const ndarray& values, std::optional<int> axis = std::nullopt);
ndarray insert(const ndarray& arr, const Slice& obj, const ndarray& values, std::optional<int> axis = std::nullopt);
// NumPy's delete (a C++ keyword): obj is integer indices, a boolean mask of the axis's
// length, or a slice.
ndarray delete_(const ndarray& arr, const ndarray& obj, std::optional<int> axis = std::nullopt);
ndarray delete_(const ndarray& arr, const Slice& obj, std::optional<int> axis = std::nullopt);
// The flattened array repeated (or cut) to fill new_shape; zeros for an empty input.
ndarray resize(const ndarray& a, const Shape& new_shape);
// Strips leading ("f") and/or trailing ("b") zeros: along every axis (axis none) or one. A view.
ndarray trim_zeros(const ndarray& filt, const std::string& trim = "fb", std::optional<int> axis = std::nullopt);

// ---- stacking and rearranging (src/api/manipulation_stacking.cpp) ----
ndarray rot90(const ndarray& m, int k = 1, const std::vector<int>& axes = {0, 1});
ndarray rollaxis(const ndarray& a, int axis, int start = 0);
ndarray column_stack(const std::vector<ndarray>& tup);  // 1-d inputs become columns
ndarray row_stack(const std::vector<ndarray>& tup);     // vstack (NumPy's deprecated alias)
ndarray dstack(const std::vector<ndarray>& tup);        // along the third axis (atleast_3d first)
std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> hsplit(const ndarray& a, const std::vector<std::int64_t>& indices);
std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> vsplit(const ndarray& a, const std::vector<std::int64_t>& indices);
std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> dsplit(const ndarray& a, const std::vector<std::int64_t>& indices);

// numpy.block's nested lists: a leaf array or a (non-empty) list of blocks, all leaves at one depth.
struct Block {
  std::variant<ndarray, std::vector<Block>> item;
  Block(ndarray a) : item(std::move(a)) {}
  Block(std::vector<Block> list) : item(std::move(list)) {}
};
ndarray block(const Block& arrays);

}  // namespace copper
