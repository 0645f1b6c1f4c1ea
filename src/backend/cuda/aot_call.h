// The bridge from copper's CUDA runtime state to the ahead-of-time CUB code
// (cub/aot.h): one AotCall per backend operation makes the device's primary context
// current (the CUDA runtime adopts it), names the op on the current stream for
// asynchronous error reports, and lends scratch memory from copper's stream-ordered
// pool that is freed, in stream order, when the AotCall goes away.
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "backend/cuda/cub/aot.h"
#include "backend/cuda/cuda_graph.h"
#include "copper/ndarray.hpp"

namespace copper::backend::cuda {

class AotCall {
 public:
  AotCall(int device, const char* op);
  AotCall(const AotCall&) = delete;
  AotCall& operator=(const AotCall&) = delete;

  const aot::Launch& launch() const { return launch_; }
  // Device memory on the call's stream, alive as long as this AotCall (scratch that the
  // caller needs besides CUB's own temporary storage).
  void* scratch(std::size_t nbytes);

 private:
  static void* allocate(void* self, std::size_t nbytes);
  // While the stream captures a graph: the runtime's first-use module loads and
  // attribute queries are allowed; CUB's launches are still captured.
  std::optional<RelaxedCaptureScope> relaxed_;
  aot::Launch launch_;
  std::vector<std::shared_ptr<Buffer>> buffers_;
};

}  // namespace copper::backend::cuda
