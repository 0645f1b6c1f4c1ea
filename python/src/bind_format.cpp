// Python bindings for the format family.
#include "bindings.h"

namespace copper::python {

void bind_format(nb::module_& m, ArrayClass& cls) {}

}  // namespace copper::python
