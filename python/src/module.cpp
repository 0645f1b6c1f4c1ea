// copper._core: the compiled half of the Python package.
#include <cstdlib>
#include <string_view>

#include "bindings.h"

NB_MODULE(_core, m) {
  using namespace copper::python;
  m.doc() = "copper's C++ core";
  // nanobind reports objects still alive when the interpreter tears the module down. Other
  // libraries' caches hold copper objects past that point (hypothesis keeps the strategy
  // sampled_from(devices()) of the array API suite), so the report is noise for users;
  // COPPER_LEAK_WARNINGS=1 turns it back on to look for copper's own leaks.
  const char* leaks = std::getenv("COPPER_LEAK_WARNINGS");
  nb::set_leak_warnings(leaks && *leaks && std::string_view(leaks) != "0");
  bind_errors(m);
  bind_dtypes(m);
  ArrayClass cls(m, "ndarray");
  bind_ndarray(m, cls);
  bind_creation(m);
  bind_ufuncs(m, cls);
  bind_reductions(m, cls);
  bind_manipulation(m, cls);
  bind_indexing(m, cls);
  bind_ranges(m);
  bind_format(m, cls);
  bind_cuda(m);
  bind_profiler(m);
  bind_linalg(m, cls);
  bind_random(m);
  bind_linalg_decomp(m);
  bind_raw_kernels(m);
  bind_user_kernels(m);
  bind_statistics(m);
  bind_histograms(m);
  bind_order_statistics(m);
  bind_fft(m);
  bind_sorting(m, cls);
  bind_indexing_functions(m, cls);
  bind_elementwise(m);
  bind_interop(m, cls);
  bind_array_api(m);
  bind_utilities(m);
  bind_manipulation_extra(m);
  bind_numerical(m);
  bind_fusion(m);
  bind_deferred(m);
}
