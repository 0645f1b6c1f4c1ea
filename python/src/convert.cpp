#include "convert.h"

#include <Python.h>

#include "interop.h"

#include <cstring>

#include "core/layout.h"

namespace copper::python {

// Module-lifetime Python objects are held as leaked handles: a static nb::object
// would be released after the interpreter is gone, crashing at exit.
nb::handle numpy() {
  static nb::handle np = nb::module_::import_("numpy").release();
  return np;
}

nb::handle no_value() {
  static nb::handle v = nb::object(numpy().attr("_NoValue")).release();
  return v;
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

DType native_dtype_from_py(nb::handle obj) {
  if (obj.is_valid() && !obj.is_none()) {
    nb::object d = numpy().attr("dtype")(obj);
    if (!nb::cast<bool>(d.attr("isnative")))
      throw ValueError("copper arrays hold data in the machine's byte order; dtype('" +
                       std::string(nb::str(d.attr("str")).c_str()) + "') has a non-native byte-order");
  }
  return dtype_from_py(obj);
}

std::optional<DType> optional_native_dtype(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return std::nullopt;
  return native_dtype_from_py(obj);
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

Order order_from_py(nb::handle obj, Order if_none) {
  if (!obj.is_valid() || obj.is_none()) return if_none;
  if (!nb::isinstance<nb::str>(obj))
    throw TypeError("order must be str, not " + std::string(nb::str(nb::type_name(obj.type())).c_str()));
  return order_from_name(nb::cast<std::string>(obj));
}

void check_like(nb::handle like) {
  if (!like.is_valid() || like.is_none() || nb::isinstance<ndarray>(like) || nb::hasattr(like, "__array_function__"))
    return;
  throw TypeError("The `like` argument must be an array-like that implements the `__array_function__` protocol.");
}

std::optional<bool> copy_flag_from_py(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return std::nullopt;
  if (nb::isinstance<nb::str>(obj))  // copy='False' would read as True
    throw ValueError("strings are not allowed for 'copy' keyword. Use True/False/None instead.");
  const int truth = PyObject_IsTrue(obj.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
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
  return host_array_from_py(obj, dtype, device, Order::C, 0, std::nullopt, false);
}

namespace {
// The copper dtype of a NumPy array headed for a device. copper lacks object, structured
// and string dtypes: array() and asarray() reject them with ValueError (as CuPy), operands
// of other functions with TypeError (as NumPy's ufuncs).
DType transferable_dtype(nb::handle np_dtype, bool value_error) {
  try {
    return dtype_from_py(np_dtype);
  } catch (const TypeError&) {
    if (!value_error) throw;
    throw ValueError("Unsupported dtype " + std::string(nb::str(np_dtype).c_str()));
  }
}

// A NumPy array on `device` with the same strides, copied as raw bytes: it must be dense
// (its elements fill its memory exactly: C, F or any axis order with positive strides) or
// empty.
ndarray upload(nb::handle host, const ndarray& layout, Device device) {
  if (layout.size() == 0) return ndarray(empty({0}, layout.dtype(), device).buffer(), layout.dtype(), layout.shape(),
                                         layout.strides(), 0);
  Py_buffer view;
  if (PyObject_GetBuffer(host.ptr(), &view, PyBUF_STRIDED_RO) != 0) throw nb::python_error();
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  ndarray bytes = array(view.buf, Shape{layout.nbytes()}, uint8, device);
  return ndarray(bytes.buffer(), layout.dtype(), layout.shape(), layout.strides(), 0);
}

// The strides NumPy gives a new copy of `a` in `order` (new empty arrays: all zero).
Strides numpy_copy_strides(const ndarray& a, Order order) {
  if (a.size() == 0) return Strides(a.shape().size(), 0);
  return layout::strides_like(a, a.shape(), a.itemsize(), order);
}
}  // namespace

ndarray host_array_from_py(nb::handle obj, std::optional<DType> dtype, Device device, Order order, int ndmin,
                           std::optional<bool> copy, bool conversion) {
  nb::object np = nb::borrow(numpy());
  const char* order_name = name(order).data();
  // NumPy's own asarray result: obj itself when it already fits, else NumPy's conversion.
  nb::object host = np.attr("array")(obj, nb::arg("dtype") = dtype ? dtype_to_py(*dtype) : nb::none(),
                                     nb::arg("copy") = nb::none(), nb::arg("order") = order_name);
  nb::object descr = host.attr("dtype");
  if (!nb::cast<bool>(descr.attr("isnative"))) {  // big-endian data: swap on the host first
    host = host.attr("astype")(descr.attr("newbyteorder")("="));
    descr = host.attr("dtype");
  }
  const DType t = transferable_dtype(descr, conversion);
  ndarray layout(nullptr, t, nb::cast<Shape>(host.attr("shape")), nb::cast<Strides>(host.attr("strides")), 0);
  // The device array is a copy: laid out as NumPy lays out its result when that is new, and
  // as NumPy's copy of obj (order=) when NumPy handed obj back.
  const bool numpy_copied = !host.is(obj);
  const bool keep = layout.size() == 0 ? numpy_copied || !copy.value_or(false)
                                       : layout::is_dense(layout) &&
                                             (numpy_copied || !copy.value_or(false) ||
                                              layout.strides() == numpy_copy_strides(layout, order));
  if (!keep) {
    host = np.attr("array")(host, nb::arg("order") = order_name, nb::arg("copy") = true);
    layout = ndarray(nullptr, t, layout.shape(), nb::cast<Strides>(host.attr("strides")), 0);
  }
  // ndmin's leading axes on the device, as NumPy adds them to its result.
  return array(upload(host, layout, device), std::nullopt, std::nullopt, order, ndmin);
}

ndarray layout_of_numpy(nb::handle np_array) {
  const DType t = dtype_from_py(np_array.attr("dtype").attr("newbyteorder")("="));
  return ndarray(nullptr, t, nb::cast<Shape>(np_array.attr("shape")), nb::cast<Strides>(np_array.attr("strides")), 0);
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
  if (obj.is_none()) throw TypeError("Use () not None as shape arguments");
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
  // An axis is an integer (operator.index); a string is not a sequence of axes.
  auto index = [](nb::handle item) {
    if (!PyLong_Check(item.ptr()) && !nb::hasattr(item, "__index__"))
      throw TypeError("'" + std::string(nb::str(nb::type_name(item.type())).c_str()) +
                      "' object cannot be interpreted as an integer");
    return nb::cast<int>(item.attr("__index__")());
  };
  if (PyLong_Check(obj.ptr()) || nb::isinstance<nb::str>(obj) ||
      (nb::hasattr(obj, "__index__") && !nb::isinstance<nb::tuple>(obj)))
    return std::vector<int>{index(obj)};
  std::vector<int> axes;
  for (nb::handle item : obj) axes.push_back(index(item));
  return axes;
}

}  // namespace copper::python
