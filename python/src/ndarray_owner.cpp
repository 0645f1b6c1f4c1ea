#include "ndarray_owner.h"

#include <Python.h>

namespace copper::python {
namespace nb = nanobind;

namespace {

// Deleter of an owner handle that points into a Python array object: drops the reference
// (from any thread; not once the interpreter is shutting down).
struct PythonOwner {
  PyObject* object;
  void operator()(const ndarray*) const {
    if (Py_IsInitialized()) {
      PyGILState_STATE gil = PyGILState_Ensure();
      Py_DECREF(object);
      PyGILState_Release(gil);
    } else if (finalizing() && PyGILState_Check()) {
      Py_DECREF(object);  // module teardown at exit, on the thread that holds the interpreter
    }
    // Otherwise the interpreter is gone (C++ statics destroyed at exit): nothing to release.
  }
  static bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
  }
};

std::shared_ptr<const ndarray> owner_handle(nb::handle owner) {
  const ndarray* a = &nb::cast<const ndarray&>(owner);  // the array inside the Python object
  Py_INCREF(owner.ptr());
  return std::shared_ptr<const ndarray>(a, PythonOwner{owner.ptr()});
}

bool is_python_owner(const std::shared_ptr<const ndarray>& base) {
  return base && std::get_deleter<PythonOwner>(base) != nullptr;
}

}  // namespace

bool link_owner(ndarray& r, PyObject* source) noexcept {
  try {
    nb::handle src(source);
    if (!r.base() || is_python_owner(r.base()) || !nb::isinstance<ndarray>(src)) return false;
    const ndarray& s = nb::cast<const ndarray&>(src);
    if (s.buffer() != r.buffer()) return false;
    if (!s.base()) {
      r.set_owner(owner_handle(src));
    } else if (is_python_owner(s.base())) {
      r.set_owner(s.base());
    } else {
      return false;
    }
    return true;
  } catch (...) {
    PyErr_Clear();
    return false;
  }
}

nb::object base_object(nb::handle view) {
  ndarray& a = nb::cast<ndarray&>(view);
  if (!a.base()) return nb::none();
  if (auto* owner = std::get_deleter<PythonOwner>(a.base())) return nb::borrow(owner->object);
  // The owner has no Python object yet: make one and keep it as this view's owner, so
  // `v.base is v.base`.
  nb::object o = nb::cast(ndarray(*a.base()));
  a.set_owner(owner_handle(o));
  return o;
}

nb::object view_result(nb::handle source, ndarray r) {
  link_owner(r, source.ptr());
  return nb::cast(std::move(r));
}

}  // namespace copper::python
