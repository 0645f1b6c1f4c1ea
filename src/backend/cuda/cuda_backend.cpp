// Registration with the backend registry: one CudaBackend per GPU, created on first use.
#include "backend/cuda/cuda_backend.h"

#include <memory>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/per_device.h"
#include "copper/errors.hpp"

namespace copper::backend {

bool cuda_backend_usable() { return cuda::device_count() > 0; }

Backend& cuda_backend(int index) {
  static auto* backends = new cuda::PerDevice<cuda::CudaBackend>();  // leaked with the contexts
  cuda::device_info(index);  // RuntimeError for a device that does not exist
  return backends->get(index, [&] { return std::make_unique<cuda::CudaBackend>(index); });
}

}  // namespace copper::backend

namespace copper::backend::cuda {

void CudaBackend::synchronize() { synchronize_current_stream(index_); }

}  // namespace copper::backend::cuda
