// Shared front-end helpers: allocating outputs and checking devices.
#pragma once
#include <vector>

#include "backend/backend.h"
#include "copper/ndarray.hpp"

namespace copper::api {

// A new C-contiguous array on `device` (uninitialized).
ndarray allocate(const Shape& shape, DType dtype, Device device);
// The one device all arrays live on; ValueError naming both devices if they differ.
Device common_device(const std::vector<const ndarray*>& arrays, Device fallback);
// Negative dimensions raise ValueError("negative dimensions are not allowed").
void check_shape(const Shape& shape);
// Whether the bytes a and b span inside one buffer intersect (a cheap, conservative
// test: interleaved views that touch no common element still count as overlapping).
bool overlaps(const ndarray& a, const ndarray& b);
inline backend::Backend& backend_of(const ndarray& a) { return backend::backend_for(a.device()); }

}  // namespace copper::api
