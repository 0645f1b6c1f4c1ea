// ndarray.__getitem__/__setitem__/__iter__ for basic indexing: Python keys become a
// copper::Index (ints, slices, None, Ellipsis); the result is a view of the array.
#include <Python.h>

#include "bindings.h"

namespace copper::python {

namespace {

const char* invalid_index_msg =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
    "valid indices";

[[noreturn]] void advanced_not_supported() {
  throw NotImplementedError(
      "advanced indexing (integer or boolean arrays, lists, or booleans as indices) is not supported yet; "
      "use integers, slices, None and Ellipsis");
}

std::int64_t index_integer(nb::handle obj) {
  Py_ssize_t v = PyNumber_AsSsize_t(obj.ptr(), PyExc_IndexError);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw IndexError(invalid_index_msg);  // NumPy: integers too large to index are invalid indices
  }
  return v;
}

// An array used as an index: a 0-d integer array is an integer; other integer or
// boolean arrays would be advanced indexing.
IndexItem array_index(bool integral, bool boolean, int ndim, nb::handle as_int) {
  if (integral && ndim == 0) return index_integer(as_int);
  if (integral || boolean) advanced_not_supported();
  if (ndim == 0) throw IndexError(invalid_index_msg);
  throw IndexError("arrays used as indices must be of integer (or boolean) type");
}

IndexItem item_from_py(nb::handle obj) {
  PyObject* p = obj.ptr();
  if (p == Py_None) return NewAxis{};
  if (p == Py_Ellipsis) return Ellipsis{};
  if (PySlice_Check(p)) {
    Py_ssize_t start, stop, step;
    // Fills None parts with extremes for the step's direction; normalization clamps them.
    if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw nb::python_error();
    return Slice(start, stop, step);
  }
  if (PyBool_Check(p)) advanced_not_supported();
  if (PyLong_Check(p)) return index_integer(obj);
  if (nb::isinstance<ndarray>(obj)) {
    const ndarray& a = nb::cast<const ndarray&>(obj);
    nb::object as_int = a.ndim() == 0 && is_integer(a.dtype()) ? scalar_to_py(a.item()) : nb::none();
    return array_index(is_integer(a.dtype()), a.dtype() == bool_, a.ndim(), as_int);
  }
  if (nb::hasattr(obj, "dtype") && nb::hasattr(obj, "ndim")) {  // NumPy arrays and scalars
    char kind = nb::cast<std::string>(obj.attr("dtype").attr("kind"))[0];
    return array_index(kind == 'i' || kind == 'u', kind == 'b', nb::cast<int>(obj.attr("ndim")), obj);
  }
  if (PyList_Check(p) || PyTuple_Check(p)) advanced_not_supported();
  if (PyIndex_Check(p)) return index_integer(obj);
  throw IndexError(invalid_index_msg);
}

Index index_from_py(nb::handle key) {
  Index index;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) index.push_back(item_from_py(item));
  } else {
    index.push_back(item_from_py(key));
  }
  return index;
}

}  // namespace

void bind_indexing(nb::module_& m, ArrayClass& cls) {
  // Every basic index gives a view, a 0-d array included (as CuPy does; NumPy gives a scalar there).
  cls.def("__getitem__", [](const ndarray& a, nb::handle key) { return a[index_from_py(key)]; },
          nb::arg("key").none())
      .def("__setitem__",
           [](ndarray& a, nb::handle key, nb::handle value) {
             Index index = index_from_py(key);
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
}

}  // namespace copper::python
