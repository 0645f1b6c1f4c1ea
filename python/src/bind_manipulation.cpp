// Python bindings for the manipulation family.
#include "bindings.h"

namespace copper::python {

void bind_manipulation(nb::module_& m, ArrayClass& cls) {}

}  // namespace copper::python
