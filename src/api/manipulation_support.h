// Helpers shared by the editing and padding families.
#pragma once
#include <cstdint>

#include "copper/ndarray.hpp"

namespace copper {

// Python's slice.indices(n): clamped start and stop, and the step (ValueError for step 0).
struct SliceBounds {
  std::int64_t start, stop, step;
};
SliceBounds slice_bounds(const Slice& s, std::int64_t n);

}  // namespace copper
