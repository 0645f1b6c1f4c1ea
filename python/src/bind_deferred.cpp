// Automatic fusion's switches (copper/fusion.hpp): copper.set_fusion, fusion_enabled,
// run_deferred. The recording itself happens inside the ufuncs, with no Python involved.
#include "bindings.h"
#include "copper/fusion.hpp"

namespace copper::python {

void bind_deferred(nb::module_& m) {
  m.def("set_fusion", &set_fusion, nb::arg("on"),
        "Turns automatic fusion of elementwise ops on or off for the process (default: on, "
        "off when the COPPER_FUSION environment variable is 0). Turning it off runs what is pending.");
  m.def("fusion_enabled", &fusion_enabled, "Whether automatic fusion is on.");
  m.def("run_deferred", &run_deferred, "Runs every deferred elementwise op now.");
  m.def("_deferred_ops", &deferred_ops, "How many elementwise ops are waiting (tests).");
  m.def("_last_chain_scratch_slots", &last_chain_scratch_slots,
        "How many intermediates the last chain run kept out of memory (tests).");
}

}  // namespace copper::python
