// copper.fuse traces a Python function by calling it with proxy objects; a ufunc that
// receives one hands the whole call to the tracer (python/copper/_fusion_trace.py)
// instead of computing. One pointer comparison per argument when no proxy is involved.
#pragma once
#include <Python.h>

#include "bindings.h"

namespace copper::python {

// The tracer's answer when an argument (or keyword value) is a proxy; an invalid object
// when none is, or before copper.fuse registered its proxy type.
nb::object fusion_dispatch(PyObject* fn, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

void bind_fusion(nb::module_& m);

}  // namespace copper::python
