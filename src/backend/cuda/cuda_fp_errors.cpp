// errstate's per-device slots and their report at synchronization (see the header).
#include "backend/cuda/cuda_fp_errors.h"

#include <atomic>
#include <memory>
#include <mutex>

#include "api/fp_errors_internal.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/per_device.h"
#include "copper/errstate.hpp"

namespace copper::backend::cuda {

namespace {

struct Slot {
  std::once_flag once;
  std::shared_ptr<Buffer> word;        // device memory
  FpErrorRecord* host = nullptr;       // mapped host memory (leaked with the process)
  std::atomic<bool> checked_work{false};  // checked kernels since the last errstate exit
  std::atomic<bool> ready{false};
};

Slot& slot(int device) {
  static Slot slots[kMaxDevices];
  return slots[device];
}

void check_result(CUresult r, copper::cuda::StreamState& stream, const char* what) {
  if (r != CUDA_SUCCESS) raise_async_error(r, stream.last_op.load(), what);
}

// errstate's exit: synchronizes the current stream of each device with checked work,
// which reports what it recorded.
void flush_devices() {
  for (int d = 0; d < kMaxDevices; ++d) {
    Slot& s = slot(d);
    if (!s.ready.load(std::memory_order_acquire) || capture_active(d)) continue;  // a capture reports at replay's sync
    if (s.checked_work.exchange(false)) synchronize_current_stream(d);
  }
}

}  // namespace

bool fp_error_slots_ready(int device) {
  Slot& s = slot(device);
  if (s.ready.load(std::memory_order_acquire)) return true;
  if (capture_active(device)) return false;
  std::call_once(s.once, [&] {
    make_current(device);
    copper::cuda::StreamState& stream = current_stream_state(device);
    s.word = allocate_device(device, sizeof(unsigned));
    void* host = nullptr;
    // Mapped and portable: with unified addressing (every 64-bit CUDA platform) the host
    // address is also the device address, so kernels write it directly.
    check_result(driver().cuMemHostAlloc(&host, sizeof(FpErrorRecord),
                                         CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                 stream, "allocating the floating-point error record");
    auto* record = static_cast<FpErrorRecord*>(host);
    for (int k = 0; k < 4; ++k) {
      record->flag[k] = 0;
      record->op[k] = 0;
    }
    check_result(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(s.word->data()), 0, sizeof(unsigned),
                                          stream.handle),
                 stream, "zeroing the floating-point error word");
    check_result(driver().cuStreamSynchronize(stream.handle), stream, "zeroing the floating-point error word");
    s.host = record;
    copper::detail::fp_scope_exit_hook.store(&flush_devices);
    s.ready.store(true, std::memory_order_release);
  });
  return true;
}

FpErrorSlots fp_error_slots(int device) {
  Slot& s = slot(device);
  s.checked_work.store(true, std::memory_order_relaxed);
  return {static_cast<unsigned*>(s.word->data()), s.host};
}

void report_fp_errors_if_any(copper::cuda::StreamState& stream) {
  if (stream.device < 0 || stream.device >= kMaxDevices) return;
  Slot& s = slot(stream.device);
  if (!s.ready.load(std::memory_order_acquire)) return;
  FpErrorRecord* record = s.host;
  unsigned flags = 0, ops_of[4] = {};
  for (int k = 0; k < 4; ++k) {
    if (!record->flag[k]) continue;
    flags |= 1u << k;
    ops_of[k] = record->op[k];
    record->flag[k] = 0;
  }
  if (!flags) return;
  // Clear the device word in stream order, so later kernels record afresh.
  make_current(stream.device);
  check_result(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(s.word->data()), 0, sizeof(unsigned),
                                        stream.handle),
               stream, "clearing the floating-point error word");
  for (int k = 0; k < 4; ++k) {
    if (!(flags & (1u << k))) continue;
    const auto op = static_cast<ops::UfuncId>(ops_of[k]);
    report_fp_errors(1u << k, copper::detail::fp_op_name(op));
  }
}

}  // namespace copper::backend::cuda
