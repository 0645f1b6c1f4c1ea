// Registration with the backend registry: one CudaBackend per GPU, created on first use.
#include "backend/cuda/cuda_backend.h"

#include <atomic>
#include <deque>
#include <mutex>

#include "backend/cuda/cuda_context.h"
#include "copper/errors.hpp"

namespace copper::backend {

bool cuda_backend_usable() { return cuda::device_count() > 0; }

Backend& cuda_backend(int index) {
  // Lock-free for backends already made (every op asks).
  static std::atomic<cuda::CudaBackend*> made[64];
  if (index >= 0 && index < 64)
    if (auto* b = made[index].load(std::memory_order_acquire)) return *b;
  static std::mutex mutex;
  static auto* backends = new std::deque<cuda::CudaBackend>();  // leaked with the contexts
  static auto* by_index = new std::vector<cuda::CudaBackend*>();
  cuda::device_info(index);  // RuntimeError for a device that does not exist
  std::lock_guard lock(mutex);
  if (static_cast<int>(by_index->size()) <= index) by_index->resize(static_cast<std::size_t>(index) + 1, nullptr);
  auto& slot = (*by_index)[index];
  if (!slot) slot = &backends->emplace_back(index);
  if (index < 64) made[index].store(slot, std::memory_order_release);
  return *slot;
}

}  // namespace copper::backend

namespace copper::backend::cuda {

void CudaBackend::synchronize() { synchronize_current_stream(index_); }

}  // namespace copper::backend::cuda
