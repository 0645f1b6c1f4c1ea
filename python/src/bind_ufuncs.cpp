// Python bindings for the ufuncs family.
#include "bindings.h"

namespace copper::python {

void bind_ufuncs(nb::module_& m, ArrayClass& cls) {}

}  // namespace copper::python
