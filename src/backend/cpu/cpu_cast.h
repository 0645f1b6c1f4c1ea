// The CPU's conversion of one 1-D run between two dtypes (copy()'s loop), for code that
// converts a block at a time.
#pragma once
#include <array>
#include <cstdint>

#include "copper/dtype.hpp"

namespace copper::backend::cpu {

// dst = p[0] with byte stride s[0], src = p[1] with s[1]: n elements converted as astype
// does (ops::cast; any bool byte reads as True when nonzero).
using CastRunFn = void (*)(std::array<char*, 2> p, std::array<std::int64_t, 2> s, std::int64_t n);
CastRunFn cast_run_for(DType to, DType from);

}  // namespace copper::backend::cpu
