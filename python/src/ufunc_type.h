// copper.ufunc (bind_ufunc_type.cpp): the type, its instances, and the methods that
// bind_ufunc_methods.cpp attaches to it.
#pragma once
#include "bindings.h"

namespace copper::python {

nb::object make_ufunc_type(nb::module_& m);  // creates copper.ufunc and sets m.ufunc
nb::object make_ufunc(UfuncId id);           // a new instance for one op
bool is_ufunc(nb::handle h);
UfuncId ufunc_id(nb::handle h);              // TypeError unless h is a copper.ufunc
void bind_ufunc_methods(nb::handle type);    // reduce, accumulate, reduceat, outer, at

}  // namespace copper::python
