// Math functions over float, double and complex, usable on host and device.
// Host code maps to the C library, device code to CUDA's math builtins; both
// spell them the same (::sqrt, ::sqrtf), which keeps this header small.
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops::math {

COPPER_HD float sqrt(float x) { return ::sqrtf(x); }
COPPER_HD double sqrt(double x) { return ::sqrt(x); }

}  // namespace copper::ops::math
