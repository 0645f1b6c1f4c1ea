// Python bindings for the format family: repr/str/format of arrays, print options, tolist.
#include <Python.h>

#include <cmath>
#include <cstring>

#include "bindings.h"
#include "ops/scalar_types.h"

namespace copper::python {

namespace {

// One element at `p` as the Python scalar tolist() gives (bool, int, float, complex).
PyObject* element_to_py(DType t, const unsigned char* p) {
  auto load = [p]<class T>() {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  };
  switch (t) {
    case DType::bool_: return PyBool_FromLong(*p != 0);
    case DType::int8: return PyLong_FromLong(load.template operator()<std::int8_t>());
    case DType::uint8: return PyLong_FromLong(load.template operator()<std::uint8_t>());
    case DType::int16: return PyLong_FromLong(load.template operator()<std::int16_t>());
    case DType::uint16: return PyLong_FromLong(load.template operator()<std::uint16_t>());
    case DType::int32: return PyLong_FromLong(load.template operator()<std::int32_t>());
    case DType::uint32: return PyLong_FromUnsignedLong(load.template operator()<std::uint32_t>());
    case DType::int64: return PyLong_FromLongLong(load.template operator()<std::int64_t>());
    case DType::uint64: return PyLong_FromUnsignedLongLong(load.template operator()<std::uint64_t>());
    case DType::float16: return PyFloat_FromDouble(ops::half_to_float(ops::half{load.template operator()<std::uint16_t>()}));
    case DType::float32: return PyFloat_FromDouble(load.template operator()<float>());
    case DType::float64: return PyFloat_FromDouble(load.template operator()<double>());
    case DType::complex64: {
      auto c = load.template operator()<ops::complex<float>>();
      return PyComplex_FromDoubles(c.re, c.im);
    }
    case DType::complex128: {
      auto c = load.template operator()<ops::complex<double>>();
      return PyComplex_FromDoubles(c.re, c.im);
    }
  }
  return nullptr;
}

// Nested lists over axes [axis, ndim) of a C-ordered host copy.
nb::object nested_list(const ndarray& a, const unsigned char* data, int axis) {
  if (axis == a.ndim()) {
    PyObject* o = element_to_py(a.dtype(), data);
    if (!o) throw nb::python_error();
    return nb::steal(o);
  }
  const std::int64_t n = a.shape()[axis];
  std::int64_t step = a.itemsize();
  for (int d = axis + 1; d < a.ndim(); ++d) step *= a.shape()[d];
  nb::object list = nb::steal(PyList_New(static_cast<Py_ssize_t>(n)));
  if (!list.is_valid()) throw nb::python_error();
  for (std::int64_t i = 0; i < n; ++i)
    PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i), nested_list(a, data + i * step, axis + 1).release().ptr());
  return list;
}

nb::object tolist(const ndarray& a) {
  std::vector<unsigned char> host(static_cast<std::size_t>(std::max<std::int64_t>(a.nbytes(), a.itemsize())));
  {
    nb::gil_scoped_release release;
    a.copy_to_host(host.data());
  }
  return nested_list(a, host.data(), 0);
}

// NumPy's checks, in NumPy's order, before anything changes.
PrintOptions options_from_py(nb::handle precision, nb::handle threshold, nb::handle edgeitems, nb::handle linewidth,
                             nb::handle suppress, nb::handle nanstr, nb::handle infstr, nb::handle formatter,
                             nb::handle sign, nb::handle floatmode, nb::handle legacy, nb::handle override_repr) {
  PrintOptions o = get_printoptions();
  if (!floatmode.is_none()) {
    if (!nb::isinstance<nb::str>(floatmode)) floatmode_from_name("");
    o.floatmode = floatmode_from_name(nb::cast<std::string>(floatmode));
  }
  if (!sign.is_none()) {
    std::string s = nb::isinstance<nb::str>(sign) ? nb::cast<std::string>(sign) : "";
    if (s != "-" && s != "+" && s != " ") throw ValueError("sign option must be one of ' ', '+', or '-'");
    o.sign = s[0];
  }
  if (!legacy.is_none() && !(PyBool_Check(legacy.ptr()) && legacy.ptr() == Py_False))
    throw NotImplementedError("copper prints only in NumPy 2's current style (legacy=False)");
  if (!formatter.is_none()) throw NotImplementedError("copper does not support custom formatters");
  if (!override_repr.is_none()) throw NotImplementedError("copper does not support override_repr");
  if (!threshold.is_none()) {
    static nb::handle number = nb::object(nb::module_::import_("numbers").attr("Number")).release();
    if (PyObject_IsInstance(threshold.ptr(), number.ptr()) != 1) throw TypeError("threshold must be numeric");
    double t = nb::cast<double>(nb::float_(threshold));
    if (std::isnan(t))
      throw ValueError("threshold must be non-NAN, try sys.maxsize for untruncated representation");
    // Sizes are whole numbers, so size > t is size > floor(t).
    if (PyLong_Check(threshold.ptr())) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(threshold.ptr(), &overflow);
      o.threshold = overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : v;
    } else {
      o.threshold = t >= 9.2e18 ? INT64_MAX : t <= -9.2e18 ? INT64_MIN : static_cast<std::int64_t>(std::floor(t));
    }
  }
  if (!precision.is_none()) {
    PyObject* index = PyNumber_Index(precision.ptr());
    if (!index) {
      PyErr_Clear();
      throw TypeError("precision must be an integer");
    }
    o.precision = static_cast<int>(PyLong_AsLong(index));
    Py_DECREF(index);
  }
  if (!edgeitems.is_none()) o.edgeitems = nb::cast<int>(edgeitems);
  if (!linewidth.is_none()) o.linewidth = nb::cast<int>(linewidth);
  if (!suppress.is_none()) o.suppress = PyObject_IsTrue(suppress.ptr()) == 1;
  if (!nanstr.is_none()) o.nanstr = nb::cast<std::string>(nanstr);
  if (!infstr.is_none()) o.infstr = nb::cast<std::string>(infstr);
  return o;
}

// Per-call overrides of array_repr / array_str (max_line_width, precision, suppress_small).
PrintOptions with_overrides(nb::handle max_line_width, nb::handle precision, nb::handle suppress_small) {
  nb::handle none = nb::none();
  return options_from_py(precision, none, none, max_line_width, suppress_small, none, none, none, none, none, none,
                         none);
}

}  // namespace

void bind_format(nb::module_& m, ArrayClass& cls) {
  cls.def("__repr__", [](const ndarray& a) { return array_repr(a); })
      .def("__str__", [](const ndarray& a) { return array_str(a); })
      .def("__format__",
           [](const ndarray& a, nb::str spec) -> nb::object {
             // 0-d arrays format as their Python scalar; others only with an empty spec.
             if (a.ndim() == 0) {
               nb::object item = scalar_to_py(a.item());
               PyObject* r = PyObject_Format(item.ptr(), spec.ptr());
               if (!r) throw nb::python_error();
               return nb::steal(r);
             }
             if (nb::len(spec) != 0) throw TypeError("unsupported format string passed to copper.ndarray.__format__");
             return nb::str(array_str(a).c_str());
           })
      .def("tolist", &tolist);

  nb::handle none = nb::none();
  m.def(
      "_set_printoptions",
      [](nb::handle precision, nb::handle threshold, nb::handle edgeitems, nb::handle linewidth, nb::handle suppress,
         nb::handle nanstr, nb::handle infstr, nb::handle formatter, nb::handle sign, nb::handle floatmode,
         nb::handle legacy, nb::handle override_repr) {
        set_printoptions(options_from_py(precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr,
                                         formatter, sign, floatmode, legacy, override_repr));
      },
      nb::arg("precision").none() = none, nb::arg("threshold").none() = none, nb::arg("edgeitems").none() = none,
      nb::arg("linewidth").none() = none, nb::arg("suppress").none() = none, nb::arg("nanstr").none() = none, nb::arg("infstr").none() = none,
      nb::arg("formatter").none() = none, nb::arg("sign").none() = none, nb::arg("floatmode").none() = none, nb::arg("legacy").none() = none,
      nb::arg("override_repr").none() = none);
  m.def("_get_printoptions", []() {
    PrintOptions o = get_printoptions();
    nb::dict d;
    d["edgeitems"] = o.edgeitems;
    d["threshold"] = o.threshold;
    d["floatmode"] = std::string(name(o.floatmode));
    d["precision"] = o.precision;
    d["suppress"] = o.suppress;
    d["linewidth"] = o.linewidth;
    d["nanstr"] = o.nanstr;
    d["infstr"] = o.infstr;
    d["sign"] = std::string(1, o.sign);
    d["formatter"] = nb::none();
    d["legacy"] = false;
    d["override_repr"] = nb::none();
    return d;
  });
  m.def(
      "array_repr",
      [](const ndarray& a, nb::handle max_line_width, nb::handle precision, nb::handle suppress_small) {
        return array_repr(a, with_overrides(max_line_width, precision, suppress_small));
      },
      nb::arg("arr"), nb::arg("max_line_width").none() = none, nb::arg("precision").none() = none,
      nb::arg("suppress_small").none() = none);
  m.def(
      "array_str",
      [](const ndarray& a, nb::handle max_line_width, nb::handle precision, nb::handle suppress_small) {
        return array_str(a, with_overrides(max_line_width, precision, suppress_small));
      },
      nb::arg("a"), nb::arg("max_line_width").none() = none, nb::arg("precision").none() = none,
      nb::arg("suppress_small").none() = none);
  m.def(
      "array2string",
      [](const ndarray& a, nb::handle max_line_width, nb::handle precision, nb::handle suppress_small,
         const std::string& separator, const std::string& prefix, nb::handle formatter, nb::handle threshold,
         nb::handle edgeitems, nb::handle sign, nb::handle floatmode, const std::string& suffix, nb::handle legacy) {
        PrintOptions o = options_from_py(precision, threshold, edgeitems, max_line_width, suppress_small, nb::none(),
                                         nb::none(), formatter, sign, floatmode, legacy, nb::none());
        return array2string(a, o, separator, prefix, suffix);
      },
      nb::arg("a"), nb::arg("max_line_width").none() = none, nb::arg("precision").none() = none,
      nb::arg("suppress_small").none() = none, nb::arg("separator") = " ", nb::arg("prefix") = "", nb::kw_only(),
      nb::arg("formatter").none() = none, nb::arg("threshold").none() = none, nb::arg("edgeitems").none() = none,
      nb::arg("sign").none() = none, nb::arg("floatmode").none() = none, nb::arg("suffix") = "", nb::arg("legacy").none() = none);
}

}  // namespace copper::python
