// Python bindings for the range creators: arange, linspace, logspace, eye, identity.
#include <Python.h>

#include "api/creation_ranges.h"
#include "bindings.h"

namespace copper::python {

namespace {

// A range bound: Python or NumPy scalar, or a size-1 array (NumPy accepts 0-d arrays).
Scalar bound_from_py(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<const ndarray&>(obj).item();
  static nb::handle numpy_ndarray = nb::object(numpy().attr("ndarray")).release();
  if (PyObject_IsInstance(obj.ptr(), numpy_ndarray.ptr()) == 1) {
    nb::object scalar = obj.attr("dtype").attr("type")(obj.attr("item")());  // a 0-d array as a NumPy scalar
    return scalar_from_py(scalar);
  }
  return scalar_from_py(obj);
}

std::int64_t count_from_py(nb::handle obj) {
  Py_ssize_t n = PyNumber_AsSsize_t(obj.ptr(), PyExc_OverflowError);
  if (n == -1 && PyErr_Occurred()) throw nb::python_error();  // TypeError for floats, as NumPy
  return n;
}

[[noreturn]] void zero_division(const char* msg) {
  PyErr_SetString(PyExc_ZeroDivisionError, msg);
  throw nb::python_error();
}

}  // namespace

void bind_ranges(nb::module_& m) {
  m.def(
      "arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
        // arange(stop) / arange(start, stop[, step]), as NumPy's positional forms.
        Scalar lo = stop.is_none() ? Scalar(0) : bound_from_py(start);
        Scalar hi = stop.is_none() ? bound_from_py(start) : bound_from_py(stop);
        Scalar st = step.is_none() ? Scalar(1) : bound_from_py(step);
        if (st.to_complex() == std::complex<double>(0)) {
          zero_division(st.kind() == Kind::float_ ? "float division by zero" : "division by zero");
        }
        return arange(lo, hi, st, optional_dtype(dtype), device_from_py(device));
      },
      nb::arg("start"), nb::arg("stop") = nb::none(), nb::arg("step") = nb::none(), nb::arg("dtype") = nb::none(),
      nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, bool retstep, nb::handle dtype,
         int axis, nb::handle device) -> nb::object {
        Scalar lo = bound_from_py(start), hi = bound_from_py(stop);
        std::int64_t n = count_from_py(num);
        ndarray y = linspace(lo, hi, n, endpoint, optional_dtype(dtype), device_from_py(device));
        if (!retstep) return nb::cast(std::move(y));
        // NumPy returns the step as a scalar of the computation dtype, or NaN without one.
        std::optional<Scalar> step = api::linspace_step(lo, hi, n, endpoint);
        nb::object step_obj = step ? dtype_to_py(step->dtype()).attr("type")(scalar_to_py(*step))
                                   : nb::object(nb::float_(NAN));
        return nb::make_tuple(std::move(y), step_obj);
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
      nb::arg("retstep") = false, nb::arg("dtype") = nb::none(), nb::arg("axis") = 0, nb::kw_only(),
      nb::arg("device") = nb::none());
  m.def(
      "logspace",
      [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, double base, nb::handle dtype, int axis,
         nb::handle device) {
        return logspace(bound_from_py(start), bound_from_py(stop), count_from_py(num), endpoint, base,
                        optional_dtype(dtype), device_from_py(device));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true, nb::arg("base") = 10.0,
      nb::arg("dtype") = nb::none(), nb::arg("axis") = 0, nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "eye",
      [](nb::handle n, nb::handle mcols, nb::handle k, nb::handle dtype, nb::handle order, nb::handle device) {
        std::optional<std::int64_t> cols =
            mcols.is_none() ? std::nullopt : std::optional<std::int64_t>(count_from_py(mcols));
        DType t = dtype.is_none() ? float64 : dtype_from_py(dtype);
        return eye(count_from_py(n), cols, count_from_py(k), t, device_from_py(device));
      },
      nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
      nb::arg("order") = "C", nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "identity",
      [](nb::handle n, nb::handle dtype, nb::handle device) {
        return identity(count_from_py(n), dtype.is_none() ? float64 : dtype_from_py(dtype), device_from_py(device));
      },
      nb::arg("n"), nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
}

}  // namespace copper::python
