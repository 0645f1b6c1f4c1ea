// Array creation from Python: shapes, dtypes and devices as NumPy and CuPy take them.
#include "bindings.h"

namespace copper::python {

void bind_creation(nb::module_& m) {
  auto shape_dtype = [](auto fn) {
    return [fn](nb::handle shape, nb::handle dtype, nb::handle device) {
      return fn(shape_from_py(shape), dtype.is_none() ? float64 : dtype_from_py(dtype), device_from_py(device));
    };
  };
  m.def("empty", shape_dtype([](const Shape& s, DType t, Device d) { return empty(s, t, d); }), nb::arg("shape"),
        nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def("zeros", shape_dtype([](const Shape& s, DType t, Device d) { return zeros(s, t, d); }), nb::arg("shape"),
        nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def("ones", shape_dtype([](const Shape& s, DType t, Device d) { return ones(s, t, d); }), nb::arg("shape"),
        nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
        Device dev = device_from_py(device);
        if (!is_python_scalar(fill_value) && !nb::hasattr(fill_value, "dtype")) {
          throw TypeError("full: fill_value must be a scalar");
        }
        if (nb::isinstance<ndarray>(fill_value)) {
          const ndarray& v = nb::cast<const ndarray&>(fill_value);
          DType t = dtype.is_none() ? v.dtype() : dtype_from_py(dtype);
          ndarray out = empty(shape_from_py(shape), t, dev);
          copyto(out, v, Casting::unsafe);
          return out;
        }
        return full(shape_from_py(shape), scalar_from_py(fill_value), optional_dtype(dtype), dev);
      },
      nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def("empty_like", [](const ndarray& a, nb::handle dtype) { return empty_like(a, optional_dtype(dtype)); },
        nb::arg("a"), nb::arg("dtype") = nb::none());
  m.def("zeros_like", [](const ndarray& a, nb::handle dtype) { return zeros_like(a, optional_dtype(dtype)); },
        nb::arg("a"), nb::arg("dtype") = nb::none());
  m.def("ones_like", [](const ndarray& a, nb::handle dtype) { return ones_like(a, optional_dtype(dtype)); },
        nb::arg("a"), nb::arg("dtype") = nb::none());
  m.def(
      "full_like",
      [](const ndarray& a, nb::handle fill_value, nb::handle dtype) {
        return full_like(a, scalar_from_py(fill_value), optional_dtype(dtype));
      },
      nb::arg("a"), nb::arg("fill_value"), nb::arg("dtype") = nb::none());
  m.def(
      "asarray",
      [](nb::handle obj, nb::handle dtype, nb::handle device) {
        return array_from_py(obj, optional_dtype(dtype), device_from_py(device));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def(
      "array",
      [](nb::handle obj, nb::handle dtype, bool copy, nb::handle device) {
        ndarray a = array_from_py(obj, optional_dtype(dtype), device_from_py(device));
        if (copy && shares_memory_with_source(obj, a)) return a.copy();
        return a;
      },
      nb::arg("obj"), nb::arg("dtype") = nb::none(), nb::arg("copy") = true, nb::arg("device") = nb::none());
  m.def("ascontiguousarray",
        [](const ndarray& a, nb::handle dtype) { return ascontiguousarray(a, optional_dtype(dtype)); },
        nb::arg("a"), nb::arg("dtype") = nb::none());
  m.def("copy", [](const ndarray& a) { return copy(a); });
}

}  // namespace copper::python
