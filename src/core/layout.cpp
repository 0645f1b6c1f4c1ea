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

std::vector<int> keep_order_axes(const ndarray& a) {
  // NumPy's stable insertion sort over the axes innermost first, smallest |stride| first.
  const Strides& s = a.strides();
  std::vector<int> perm(a.ndim());
  for (int i = 0; i < a.ndim(); ++i) perm[i] = a.ndim() - 1 - i;
  for (int i0 = 1; i0 < a.ndim(); ++i0) {
    const int ax0 = perm[i0];
    int pos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int ax1 = perm[i1];
      if (s[ax0] == 0 || s[ax1] == 0) continue;  // ambiguous: look further in
      if (std::llabs(s[ax1]) <= std::llabs(s[ax0])) break;
      pos = i1;
    }
    if (pos != i0) {
      std::copy_backward(perm.begin() + pos, perm.begin() + i0, perm.begin() + i0 + 1);
      perm[pos] = ax0;
    }
  }
  std::reverse(perm.begin(), perm.end());
  return perm;
}

Strides keep_order_strides(const ndarray& a, std::int64_t itemsize) {
  const std::vector<int> axes = keep_order_axes(a);
  Strides out(a.ndim());
  std::int64_t step = itemsize;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
    out[*it] = step;
    step *= std::max<std::int64_t>(a.shape()[*it], 1);
  }
  return out;
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
