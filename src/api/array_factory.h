// Shared front-end helpers: allocating outputs and checking devices.
#pragma once
#include <vector>

#include "backend/backend.h"
#include "copper/ndarray.hpp"

namespace copper::api {

// A new C-contiguous array on `device` (uninitialized).
ndarray allocate(const Shape& shape, DType dtype, Device device);
// A new array with the given compact strides (from core/layout.h: C, F or a permutation).
ndarray allocate(const Shape& shape, DType dtype, Device device, const Strides& strides);
// A new array laid out as NumPy lays out a copy of `source` in `order` (core/layout.h).
ndarray allocate_like(const ndarray& source, const Shape& shape, DType dtype, Device device, Order order);
// The one device all arrays live on; ValueError naming both devices if they differ.
Device common_device(const std::vector<const ndarray*>& arrays, Device fallback);
// Negative dimensions raise ValueError("negative dimensions are not allowed").
void check_shape(const Shape& shape);
// Whether the bytes a and b span inside one buffer intersect (a cheap, conservative
// test: interleaved views that touch no common element still count as overlapping).
bool overlaps(const ndarray& a, const ndarray& b);
inline backend::Backend& backend_of(const ndarray& a) { return backend::backend_for(a.device()); }

}  // namespace copper::api
