// Python bindings for the indexing family.
#include "bindings.h"

namespace copper::python {

void bind_indexing(nb::module_& m, ArrayClass& cls) {}

}  // namespace copper::python
