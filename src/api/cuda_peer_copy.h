// Copies between two GPUs for asarray(a, device=...): one device-to-device copy
// (peer access where the GPUs have it) instead of a round trip through host memory.
#pragma once
#include <optional>

#include "copper/ndarray.hpp"

namespace copper::api {

// A C-contiguous copy of `a` on `device` when both are GPUs (different ones); nullopt
// otherwise, for the caller's general path.
std::optional<ndarray> copy_between_gpus(const ndarray& a, Device device);

}  // namespace copper::api
