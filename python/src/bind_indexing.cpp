// ndarray.__getitem__/__setitem__/__iter__: Python keys become a copper::Index (ints,
// slices, None, Ellipsis, bools, and integer or boolean arrays from copper or NumPy
// arrays, lists and tuples); basic indices give views, advanced ones copies.
#include <Python.h>

#include <nanobind/stl/string_view.h>

#include "bindings.h"

namespace copper::python {

namespace {

const char* invalid_index_msg =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
    "valid indices";
const char* non_integer_array_msg = "arrays used as indices must be of integer (or boolean) type";

std::int64_t index_integer(nb::handle obj) {
  Py_ssize_t v = PyNumber_AsSsize_t(obj.ptr(), PyExc_IndexError);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw IndexError(invalid_index_msg);  // NumPy: integers too large to index are invalid indices
  }
  return v;
}

// A NumPy array (or scalar, or a list NumPy made into an array) used as an index: 0-d
// integers are integers, 0-d booleans a lone bool, other integer or boolean arrays are
// copied to the indexed array's device.
IndexItem numpy_index(nb::handle obj, Device device) {
  const char kind = nb::cast<std::string>(obj.attr("dtype").attr("kind"))[0];
  const int ndim = nb::cast<int>(obj.attr("ndim"));
  if (kind == 'b' && ndim == 0) return nb::cast<bool>(obj.attr("item")());
  if ((kind == 'i' || kind == 'u') && ndim == 0) return index_integer(obj);
  if (kind == 'b' || kind == 'i' || kind == 'u') return array_from_py(obj, std::nullopt, device);
  if (ndim == 0) throw IndexError(invalid_index_msg);
  throw IndexError(non_integer_array_msg);
}

// A list or tuple inside an index: NumPy makes it an array; an empty one indexes as intp.
IndexItem sequence_index(nb::handle obj, Device device) {
  nb::object arr = numpy().attr("asarray")(obj);
  const char kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"))[0];
  if (nb::cast<std::int64_t>(arr.attr("size")) == 0 && kind == 'f') return array_from_py(arr, int64, device);
  if (kind == 'O') throw IndexError(invalid_index_msg);
  return numpy_index(arr, device);
}

IndexItem item_from_py(nb::handle obj, Device device) {
  PyObject* p = obj.ptr();
  if (p == Py_None) return NewAxis{};
  if (p == Py_Ellipsis) return Ellipsis{};
  if (PySlice_Check(p)) {
    Py_ssize_t start, stop, step;
    // Fills None parts with extremes for the step's direction; normalization clamps them.
    if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw nb::python_error();
    return Slice(start, stop, step);
  }
  if (PyBool_Check(p)) return p == Py_True;
  if (PyLong_Check(p)) return index_integer(obj);
  if (nb::isinstance<ndarray>(obj)) {
    const ndarray& a = nb::cast<const ndarray&>(obj);
    if (a.dtype() == bool_) return a;
    if (is_integer(a.dtype())) return a.ndim() == 0 ? IndexItem(index_integer(scalar_to_py(a.item()))) : IndexItem(a);
    if (a.ndim() == 0) throw IndexError(invalid_index_msg);
    throw IndexError(non_integer_array_msg);
  }
  if (nb::hasattr(obj, "dtype") && nb::hasattr(obj, "ndim")) return numpy_index(obj, device);
  if (PyList_Check(p) || PyTuple_Check(p)) return sequence_index(obj, device);
  if (PyIndex_Check(p)) return index_integer(obj);
  throw IndexError(invalid_index_msg);
}

}  // namespace

Index index_key_from_py(nb::handle key, Device device) {
  Index index;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) index.push_back(item_from_py(item, device));
  } else {
    index.push_back(item_from_py(key, device));
  }
  return index;
}

void bind_indexing(nb::module_& m, ArrayClass& cls) {
  // Every basic index gives a view, a 0-d array included (as CuPy does; NumPy gives a scalar
  // there); advanced indices give a new array.
  cls.def("__getitem__", [](const ndarray& a, nb::handle key) { return a[index_key_from_py(key, a.device())]; },
          nb::arg("key").none())
      .def("__setitem__",
           [](ndarray& a, nb::handle key, nb::handle value) {
             Index index = index_key_from_py(key, a.device());
             // NumPy scalars stay scalars so integer targets get setitem's range check.
             static nb::handle numpy_generic = nb::object(numpy().attr("generic")).release();
             operand v = PyObject_IsInstance(value.ptr(), numpy_generic.ptr()) == 1
                             ? operand(scalar_from_py(value))
                             : operand_from_py(value, a.device());
             a.assign(index, v);
           },
           nb::arg("key").none(), nb::arg("value").none())
      .def("__iter__", [](const ndarray& a) {
        if (a.ndim() == 0) throw TypeError("iteration over a 0-d array");
        nb::list rows;
        for (std::int64_t i = 0; i < a.shape()[0]; ++i) rows.append(nb::cast(a[i]));
        return nb::iter(rows);
      });
  // NumPy's ufunc.at for copper.<ufunc>.at: name is the ufunc's ("add", "maximum", ...),
  // indices anything __getitem__ takes, values an array-like or None (unary ufuncs).
  m.def(
      "_ufunc_at",
      [](std::string_view name, ndarray& a, nb::handle indices, nb::handle values) {
        Index index = index_key_from_py(indices, a.device());
        if (values.is_none()) return ufunc_at(name, a, index);
        ufunc_at(name, a, index, operand_from_py(values, a.device()));
      },
      nb::arg("name"), nb::arg("a"), nb::arg("indices").none(), nb::arg("values").none() = nb::none());
}

}  // namespace copper::python
