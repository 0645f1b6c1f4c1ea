// The generated sources of the random-number kernels (exposed for the NVRTC compile check).
#pragma once
#include <string>

#include "copper/dtype.hpp"
#include "ops/philox.h"

namespace copper::backend::cuda {

// Kernel `copper_random` writing `per` elements of dtype t per counter block; with
// `vector_store` each full block is one aligned store of per * itemsize bytes.
std::string random_source(DType t, ops::philox::Kind kind, int per, bool vector_store = true);

// Kernel `copper_random_params`: per-element (broadcast) parameters read through a
// strided layout; 32-bit or 64-bit element indexing; `nparams` parameter arrays (block
// kinds: 2; stream kinds: 1 to 3).
std::string random_params_source(DType t, ops::philox::Kind kind, int per, bool index32, int nparams = 2);

// Kernel `copper_take_rows`: out[i, ...] = src[rows[i], ...], moving elements of
// `element_bytes` bytes (16 with `align16` when every address is 16-byte aligned).
std::string take_rows_source(int element_bytes, bool align16, bool index32);

}  // namespace copper::backend::cuda
