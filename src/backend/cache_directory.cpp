#include "backend/cache_directory.h"

#include <cstdlib>
#include <filesystem>

namespace copper::backend {

std::string kernel_cache_directory() {
  if (const char* env = std::getenv("COPPER_CACHE_DIR"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/copper/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/copper/kernels";
  return (std::filesystem::temp_directory_path() / "copper-kernels").string();
}

}  // namespace copper::backend
