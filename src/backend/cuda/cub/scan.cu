// Device-wide prefix sums (CUB DeviceScan), the step that turns counts into offsets.
#include <cub/device/device_scan.cuh>

#include "backend/cuda/cub/aot_support.cuh"

namespace copper::backend::cuda::aot {

void exclusive_sum(const Launch& launch, const std::int64_t* in, std::int64_t* out, std::int64_t n) {
  if (n <= 0) return;
  detail::run_with_scratch(launch, "exclusive_sum", [&](void* temp, std::size_t& bytes) {
    return ::cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, detail::stream_of(launch));
  });
}

}  // namespace copper::backend::cuda::aot
