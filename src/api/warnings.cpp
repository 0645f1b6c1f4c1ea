// The warning sink (include/copper/warnings.hpp): one process-wide function pointer.
#include "copper/warnings.hpp"

#include <atomic>

namespace copper {
namespace {

std::atomic<WarningSink> sink{nullptr};

}  // namespace

void set_warning_sink(WarningSink s) { sink.store(s); }

void warn_if_discarding_imaginary(DType from, DType to) {
  if (!is_complex(from) || is_complex(to) || to == bool_) return;
  if (WarningSink s = sink.load()) s(WarningKind::complex_discarded, "Casting complex values to real discards the imaginary part");
}

}  // namespace copper
