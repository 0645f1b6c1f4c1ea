// rot90, rollaxis, column_stack/row_stack/dstack, h/v/dsplit and block: argument rules
// here, the work in transpose/flip/concatenate/split.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/manipulation_editing.hpp"

namespace copper {
namespace {

std::string tuple_str(const std::vector<int>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

template <class Sections>
std::vector<ndarray> split_checked(const ndarray& a, const Sections& s, int min_ndim, const char* name, int axis) {
  if (a.ndim() < min_ndim)
    throw ValueError(std::string(name) + " only works on arrays of " + std::to_string(min_ndim) +
                     " or more dimensions");
  return split(a, s, axis);
}

// Depth of the nested lists down to the first leaf (the depth every leaf must have).
int first_depth(const Block& b) {
  if (std::holds_alternative<ndarray>(b.item)) return 0;
  const auto& list = std::get<std::vector<Block>>(b.item);
  return list.empty() ? 1 : 1 + first_depth(list.front());
}

std::string index_str(const std::vector<std::size_t>& path) {
  std::string s;
  for (std::size_t i : path) s += "[" + std::to_string(i) + "]";
  return s;
}

// Checks the nesting (NumPy's messages) and finds the largest leaf ndim.
void check_block(const Block& b, std::vector<std::size_t>& path, int depth, int want, int& max_ndim) {
  if (std::holds_alternative<ndarray>(b.item)) {
    if (depth != want) {
      throw ValueError("List depths are mismatched. First element was at depth " + std::to_string(want) +
                       ", but there is an element at depth " + std::to_string(depth) + " (arrays" + index_str(path) +
                       ")");
    }
    max_ndim = std::max(max_ndim, std::get<ndarray>(b.item).ndim());
    return;
  }
  const auto& list = std::get<std::vector<Block>>(b.item);
  if (list.empty()) throw ValueError("List at arrays" + index_str(path) + " cannot be empty");
  for (std::size_t i = 0; i < list.size(); ++i) {
    path.push_back(i);
    check_block(list[i], path, depth + 1, want, max_ndim);
    path.pop_back();
  }
}

// Concatenates the lists at `depth` along axis depth - list_depth (counted from the end).
ndarray assemble(const Block& b, int depth, int list_depth, int result_ndim) {
  if (std::holds_alternative<ndarray>(b.item)) {
    const ndarray& a = std::get<ndarray>(b.item);
    Shape s(static_cast<std::size_t>(result_ndim - a.ndim()), 1);
    s.insert(s.end(), a.shape().begin(), a.shape().end());
    return reshape(a, s);
  }
  std::vector<ndarray> parts;
  for (const Block& item : std::get<std::vector<Block>>(b.item))
    parts.push_back(assemble(item, depth + 1, list_depth, result_ndim));
  return concatenate(parts, depth - list_depth);
}

}  // namespace

ndarray rot90(const ndarray& m, int k, const std::vector<int>& axes) {
  if (axes.size() != 2) throw ValueError("len(axes) must be 2.");
  const int nd = m.ndim();
  if (axes[0] == axes[1] || std::abs(axes[0] - axes[1]) == nd) throw ValueError("Axes must be different.");
  if (axes[0] >= nd || axes[0] < -nd || axes[1] >= nd || axes[1] < -nd)
    throw ValueError("Axes=" + tuple_str(axes) + " out of range for array of ndim=" + std::to_string(nd) + ".");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return m[{ellipsis}];
  if (k == 2) return flip(flip(m, std::vector<int>{axes[0]}), std::vector<int>{axes[1]});
  std::vector<int> perm(static_cast<std::size_t>(nd));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[(axes[0] + nd) % nd], perm[(axes[1] + nd) % nd]);
  if (k == 1) return transpose(flip(m, std::vector<int>{axes[1]}), perm);
  return flip(transpose(m, perm), std::vector<int>{axes[1]});
}

ndarray rollaxis(const ndarray& a, int axis, int start) {
  const int n = a.ndim();
  axis = normalize_axis(axis, n);
  if (start < 0) start += n;
  if (!(0 <= start && start < n + 1))
    throw AxisError("'start' arg requires " + std::to_string(-n) + " <= start < " + std::to_string(n + 1) +
                    ", but " + std::to_string(start) + " was passed in");
  if (axis < start) --start;
  if (axis == start) return a[{ellipsis}];
  std::vector<int> perm;
  for (int i = 0; i < n; ++i)
    if (i != axis) perm.push_back(i);
  perm.insert(perm.begin() + start, axis);
  return transpose(a, perm);
}

ndarray column_stack(const std::vector<ndarray>& tup) {
  std::vector<ndarray> cols;
  for (const ndarray& a : tup) cols.push_back(a.ndim() < 2 ? transpose(atleast_2d(a)) : a);
  return concatenate(cols, 1);
}

ndarray row_stack(const std::vector<ndarray>& tup) { return vstack(tup); }

ndarray dstack(const std::vector<ndarray>& tup) {
  std::vector<ndarray> parts;
  for (const ndarray& a : tup) parts.push_back(atleast_3d(a));
  return concatenate(parts, 2);
}

std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections) {
  return split_checked(a, sections, 1, "hsplit", a.ndim() > 1 ? 1 : 0);
}
std::vector<ndarray> hsplit(const ndarray& a, const std::vector<std::int64_t>& indices) {
  return split_checked(a, indices, 1, "hsplit", a.ndim() > 1 ? 1 : 0);
}
std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections) { return split_checked(a, sections, 2, "vsplit", 0); }
std::vector<ndarray> vsplit(const ndarray& a, const std::vector<std::int64_t>& indices) {
  return split_checked(a, indices, 2, "vsplit", 0);
}
std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections) { return split_checked(a, sections, 3, "dsplit", 2); }
std::vector<ndarray> dsplit(const ndarray& a, const std::vector<std::int64_t>& indices) {
  return split_checked(a, indices, 3, "dsplit", 2);
}

ndarray block(const Block& arrays) {
  const int list_depth = first_depth(arrays);
  int max_ndim = 0;
  std::vector<std::size_t> path;
  check_block(arrays, path, 0, list_depth, max_ndim);
  const int result_ndim = std::max(list_depth, max_ndim);
  if (list_depth == 0) return copy(std::get<ndarray>(arrays.item));  // block(a) copies a
  return assemble(arrays, 0, list_depth, result_ndim);
}

}  // namespace copper
