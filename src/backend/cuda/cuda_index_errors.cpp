// The device-side out-of-bounds record and its check at synchronization (see the header).
#include "backend/cuda/cuda_index_errors.h"

#include <memory>
#include <mutex>
#include <string>

#include "backend/cuda/cuda_fp_errors.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/per_device.h"

namespace copper::backend::cuda {

namespace {

struct RecordSlot {
  std::once_flag once;
  std::shared_ptr<Buffer> buffer;
};

RecordSlot& slot(int device) {
  static RecordSlot slots[kMaxDevices];
  return slots[device];
}

void check_result(CUresult r, copper::cuda::StreamState& stream, const char* what) {
  if (r != CUDA_SUCCESS) raise_async_error(r, stream.last_op.load(), what);
}

}  // namespace

IndexErrorRecord* index_error_record(int device) {
  RecordSlot& s = slot(device);
  std::call_once(s.once, [&] {
    refuse_during_capture(device, "making the GPU's out-of-bounds index record (run one indexing op first)");
    make_current(device);
    s.buffer = allocate_device(device, sizeof(IndexErrorRecord));
    copper::cuda::StreamState& stream = current_stream_state(device);
    check_result(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(s.buffer->data()), 0,
                                          sizeof(IndexErrorRecord), stream.handle),
                 stream, "zeroing the index error record");
    check_result(driver().cuStreamSynchronize(stream.handle), stream, "zeroing the index error record");
  });
  return static_cast<IndexErrorRecord*>(s.buffer->data());
}

void note_index_check(int device) {
  current_stream_state(device).index_check_pending.store(true, std::memory_order_relaxed);
}

void raise_index_error_if_any(copper::cuda::StreamState& stream) {
  report_fp_errors_if_any(stream);  // errstate's flags come back at the same points (cuda_fp_errors.h)
  if (!stream.index_check_pending.exchange(false, std::memory_order_relaxed)) return;
  const int device = stream.device;
  const CUdeviceptr record = reinterpret_cast<CUdeviceptr>(index_error_record(device));
  IndexErrorRecord rec{};
  make_current(device);
  check_result(driver().cuMemcpyDtoHAsync(&rec, record, sizeof rec, stream.handle), stream,
               "reading the index error record");
  check_result(driver().cuStreamSynchronize(stream.handle), stream, "reading the index error record");
  if (rec.flag == 0) return;
  check_result(driver().cuMemsetD8Async(record, 0, sizeof rec, stream.handle), stream,
               "clearing the index error record");
  throw IndexError("index " + std::to_string(rec.index) + " is out of bounds for axis " + std::to_string(rec.axis) +
                   " with size " + std::to_string(rec.size));
}

}  // namespace copper::backend::cuda
