#include "backend/cuda/aot_call.h"

#include <string>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_memory.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {

AotCall::AotCall(int device, const char* op) {
  make_current(device);
  auto& stream = current_stream_state(device);
  stream.last_op.store(op, std::memory_order_relaxed);
  if (stream.capturing.load(std::memory_order_relaxed)) relaxed_.emplace();
  launch_.device = device;
  launch_.stream = stream.handle;
  launch_.scratch = {&AotCall::allocate, this};
}

void* AotCall::scratch(std::size_t nbytes) {
  buffers_.push_back(allocate_device(launch_.device, nbytes));
  return buffers_.back()->data();
}

void* AotCall::allocate(void* self, std::size_t nbytes) { return static_cast<AotCall*>(self)->scratch(nbytes); }

}  // namespace copper::backend::cuda

namespace copper::backend::cuda::aot {

void raise_runtime_error(int code, const char* name, const char* text, const char* what) {
  std::string message = std::string(what) + ": CUDA runtime error " + std::to_string(code) + " (" +
                        (name ? name : "?") + "): " + (text ? text : "");
  constexpr int kMemoryAllocation = 2, kInsufficientDriver = 35;  // cudaError_t values
  if (code == kMemoryAllocation) throw OutOfMemoryError(message);
  if (code == kInsufficientDriver) {
    message += " (copper's sorting and selection code was built with CUDA runtime " +
               std::to_string(runtime_version() / 1000) + "." + std::to_string(runtime_version() % 1000 / 10) +
               "; the driver must support it)";
  }
  throw RuntimeError(message);
}

}  // namespace copper::backend::cuda::aot
