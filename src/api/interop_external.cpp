// Arrays over memory owned by another library, and the stream hand-off between
// libraries (include/copper/interop.hpp).
#include <algorithm>

#include "backend/registry.h"
#include "copper/fusion.hpp"
#include "copper/interop.hpp"

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_interop.h"
#endif

namespace copper {

ndarray from_external(void* data, DType dtype, const Shape& shape, const Strides& strides, Device device,
                      std::function<void()> release) {
  const std::int64_t item = itemsize(dtype);
  const Strides s = strides.empty() ? c_strides(shape, item) : strides;
  if (s.size() != shape.size()) throw ValueError("from_external: strides and shape differ in length");
  for (std::int64_t n : shape) {
    if (n < 0) throw ValueError("from_external: negative dimension");
  }
  backend::backend_for(device);  // RuntimeError for a device this process cannot use
  // The buffer spans the lowest to the highest byte any element touches.
  std::int64_t low = 0, high = 0;
  if (shape_size(shape) > 0) {
    high = item;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const std::int64_t reach = (shape[i] - 1) * s[i];
      (reach < 0 ? low : high) += reach;
    }
  }
  char* first = static_cast<char*>(data);
  auto buffer = std::make_shared<Buffer>(first + low, static_cast<std::size_t>(high - low), device,
                                         [release = std::move(release)](void*) {
                                           if (release) release();
                                         });
  detail::mark_shared_outside(buffer);  // its owner may read or write it at any time: never deferred
  return ndarray(std::move(buffer), dtype, shape, s, -low);
}

namespace cuda {

#ifdef COPPER_HAVE_CUDA
std::uintptr_t current_stream_protocol_handle(int device) {
  return backend::cuda::current_stream_protocol_handle(device);
}
void external_stream_wait(std::uintptr_t stream, int device) { backend::cuda::external_stream_wait(stream, device); }
void wait_for_external_stream(std::uintptr_t stream, int device) {
  backend::cuda::wait_for_external_stream(stream, device);
}
int pointer_device(const void* ptr) { return backend::cuda::pointer_device(ptr); }
#else
namespace {
[[noreturn]] void no_cuda() { throw RuntimeError("copper was built without the CUDA backend"); }
}  // namespace
std::uintptr_t current_stream_protocol_handle(int) { no_cuda(); }
void external_stream_wait(std::uintptr_t, int) { no_cuda(); }
void wait_for_external_stream(std::uintptr_t, int) { no_cuda(); }
int pointer_device(const void*) { no_cuda(); }
#endif

}  // namespace cuda
}  // namespace copper
