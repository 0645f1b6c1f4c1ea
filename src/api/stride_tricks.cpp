// numpy.lib.stride_tricks: as_strided and sliding_window_view, views with strides the
// caller chooses. Unlike NumPy, a view that would reach outside its array's memory raises
// (a GPU kernel reading past an allocation faults or reads another array).
#include <string>

#include "copper/errors.hpp"
#include "copper/manipulation.hpp"

namespace copper {

ndarray as_strided(const ndarray& x, std::optional<Shape> shape, std::optional<Strides> strides) {
  const Shape s = shape ? *shape : x.shape();
  // NumPy builds the view from x's array interface, whose strides are absent (C order)
  // when x is C-contiguous: a new shape alone then gets C strides.
  const Strides st = strides ? *strides : x.is_c_contiguous() ? c_strides(s, x.itemsize()) : x.strides();
  if (st.size() != s.size()) throw ValueError("mismatch in length of strides and shape");
  // The memptr constructor checks the dimensions and that every element lies in x's memory.
  try {
    const ndarray checked(s, x.dtype(), x.memptr(), st);
  } catch (const ValueError& e) {
    // Its own errors name the constructor; NumPy's (negative dimensions) pass unchanged.
    const std::string what = e.what();
    if (what.rfind("ndarray: ", 0) != 0) throw;
    throw ValueError("as_strided: " + what.substr(9));
  }
  return x.view_as(x.dtype(), s, st, x.offset());
}

ndarray sliding_window_view(const ndarray& x, const Shape& window_shape, std::optional<std::vector<int>> axis) {
  for (std::int64_t w : window_shape)
    if (w < 0) throw ValueError("`window_shape` cannot contain negative values");
  std::vector<int> axes;
  if (!axis) {
    if (static_cast<int>(window_shape.size()) != x.ndim())
      throw ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`; got " +
                       std::to_string(window_shape.size()) + " window_shape elements and `x.ndim` is " +
                       std::to_string(x.ndim()) + ".");
    for (int d = 0; d < x.ndim(); ++d) axes.push_back(d);
  } else {
    for (int a : *axis) axes.push_back(normalize_axis(a, x.ndim()));  // repeats allowed, as NumPy
    if (axes.size() != window_shape.size())
      throw ValueError("Must provide matching length window_shape and axis; got " +
                       std::to_string(window_shape.size()) + " window_shape elements and " +
                       std::to_string(axes.size()) + " axes elements.");
  }
  // The view's first axes are x's, shortened to where a window still fits; one more axis
  // per window entry steps along its axis of x.
  Shape shape = x.shape();
  Strides strides = x.strides();
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const auto ax = static_cast<std::size_t>(axes[k]);
    if (shape[ax] < window_shape[k]) throw ValueError("window shape cannot be larger than input array shape");
    shape[ax] -= window_shape[k] - 1;
    strides.push_back(x.strides()[ax]);
  }
  shape.insert(shape.end(), window_shape.begin(), window_shape.end());
  return as_strided(x, shape, strides);
}

}  // namespace copper
