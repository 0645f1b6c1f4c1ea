// copper::linalg's error mode (cupyx.errstate(linalg=...)), one per thread.
#include "copper/linalg_errstate.hpp"

#include <string>

#include "copper/errors.hpp"

namespace copper::linalg {
namespace {

thread_local ErrorMode mode = ErrorMode::raise;

}  // namespace

ErrorMode get_error_mode() { return mode; }

ErrorMode set_error_mode(ErrorMode next) {
  const ErrorMode previous = mode;
  mode = next;
  return previous;
}

ErrorMode error_mode_from_name(std::string_view name) {
  if (name == "ignore") return ErrorMode::ignore;
  if (name == "raise") return ErrorMode::raise;
  throw ValueError("linalg must be 'ignore' or 'raise', not '" + std::string(name) + "'");
}

std::string_view error_mode_name(ErrorMode m) { return m == ErrorMode::ignore ? "ignore" : "raise"; }

}  // namespace copper::linalg
