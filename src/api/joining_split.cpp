// split and array_split: views of consecutive slices along one axis.
#include "copper/manipulation.hpp"

namespace copper {

namespace {

// Python slicing semantics for each piece: a[prev:idx], indices may be negative or past the end.
std::vector<ndarray> split_at(const ndarray& a, const std::vector<std::int64_t>& indices, int axis_arg) {
  int axis = normalize_axis(axis_arg, a.ndim());
  std::vector<ndarray> pieces;
  std::optional<std::int64_t> prev = 0;
  for (std::size_t i = 0; i <= indices.size(); ++i) {
    std::optional<std::int64_t> next = i < indices.size() ? std::optional(indices[i]) : std::nullopt;
    Index index(axis, Slice());
    index.push_back(Slice(prev, next));
    pieces.push_back(a[index]);
    prev = next;
  }
  return pieces;
}

}  // namespace

std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis) {
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  const std::int64_t n = a.shape()[normalize_axis(axis, a.ndim())];
  // The first n % sections pieces are one longer than the rest.
  const std::int64_t each = n / sections, extras = n % sections;
  std::vector<std::int64_t> bounds;
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i + 1 < sections; ++i) {
    pos += each + (i < extras ? 1 : 0);
    bounds.push_back(pos);
  }
  return split_at(a, bounds, axis);
}

std::vector<ndarray> array_split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis) {
  return split_at(a, indices, axis);
}

std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis) {
  if (sections > 0 && a.shape()[normalize_axis(axis, a.ndim())] % sections != 0)
    throw ValueError("array split does not result in an equal division");
  return array_split(a, sections, axis);
}

std::vector<ndarray> split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis) {
  return split_at(a, indices, axis);
}

}  // namespace copper
