#include "core/layout.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "copper/errors.hpp"

namespace copper {

Order order_from_name(std::string_view name) {
  if (name.size() == 1) {
    switch (name[0]) {
      case 'C': case 'c': return Order::C;
      case 'F': case 'f': return Order::F;
      case 'A': case 'a': return Order::A;
      case 'K': case 'k': return Order::K;
      default: break;
    }
  }
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + std::string(name) + "')");
}

std::string_view name(Order order) {
  switch (order) {
    case Order::C: return "C";
    case Order::F: return "F";
    case Order::A: return "A";
    case Order::K: return "K";
  }
  return "?";
}

namespace layout {

bool is_fortran(const ndarray& a) { return a.is_f_contiguous() && !a.is_c_contiguous(); }

Strides compact_strides(const Shape& shape, std::int64_t itemsize, Order order) {
  return order == Order::F ? f_strides(shape, itemsize) : c_strides(shape, itemsize);
}

Strides strides_like(const ndarray& source, const Shape& shape, std::int64_t itemsize, Order order) {
  if (order == Order::A) order = is_fortran(source) ? Order::F : Order::C;
  if (order == Order::K) {
    if (source.is_c_contiguous() || static_cast<int>(shape.size()) != source.ndim()) {
      order = Order::C;
    } else if (source.is_f_contiguous()) {
      order = Order::F;
    } else {
      // Axes from the largest |stride| to the smallest; equal strides keep their order.
      std::vector<int> perm(shape.size());
      std::iota(perm.begin(), perm.end(), 0);
      const Strides& s = source.strides();
      std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) { return std::llabs(s[x]) > std::llabs(s[y]); });
      Strides out(shape.size());
      std::int64_t step = itemsize;
      for (auto it = perm.rbegin(); it != perm.rend(); ++it) {
        out[*it] = step;
        step *= std::max<std::int64_t>(shape[*it], 1);
      }
      return out;
    }
  }
  return compact_strides(shape, itemsize, order);
}

bool is_dense(const ndarray& a) {
  if (a.is_c_contiguous() || a.is_f_contiguous()) return true;
  std::vector<int> axes;
  for (int i = 0; i < a.ndim(); ++i)
    if (a.shape()[i] != 1) axes.push_back(i);
  const Strides& s = a.strides();
  std::sort(axes.begin(), axes.end(), [&](int x, int y) { return s[x] < s[y]; });
  std::int64_t expected = a.itemsize();
  for (int ax : axes) {
    if (s[ax] != expected) return false;
    expected *= a.shape()[ax];
  }
  return true;
}

}  // namespace layout
}  // namespace copper
