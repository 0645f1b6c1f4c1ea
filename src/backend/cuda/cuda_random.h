// The generated source of the random-number kernel (exposed for the NVRTC compile check).
#pragma once
#include <string>

#include "copper/dtype.hpp"
#include "ops/philox.h"

namespace copper::backend::cuda {

// Kernel `copper_random` writing `per` elements of dtype t per counter block.
std::string random_source(DType t, ops::philox::Kind kind, int per);

}  // namespace copper::backend::cuda
