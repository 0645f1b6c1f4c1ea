// The process-wide print options (NumPy's set_printoptions / get_printoptions).
#include <mutex>

#include "copper/format.hpp"

namespace copper {

namespace {
std::mutex options_mutex;
PrintOptions& current_options() {
  static PrintOptions options;
  return options;
}
}  // namespace

FloatMode floatmode_from_name(std::string_view n) {
  if (n == "fixed") return FloatMode::fixed;
  if (n == "unique") return FloatMode::unique;
  if (n == "maxprec") return FloatMode::maxprec;
  if (n == "maxprec_equal") return FloatMode::maxprec_equal;
  throw ValueError(R"(floatmode option must be one of "fixed", "unique", "maxprec", "maxprec_equal")");
}

std::string_view name(FloatMode mode) {
  switch (mode) {
    case FloatMode::fixed: return "fixed";
    case FloatMode::unique: return "unique";
    case FloatMode::maxprec: return "maxprec";
    case FloatMode::maxprec_equal: return "maxprec_equal";
  }
  return "maxprec";
}

PrintOptions get_printoptions() {
  std::lock_guard lock(options_mutex);
  return current_options();
}

void set_printoptions(const PrintOptions& options) {
  if (options.sign != '-' && options.sign != '+' && options.sign != ' ')
    throw ValueError("sign option must be one of ' ', '+', or '-'");
  std::lock_guard lock(options_mutex);
  current_options() = options;
}

}  // namespace copper
