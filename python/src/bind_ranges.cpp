// Python bindings for the range creators: arange, linspace, logspace, eye, identity.
#include <Python.h>

#include <limits>

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

// Bounds with dimensions (lists, arrays of ndim >= 1) take the array forms of linspace/logspace.
bool is_array_bound(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<const ndarray&>(obj).ndim() > 0;
  if (is_python_scalar(obj)) return false;
  return nb::cast<int>(numpy().attr("ndim")(obj)) > 0;
}

// eye's k: any Python int (offsets beyond every row or column just leave the matrix empty).
std::int64_t diagonal_from_py(nb::handle obj) {
  int overflow = 0;
  long long k = PyLong_AsLongLongAndOverflow(nb::int_(obj.attr("__index__")()).ptr(), &overflow);
  if (overflow) return overflow > 0 ? std::numeric_limits<std::int64_t>::max() / 2 : std::numeric_limits<std::int64_t>::min() / 2;
  return k;
}

[[noreturn]] void zero_division(const char* msg) {
  PyErr_SetString(PyExc_ZeroDivisionError, msg);
  throw nb::python_error();
}

}  // namespace

void bind_ranges(nb::module_& m) {
  m.def(
      "arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device, nb::handle like) {
        check_like(like);
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
      nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, bool retstep, nb::handle dtype,
         int axis, nb::handle device) -> nb::object {
        std::int64_t n = count_from_py(num);
        const Device dev = device_from_py(device);
        if (is_array_bound(start) || is_array_bound(stop)) {
          const operand lo = operand_from_py(start, dev), hi = operand_from_py(stop, dev);
          ndarray y = linspace(lo, hi, n, endpoint, optional_dtype(dtype), axis, dev);
          if (!retstep) return nb::cast(std::move(y));
          nb::object step = (endpoint ? n - 1 : n) > 0 ? nb::cast(api::linspace_steps(lo, hi, n, endpoint, dev))
                                                       : nb::object(nb::float_(NAN));
          return nb::make_tuple(std::move(y), step);
        }
        Scalar lo = bound_from_py(start), hi = bound_from_py(stop);
        ndarray y = linspace(lo, hi, n, endpoint, optional_dtype(dtype), dev);
        if (axis != 0 && axis != -1) throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension 1");
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
      [](nb::handle start, nb::handle stop, nb::handle num, bool endpoint, nb::handle base, nb::handle dtype, int axis,
         nb::handle device) {
        const Device dev = device_from_py(device);
        if (is_array_bound(start) || is_array_bound(stop) || is_array_bound(base)) {
          return logspace(operand_from_py(start, dev), operand_from_py(stop, dev), count_from_py(num), endpoint,
                          operand_from_py(base, dev), optional_dtype(dtype), axis, dev);
        }
        if (axis != 0 && axis != -1) throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension 1");
        return logspace(bound_from_py(start), bound_from_py(stop), count_from_py(num), endpoint,
                        nb::cast<double>(base), optional_dtype(dtype), dev);
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true, nb::arg("base") = 10.0,
      nb::arg("dtype") = nb::none(), nb::arg("axis") = 0, nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "eye",
      [](nb::handle n, nb::handle mcols, nb::handle k, nb::handle dtype, nb::handle order, nb::handle device,
         nb::handle like) {
        check_like(like);
        std::optional<std::int64_t> cols =
            mcols.is_none() ? std::nullopt : std::optional<std::int64_t>(count_from_py(mcols));
        DType t = native_dtype_from_py(dtype);
        Order o = order_from_py(order, Order::C);
        if (o != Order::C && o != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
        return eye(count_from_py(n), cols, diagonal_from_py(k), t, o, device_from_py(device));
      },
      nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
      nb::arg("order").none() = "C", nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "identity",
      [](nb::handle n, nb::handle dtype, nb::handle like, nb::handle device) {
        check_like(like);
        return identity(count_from_py(n), dtype.is_none() ? float64 : dtype_from_py(dtype), device_from_py(device));
      },
      nb::arg("n"), nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("like") = nb::none(),
      nb::arg("device") = nb::none());
}

}  // namespace copper::python
