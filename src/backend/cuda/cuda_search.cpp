// searchsorted and flag_positions on the GPU (cub/aot_sort.h: a binary-search kernel and
// CUB's DeviceSelect, compiled ahead of time).
#include "backend/cuda/aot_call.h"
#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cuda_backend.h"

namespace copper::backend::cuda {

void CudaBackend::searchsorted(const ArrayView& sorted, const ArrayView& queries, bool right, const ArrayView& out) {
  const std::int64_t m = shape_size(queries.shape);
  if (m == 0) return;
  AotCall call(index_, "searchsorted");
  aot::searchsorted(call.launch(), sorted.dtype, sorted.data, shape_size(sorted.shape), queries.data, m, right,
                    static_cast<std::int64_t*>(out.data));
}

std::int64_t CudaBackend::flag_positions(const ArrayView& flags, const ArrayView& out) {
  const std::int64_t n = shape_size(flags.shape);
  if (n == 0) return 0;
  std::int64_t count = 0;
  {
    AotCall call(index_, "flag_positions");
    auto* device_count = static_cast<std::int64_t*>(call.scratch(sizeof(std::int64_t)));
    aot::flag_positions(call.launch(), static_cast<const bool*>(flags.data), n, static_cast<std::int64_t*>(out.data),
                        device_count);
    copy_to_host(ArrayView{device_count, DType::int64, Shape{}, Strides{}}, &count);
  }
  return count;
}

}  // namespace copper::backend::cuda
