// Host <-> device copies. Pageable host memory (NumPy's) cannot be read by the copy
// engines directly, so large transfers go through a ring of pinned staging buffers:
// the CPU threads copy one chunk into pinned memory while the DMA engine moves the
// previous one, so both run at once. Small transfers let the driver stage them.
#include <cstring>
#include <mutex>

#include "backend/cpu/thread_pool.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_index_errors.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/elementwise_launch.h"
#include "backend/cuda/per_device.h"
#include "copper/errors.hpp"
#include "copper/runtime.hpp"

namespace copper::backend::cuda {
namespace {

constexpr std::size_t kChunk = std::size_t{16} << 20;       // bytes per staging buffer
constexpr int kStages = 4;                                    // staging buffers in the ring
constexpr std::size_t kDirectLimit = std::size_t{1} << 20;  // below this the driver stages

// The ring is shared by every GPU (the buffers are pinned for all contexts), but an
// event belongs to the context it was made in: each GPU records its own events.
struct Staging {
  std::mutex mutex;  // one transfer at a time uses the ring
  void* buffer[kStages] = {};
  CUevent events[kMaxDevices][kStages] = {};
  int pending_device[kStages];  // the GPU whose copy last used the buffer, or -1
};

Staging& staging() {
  static auto* s = [] {
    auto* st = new Staging();  // leaked: pinned memory lives as long as the process
    const Driver& d = driver();
    for (int i = 0; i < kStages; ++i) {
      check(d.cuMemHostAlloc(&st->buffer[i], kChunk, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc (staging buffer)");
      st->pending_device[i] = -1;
    }
    return st;
  }();
  return *s;
}

// `device`'s event for stage i, made on first use (`device` is the current context).
CUevent stage_event(Staging& s, int device, int i) {
  CUevent& e = s.events[device][i];
  if (!e) check(driver().cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return e;
}

void record_stage(Staging& s, int device, int i, CUstream stream) {
  check(driver().cuEventRecord(stage_event(s, device, i), stream), "cuEventRecord");
  s.pending_device[i] = device;
}

// memcpy split across the CPU pool: one thread cannot fill PCIe bandwidth, nor fault
// in fresh pages of a new NumPy array fast enough.
void parallel_memcpy(void* dst, const void* src, std::size_t n) {
  constexpr std::int64_t grain = 1 << 20;
  cpu::parallel_for(static_cast<std::int64_t>(n), grain, [&](std::int64_t b, std::int64_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, static_cast<std::size_t>(e - b));
  });
}

void wait_stage(int device, Staging& s, int i) {
  const int owner = s.pending_device[i];
  if (owner < 0) return;
  s.pending_device[i] = -1;
  if (owner != device) make_current(owner);
  CUresult r = driver().cuEventSynchronize(s.events[owner][i]);
  if (owner != device) make_current(device);
  if (r != CUDA_SUCCESS) {
    raise_async_error(r, current_stream_state(owner).last_op.load(), "copying between host and device");
  }
}

void to_device_contiguous(int device, const void* src, void* dst, std::size_t n) {
  make_current(device);
  const Driver& d = driver();
  const CUstream stream = current_stream_handle(device);
  if (n <= kDirectLimit) {
    check(d.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), src, n, stream), "cuMemcpyHtoDAsync");
    return;
  }
  Staging& s = staging();
  std::lock_guard lock(s.mutex);
  int stage = 0;
  for (std::size_t off = 0; off < n; off += kChunk, stage = (stage + 1) % kStages) {
    const std::size_t len = std::min(kChunk, n - off);
    wait_stage(device, s, stage);  // the DMA that last read this buffer is done
    parallel_memcpy(s.buffer[stage], static_cast<const char*>(src) + off, len);
    check(d.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(static_cast<char*>(dst) + off), s.buffer[stage], len, stream),
          "cuMemcpyHtoDAsync");
    record_stage(s, device, stage, stream);
  }
  // The source is consumed; the last DMAs may still run (later users wait on the events).
}

void to_host_contiguous(int device, const void* src, void* dst, std::size_t n) {
  // Every read of device memory by the host waits for the GPU: internal ones too (a mask's
  // count, nonzero's size), which allow_synchronize(False) must catch as CuPy's does.
  check_synchronize_allowed("a copy to the host");
  make_current(device);
  const Driver& d = driver();
  const CUstream stream = current_stream_handle(device);
  if (n <= kDirectLimit) {
    if (CUresult r = d.cuMemcpyDtoHAsync(dst, reinterpret_cast<CUdeviceptr>(src), n, stream); r != CUDA_SUCCESS) {
      raise_async_error(r, current_stream_state(device).last_op.load(), "copying from device to host");
    }
    synchronize_current_stream(device);
    return;
  }
  Staging& s = staging();
  std::lock_guard lock(s.mutex);
  for (int i = 0; i < kStages; ++i) wait_stage(device, s, i);
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  auto enqueue = [&](std::size_t c) {
    const int stage = static_cast<int>(c % kStages);
    const std::size_t off = c * kChunk, len = std::min(kChunk, n - off);
    check(d.cuMemcpyDtoHAsync(s.buffer[stage], reinterpret_cast<CUdeviceptr>(static_cast<const char*>(src) + off), len, stream),
          "cuMemcpyDtoHAsync");
    record_stage(s, device, stage, stream);
  };
  // Keep the ring full: chunks c+1.. are in flight while chunk c is copied out.
  for (std::size_t c = 0; c < std::min<std::size_t>(chunks, kStages); ++c) enqueue(c);
  for (std::size_t c = 0; c < chunks; ++c) {
    const int stage = static_cast<int>(c % kStages);
    wait_stage(device, s, stage);
    const std::size_t off = c * kChunk, len = std::min(kChunk, n - off);
    parallel_memcpy(static_cast<char*>(dst) + off, s.buffer[stage], len);
    if (c + kStages < chunks) enqueue(c + kStages);
  }
  raise_index_error_if_any(current_stream_state(device));
}

ArrayView contiguous_like(const ArrayView& v, const std::shared_ptr<Buffer>& buffer) {
  return ArrayView{buffer->data(), v.dtype, v.shape, c_strides(v.shape, itemsize(v.dtype))};
}

}  // namespace

void CudaBackend::copy_from_host(const void* src, const ArrayView& dst) {
  refuse_during_capture(index_, "copying host memory to the GPU");
  const std::size_t n = static_cast<std::size_t>(shape_size(dst.shape) * itemsize(dst.dtype));
  if (n == 0) return;
  if (is_c_contiguous_view(dst)) return to_device_contiguous(index_, src, dst.data, n);
  auto tmp = allocate(n);  // lands contiguously, then a strided device copy places it
  ArrayView packed = contiguous_like(dst, tmp);
  to_device_contiguous(index_, src, packed.data, n);
  copy(packed, dst);
}

void CudaBackend::copy_to_host(const ArrayView& src, void* dst) {
  refuse_during_capture(index_, "reading GPU memory from the host");
  const std::size_t n = static_cast<std::size_t>(shape_size(src.shape) * itemsize(src.dtype));
  if (n == 0) return synchronize();
  if (is_c_contiguous_view(src)) return to_host_contiguous(index_, src.data, dst, n);
  auto tmp = allocate(n);
  ArrayView packed = contiguous_like(src, tmp);
  copy(src, packed);
  to_host_contiguous(index_, packed.data, dst, n);
}

}  // namespace copper::backend::cuda
