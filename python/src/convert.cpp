#include "convert.h"

#include <Python.h>

#include "interop.h"

#include <cstring>

namespace copper::python {

// Module-lifetime Python objects are held as leaked handles: a static nb::object
// would be released after the interpreter is gone, crashing at exit.
nb::handle numpy() {
  static nb::handle np = nb::module_::import_("numpy").release();
  return np;
}

nb::object dtype_to_py(DType t) {
  static nb::handle cache[num_dtypes];
  nb::handle& o = cache[static_cast<int>(t)];
  if (!o.is_valid()) o = nb::object(numpy().attr("dtype")(std::string(name(t)))).release();
  return nb::borrow(o);
}

DType dtype_from_py(nb::handle obj) {
  if (obj.is_none()) return float64;  // numpy.dtype(None) is float64
  nb::object d;
  try {
    d = numpy().attr("dtype")(obj);
  } catch (nb::python_error& e) {
    throw TypeError("data type " + std::string(nb::str(nb::repr(obj)).c_str()) + " not understood");
  }
  std::string code = nb::cast<std::string>(d.attr("char"));
  if (code.size() != 1) throw TypeError("unsupported dtype " + std::string(nb::str(d).c_str()));
  try {
    return dtype_from_char(code[0]);
  } catch (const TypeError&) {
    throw TypeError("copper does not support dtype('" + std::string(nb::str(d).c_str()) + "')");
  }
}

std::optional<DType> optional_dtype(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return std::nullopt;
  return dtype_from_py(obj);
}

Device device_from_py(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return default_device();
  if (nb::isinstance<Device>(obj)) return nb::cast<Device>(obj);
  if (nb::isinstance<nb::str>(obj)) return parse_device(nb::cast<std::string>(obj));
  if (nb::isinstance<nb::int_>(obj)) return Device{DeviceType::cuda, nb::cast<int>(obj)};
  throw TypeError("device must be a string such as 'cpu' or 'cuda:0', or a copper.Device");
}

Casting casting_from_py(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return Casting::same_kind;
  return casting_from_name(nb::cast<std::string>(obj));
}

Device device_of(std::span<const nb::handle> objects) {
  for (nb::handle h : objects)
    if (h.is_valid() && nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h).device();
  return default_device();
}

bool is_python_scalar(nb::handle obj) {
  return PyBool_Check(obj.ptr()) || PyLong_CheckExact(obj.ptr()) || PyFloat_CheckExact(obj.ptr()) ||
         PyComplex_CheckExact(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr()) ||
         PyComplex_Check(obj.ptr());
}

namespace {
bool is_numpy_scalar(nb::handle obj) {
  static nb::handle generic = nb::object(numpy().attr("generic")).release();
  return PyObject_IsInstance(obj.ptr(), generic.ptr()) == 1;
}

Scalar python_int(nb::handle obj) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (!overflow) return Scalar(static_cast<std::int64_t>(v));
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
    if (!PyErr_Occurred()) return Scalar(static_cast<std::uint64_t>(u));
    PyErr_Clear();
  }
  throw OverflowError("Python integer " + std::string(nb::str(obj).c_str()) + " out of bounds for int64");
}
}  // namespace

Scalar scalar_from_py(nb::handle obj) {
  PyObject* p = obj.ptr();
  if (PyBool_Check(p)) return Scalar(p == Py_True);
  if (is_numpy_scalar(obj)) {
    DType t = dtype_from_py(obj.attr("dtype"));
    nb::object value = obj.attr("item")();
    return Scalar::typed(scalar_from_py(value), t);
  }
  if (PyLong_Check(p)) return python_int(obj);
  if (PyFloat_Check(p)) return Scalar(PyFloat_AsDouble(p));
  if (PyComplex_Check(p)) return Scalar(std::complex<double>(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p)));
  // Objects with __index__/__float__ (e.g. 0-d arrays of other libraries) are not scalars here.
  throw TypeError("expected a scalar, got " + std::string(nb::str(nb::type_name(obj.type())).c_str()));
}

nb::object scalar_to_py(const Scalar& s) {
  switch (s.kind()) {
    case Kind::bool_: return nb::bool_(s.to_bool());
    case Kind::int_: return nb::int_(s.to_int64());
    case Kind::uint_: return nb::steal(PyLong_FromUnsignedLongLong(s.to_uint64()));
    case Kind::float_: return nb::float_(s.to_double());
    case Kind::complex_: {
      auto c = s.to_complex();
      return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
    }
  }
  return nb::none();
}

ndarray array_from_py(nb::handle obj, std::optional<DType> dtype, Device device) {
  if (nb::isinstance<ndarray>(obj)) return asarray(nb::cast<const ndarray&>(obj), dtype, device);
  // Other libraries' GPU arrays come in without a copy (python/src/interop_import.cpp).
  if (auto imported = from_cuda_array_interface(obj)) return asarray(*imported, dtype, device);
  if (is_gpu_dlpack_producer(obj)) return asarray(from_dlpack_object(obj), dtype, device);
  nb::object np_arr = dtype ? numpy().attr("ascontiguousarray")(obj, dtype_to_py(*dtype))
                            : numpy().attr("ascontiguousarray")(obj);
  // numpy.ascontiguousarray turns 0-d input into 1-d; keep NumPy's asarray shape.
  nb::object shape_src = numpy().attr("shape")(obj);
  DType t = dtype_from_py(np_arr.attr("dtype"));
  Shape shape = shape_from_py(shape_src);
  Py_buffer view;
  if (PyObject_GetBuffer(np_arr.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) throw nb::python_error();
  try {
    ndarray a = array(view.buf, shape, t, device);
    PyBuffer_Release(&view);
    return a;
  } catch (...) {
    PyBuffer_Release(&view);
    throw;
  }
}

operand operand_from_py(nb::handle obj, Device device) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<const ndarray&>(obj);
  PyObject* p = obj.ptr();
  if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p)) {
    if (!is_numpy_scalar(obj)) return scalar_from_py(obj);
  }
  return array_from_py(obj, std::nullopt, device);
}

nb::object to_numpy(const ndarray& a) {
  nb::tuple shape = nb::tuple(nb::cast(a.shape()));
  nb::object out = numpy().attr("empty")(shape, dtype_to_py(a.dtype()));
  if (a.size() == 0) return out;
  Py_buffer view;
  if (PyObject_GetBuffer(out.ptr(), &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) != 0) throw nb::python_error();
  try {
    nb::gil_scoped_release release;
    a.copy_to_host(view.buf);
  } catch (...) {
    PyBuffer_Release(&view);
    throw;
  }
  PyBuffer_Release(&view);
  return out;
}

Shape shape_from_py(nb::handle obj) {
  if (PyLong_Check(obj.ptr()) || nb::hasattr(obj, "__index__")) {
    if (!nb::isinstance<nb::tuple>(obj) && !nb::isinstance<nb::list>(obj)) {
      return Shape{nb::cast<std::int64_t>(obj.attr("__index__")())};
    }
  }
  Shape s;
  for (nb::handle item : obj) {
    if (!PyLong_Check(item.ptr()) && !nb::hasattr(item, "__index__"))
      throw TypeError("'" + std::string(nb::str(nb::type_name(item.type())).c_str()) +
                      "' object cannot be interpreted as an integer");
    s.push_back(nb::cast<std::int64_t>(item.attr("__index__")()));
  }
  return s;
}

std::optional<std::vector<int>> axes_from_py(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return std::nullopt;
  if (PyLong_Check(obj.ptr()) || (nb::hasattr(obj, "__index__") && !nb::isinstance<nb::tuple>(obj)))
    return std::vector<int>{nb::cast<int>(obj.attr("__index__")())};
  std::vector<int> axes;
  for (nb::handle item : obj) axes.push_back(nb::cast<int>(item.attr("__index__")()));
  return axes;
}

}  // namespace copper::python
