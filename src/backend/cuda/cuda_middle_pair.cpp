// middle_pair on the GPU (median, nanmedian): the radix select of cub/middle_pair.cu, one
// thread block per row, while there are enough rows to fill the GPU; a few long rows are
// faster as one device-wide sort (the caller's fallback).
#include "backend/cuda/aot_call.h"
#include "backend/cuda/cub/aot_select.h"
#include "backend/cuda/cuda_backend.h"

namespace copper::backend::cuda {

bool CudaBackend::middle_pair(const ArrayView& rows, bool skip_nan, const ArrayView& out) {
  constexpr std::int64_t kMinRows = 16;
  const std::int64_t nrows = rows.shape[0], n = rows.shape[1];
  if (nrows < kMinRows || nrows >= (std::int64_t(1) << 31) || n >= (std::int64_t(1) << 31)) return false;
  AotCall call(index_, "median");
  aot::middle_pair(call.launch(), rows.dtype, rows.data, nrows, n, skip_nan, out.data);
  return true;
}

}  // namespace copper::backend::cuda
