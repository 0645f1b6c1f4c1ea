// Memory-sharing queries (copper/utilities.hpp) and the floating-point error state
// (copper/errstate.hpp); the NumPy-shaped Python functions around them are in
// python/copper/_utilities.py and _errstate.py.
#include <Python.h>

#include "bindings.h"
#include "copper/errstate.hpp"
#include "copper/utilities.hpp"

namespace copper::python {

namespace {

nb::dict errstate_dict(const ErrState& s) {
  nb::dict d;
  d["divide"] = nb::str(fp_mode_name(s.divide).data());
  d["over"] = nb::str(fp_mode_name(s.over).data());
  d["under"] = nb::str(fp_mode_name(s.under).data());
  d["invalid"] = nb::str(fp_mode_name(s.invalid).data());
  return d;
}

// The Python function that carries out 'warn', 'print', 'call' and 'log' (set by _errstate.py).
nb::object* py_handler = nullptr;

}  // namespace

void bind_utilities(nb::module_& m) {
  m.def("_shares_memory", &shares_memory, nb::arg("a"), nb::arg("b"), nb::arg("max_work"),
        "numpy.shares_memory over copper arrays (max_work -1: exact; TooHardError when undecided).");
  m.def("_may_share_memory", &may_share_memory, nb::arg("a"), nb::arg("b"), nb::arg("max_work"),
        "numpy.may_share_memory over copper arrays (true where undecided within max_work).");
  m.def("_isfortran", &isfortran, nb::arg("a"));
  m.def("_geterr", [] { return errstate_dict(geterr()); }, "The calling thread's error modes, as a dict.");
  m.def(
      "_seterr",
      [](const std::string& divide, const std::string& over, const std::string& under, const std::string& invalid) {
        return errstate_dict(seterr(ErrState{fp_mode_from_name(divide), fp_mode_from_name(over),
                                             fp_mode_from_name(under), fp_mode_from_name(invalid)}));
      },
      nb::arg("divide"), nb::arg("over"), nb::arg("under"), nb::arg("invalid"),
      "Sets the calling thread's error modes; returns the previous ones.");
  m.def(
      "_set_fp_error_handler",
      [](nb::object fn) {
        if (!py_handler) py_handler = new nb::object();  // lives as long as the process: handlers may run at exit
        *py_handler = std::move(fn);
        set_fp_error_handler([](FpMode mode, const std::string& kind, unsigned flag, const std::string& message) {
          nb::gil_scoped_acquire gil;
          (*py_handler)(nb::str(fp_mode_name(mode).data()), kind, flag, message);
        });
      },
      "Installs the Python function fn(mode, kind, flag, message) that reports floating-point errors.");
  m.def("_flush_fp_errors", &flush_fp_errors, "Handles the errors GPU work recorded (errstate's exit).");
  m.def("_report_fp_errors", &report_fp_errors, nb::arg("flags"), nb::arg("op"),
        "Applies the calling thread's error modes to errors `flags` of op `op` (tests and Python-side ops).");
}

}  // namespace copper::python
