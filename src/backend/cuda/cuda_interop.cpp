#include "backend/cuda/cuda_interop.h"

#include <string>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_driver.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

// Protocol handles: 0 never reaches here (the Python layer maps it to 1, as CuPy does);
// 1 and 2 are the driver's own CU_STREAM_LEGACY and CU_STREAM_PER_THREAD values.
CUstream stream_of(std::uintptr_t handle) { return reinterpret_cast<CUstream>(handle); }

// The legacy default stream has two spellings: copper's null handle and 1.
bool same_stream(CUstream a, CUstream b) {
  auto legacy = [](CUstream s) { return s == nullptr || s == CU_STREAM_LEGACY; };
  return a == b || (legacy(a) && legacy(b));
}

// `waiter` waits for the work enqueued so far on `producer` (both on `device`). A fresh
// event each time: a shared one could be re-recorded by another thread in between.
void order(CUstream waiter, CUstream producer, int device) {
  if (same_stream(waiter, producer)) return;  // one queue is ordered already
  const Driver& d = driver();
  make_current(device);
  CUevent e = nullptr;
  check(d.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  CUresult r = d.cuEventRecord(e, producer);
  if (r == CUDA_SUCCESS) r = d.cuStreamWaitEvent(waiter, e, 0);
  d.cuEventDestroy(e);  // the wait keeps what it needs
  check(r, "ordering copper's stream with another library's");
}

}  // namespace

std::uintptr_t current_stream_protocol_handle(int device) {
  CUstream s = current_stream_handle(device);
  return s == nullptr ? 1 : reinterpret_cast<std::uintptr_t>(s);
}

void external_stream_wait(std::uintptr_t stream, int device) {
  order(stream_of(stream), current_stream_handle(device), device);
}

void wait_for_external_stream(std::uintptr_t stream, int device) {
  order(current_stream_handle(device), stream_of(stream), device);
}

int pointer_device(const void* ptr) {
  const Driver& d = driver();
  int ordinal = -1;
  CUresult r = d.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                       reinterpret_cast<CUdeviceptr>(ptr));
  if (r != CUDA_SUCCESS)
    throw RuntimeError("the pointer is not GPU memory the CUDA driver knows (cuPointerGetAttribute: " +
                       error_text(r) + ")");
  return ordinal;
}

}  // namespace copper::backend::cuda
