// Warnings NumPy gives that copper's C++ code detects. The Python module turns them into
// Python warnings of NumPy's categories; C++ programs see nothing unless they set a sink.
#pragma once
#include "copper/dtype.hpp"

namespace copper {

enum class WarningKind { complex_discarded };  // NumPy's ComplexWarning
// A sink may throw to turn the warning into an error (Python's warnings filter "error").
using WarningSink = void (*)(WarningKind kind, const char* message);
void set_warning_sink(WarningSink sink);

// NumPy's ComplexWarning when a cast from `from` to `to` drops imaginary parts (complex to
// a real type; bool keeps "nonzero" and does not warn).
void warn_if_discarding_imaginary(DType from, DType to);

}  // namespace copper
