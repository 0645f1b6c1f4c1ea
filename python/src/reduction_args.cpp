// Python arguments shared by the reduction, statistics and histogram bindings.
#include "reduction_args.h"

#include <Python.h>

namespace copper::python {

int index_from_py(nb::handle obj) {
  PyObject* i = PyNumber_Index(obj.ptr());
  if (!i) throw nb::python_error();
  return nb::cast<int>(nb::steal(i));
}

// A tuple is never the 0-d array's lone "axis 0" that NumPy tolerates for an int.
Axes axes_arg(nb::handle axis, int ndim) {
  if (axis.is_none()) return Axes();
  if (nb::isinstance<nb::tuple>(axis) || nb::isinstance<nb::list>(axis)) {
    std::vector<int> axes;
    for (nb::handle item : axis) axes.push_back(index_from_py(item));
    if (ndim == 0)
      for (int ax : axes) normalize_axis(ax, 0);
    return Axes(std::move(axes));
  }
  return Axes(index_from_py(axis));
}

std::optional<int> single_axis_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return index_from_py(axis);
}

std::optional<ndarray> out_arg(nb::handle out, const char* not_an_array) {
  if (!out.is_valid() || out.is_none()) return std::nullopt;
  if (!nb::isinstance<ndarray>(out)) throw TypeError(not_an_array);
  return nb::cast<ndarray>(out);
}

nb::object with_out(ndarray result, nb::handle out) {
  return out.is_none() ? nb::cast(std::move(result)) : nb::borrow(out);
}

ndarray array_arg(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<ndarray>(a);
  return array_from_py(a, std::nullopt, default_device());
}

std::optional<ndarray> where_arg(nb::handle where, Device device) {
  if (where.ptr() == Py_True) return std::nullopt;
  if (nb::isinstance<ndarray>(where)) return nb::cast<ndarray>(where);
  const bool listed = PyBool_Check(where.ptr()) || PyList_Check(where.ptr()) || PyTuple_Check(where.ptr());
  return array_from_py(where, listed ? std::optional<DType>(bool_) : std::nullopt, device);
}

std::optional<ndarray> optional_array_arg(nb::handle a, Device device) {
  if (a.is_none()) return std::nullopt;
  if (nb::isinstance<ndarray>(a)) return nb::cast<ndarray>(a);
  return array_from_py(a, std::nullopt, device);
}

}  // namespace copper::python
