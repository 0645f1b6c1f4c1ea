// Collapsing a strided loop nest into the fewest dimensions: one implementation for the
// CUDA backend's kernels (cuda_codegen.h's collapse) and user kernels on both devices
// (user_kernel_source.h's collapse_layout).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "backend/backend.h"

namespace copper::backend {

// A loop nest over `shape` with the byte strides of several operands, dimensions
// merged where every operand is contiguous across them and size-1 dimensions
// dropped. Always at least one dimension (a 0-d loop becomes shape {1}).
struct CollapsedDims {
  std::vector<std::int64_t> shape;
  std::vector<std::vector<std::int64_t>> strides;  // [operand][dim]
};
CollapsedDims collapse_dims(const Shape& shape, std::span<const Strides* const> strides);

}  // namespace copper::backend
