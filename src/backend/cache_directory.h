// Where compiled kernels are kept on disk, for every backend: $COPPER_CACHE_DIR, else
// $XDG_CACHE_HOME/copper/kernels, else ~/.cache/copper/kernels (the same rule as the
// CUDA backend's cache_directory(), available in builds without CUDA).
#pragma once
#include <string>

namespace copper::backend {

std::string kernel_cache_directory();

}  // namespace copper::backend
