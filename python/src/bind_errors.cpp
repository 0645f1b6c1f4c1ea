// C++ exceptions -> the Python exceptions NumPy raises for the same mistakes.
#include <Python.h>

#include "bindings.h"
#include "copper/errstate.hpp"
#include "copper/utilities.hpp"
#include "copper/warnings.hpp"

namespace copper::python {

namespace {

nb::handle out_of_memory, compile_error, device_synchronized;

void translate(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const AxisError& e) {
    nb::object axis_error = nb::module_::import_("numpy").attr("exceptions").attr("AxisError");
    PyErr_SetObject(axis_error.ptr(), nb::str(e.what()).ptr());
  } catch (const LinAlgError& e) {
    nb::object cls = nb::module_::import_("numpy").attr("linalg").attr("LinAlgError");
    PyErr_SetString(cls.ptr(), e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const KeyError& e) {
    PyErr_SetObject(PyExc_KeyError, nb::str(e.what()).ptr());
  } catch (const ZeroDivisionError& e) {
    PyErr_SetString(PyExc_ZeroDivisionError, e.what());
  } catch (const BufferError& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  } catch (const OutOfMemoryError& e) {
    PyErr_SetString(out_of_memory.ptr(), e.what());
  } catch (const DeviceSynchronized& e) {
    PyErr_SetString(device_synchronized.ptr(), e.what());
  } catch (const CompileError& e) {
    // The log once: messages that already quote it (RawKernel's) are passed as they are.
    const std::string what = e.what();
    PyErr_SetString(compile_error.ptr(), (what.find(e.log) == std::string::npos ? what + "\n" + e.log : what).c_str());
  } catch (const TooHardError& e) {
    nb::object cls = nb::module_::import_("numpy").attr("exceptions").attr("TooHardError");
    PyErr_SetString(cls.ptr(), e.what());
  } catch (const FloatingPointError& e) {
    PyErr_SetString(PyExc_FloatingPointError, e.what());
  } catch (const error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

// copper's C++ warnings as NumPy's Python warnings. C++ may run without the GIL (big
// operations release it); an "error" filter turns the warning into the raised exception.
void warn_in_python(WarningKind, const char* message) {
  nb::gil_scoped_acquire gil;
  nb::object category = nb::module_::import_("numpy").attr("exceptions").attr("ComplexWarning");
  if (PyErr_WarnEx(category.ptr(), message, 1) < 0) throw nb::python_error();
}

}  // namespace

void bind_errors(nb::module_& m) {
  set_warning_sink(&warn_in_python);
  out_of_memory = PyErr_NewExceptionWithDoc("copper.OutOfMemoryError", "Raised when device memory is exhausted.",
                                            PyExc_MemoryError, nullptr);
  compile_error = PyErr_NewExceptionWithDoc(
      "copper.CompileError", "Raised when a kernel fails to compile; carries the compiler log.", PyExc_RuntimeError,
      nullptr);
  device_synchronized = PyErr_NewExceptionWithDoc(
      "copper.x.DeviceSynchronized",
      "Raised when the host would wait for a device while copper.x.allow_synchronize(False) is in effect.",
      PyExc_RuntimeError, nullptr);
  m.attr("OutOfMemoryError") = nb::borrow(out_of_memory);
  m.attr("DeviceSynchronized") = nb::borrow(device_synchronized);
  m.attr("CompileError") = nb::borrow(compile_error);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) { translate(p); });
}

// For code outside nanobind's function wrappers (copper.ufunc's vectorcall): the same
// translation, plus nanobind's own exceptions.
void set_python_error_from_current_exception() {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(e.type() == nb::exception_type::type_error    ? PyExc_TypeError
                    : e.type() == nb::exception_type::value_error ? PyExc_ValueError
                    : e.type() == nb::exception_type::index_error ? PyExc_IndexError
                                                                  : PyExc_RuntimeError,
                    e.what());
  } catch (const nb::cast_error& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const std::exception& e) {
    try {
      translate(std::current_exception());  // rethrows what it does not know
    } catch (...) {
    }
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

}  // namespace copper::python
