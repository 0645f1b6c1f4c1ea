// Order statistics of rows compiled ahead of time (middle_pair.cu): the radix select
// behind median and nanmedian. Plain C++: device pointers and sizes only.
#pragma once
#include <cstdint>

#include "backend/cuda/cub/aot.h"
#include "copper/dtype.hpp"

namespace copper::backend::cuda::aot {

// out[2r], out[2r+1] = the values at positions (m-1)/2 and m/2 of row r of `rows`
// (nrows x n, C-contiguous, a real dtype, 1 <= n < 2^31) in NumPy's order; m is n, or
// with skip_nan the row's count of non-NaN values; NaN twice for a row with a NaN
// (with skip_nan: with no number). One thread block per row.
void middle_pair(const Launch& launch, DType dtype, const void* rows, std::int64_t nrows, std::int64_t n,
                 bool skip_nan, void* out);

}  // namespace copper::backend::cuda::aot
