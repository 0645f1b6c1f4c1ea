// Shared statistics steps: weights along the reduced axes, rows of reduced values.
#include "api/statistics_support.h"

#include <algorithm>
#include <numeric>

#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper::api {

ndarray weights_for_axes(const ndarray& a, const Axes& axis, const ndarray& w) {
  if (w.shape() == a.shape()) return w;
  if (axis.all()) throw TypeError("Axis must be specified when shapes of a and weights differ.");
  std::vector<int> axes;
  for (int ax : axis.list()) axes.push_back(normalize_axis(ax, a.ndim()));
  for (std::size_t i = 0; i < axes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (axes[i] == axes[j]) throw ValueError("repeated axis");
  Shape expected;
  for (int ax : axes) expected.push_back(a.shape()[ax]);
  if (w.shape() != expected)
    throw ValueError("Shape of weights must be consistent with shape of a along specified axis.");
  // The weight axes in the order of the axes they belong to, length 1 everywhere else.
  std::vector<int> order(axes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) { return axes[i] < axes[j]; });
  Shape shape(a.ndim(), 1);
  for (int ax : axes) shape[ax] = a.shape()[ax];
  return w.transpose(order).reshape(shape);
}

ndarray reduced_rows(const ndarray& a, const ReducePlan& plan) {
  ndarray moved = ascontiguousarray(reduced_axes_last(a, plan));
  return moved.reshape(Shape{shape_size(plan.kept_shape), plan.count});
}

ndarray gather_in_rows(const ndarray& rows_in, const ndarray& pos) {
  ndarray rows = ascontiguousarray(rows_in);
  const std::int64_t nrows = rows.shape()[0], n = rows.shape()[1];
  ndarray base = multiply(arange(Scalar(nrows), int64, rows.device()), n).reshape({nrows, 1});
  ndarray flat = ascontiguousarray(add(pos, base), int64);
  ndarray out = allocate(flat.shape(), rows.dtype(), rows.device());
  if (flat.size() == 0) return out;
  // take_rows over the flattened rows: each position is one element.
  backend_of(rows).take_rows(backend::view_of(rows.reshape(Shape{nrows * n})),
                             backend::view_of(flat.reshape(Shape{flat.size()})),
                             backend::view_of(out.reshape(Shape{flat.size()})));
  return out;
}

}  // namespace copper::api
