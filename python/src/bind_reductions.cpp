// Python bindings for the reductions family.
#include "bindings.h"

namespace copper::python {

void bind_reductions(nb::module_& m, ArrayClass& cls) {}

}  // namespace copper::python
