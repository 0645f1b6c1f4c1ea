#include "backend/cuda/cuda_context.h"

#include <algorithm>
#include <atomic>
#include <unordered_map>
#include <vector>

#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_index_errors.h"
#include "backend/cuda/per_device.h"
#include "copper/errors.hpp"

namespace copper::cuda {

StreamState::~StreamState() {
  if (owned && handle) {
    if (const auto* d = backend::cuda::try_driver()) d->cuStreamDestroy(handle);
  }
}

EventState::~EventState() {
  if (handle) {
    if (const auto* d = backend::cuda::try_driver()) d->cuEventDestroy(handle);
  }
}

}  // namespace copper::cuda

namespace copper::backend::cuda {
namespace {

// The device count, read once; a process sees a fixed set of GPUs.
int count_devices() {
  int count = 0;
  if (const Driver* drv = try_driver()) drv->cuDeviceGetCount(&count);
  return std::min(count, kMaxDevices);
}
int known_device_count() {
  static const int count = count_devices();
  return count;
}

DeviceInfo open_device(int index) {
  const Driver& d = driver();
  DeviceInfo info;
  info.index = index;
  check(d.cuDeviceGet(&info.device, index), "cuDeviceGet");
  check(d.cuDevicePrimaryCtxRetain(&info.context, info.device), "cuDevicePrimaryCtxRetain");
  int major = 0, minor = 0;
  check(d.cuDeviceGetAttribute(&info.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, info.device), "cuDeviceGetAttribute");
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, info.device), "cuDeviceGetAttribute");
  check(d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, info.device), "cuDeviceGetAttribute");
  check(d.cuDeviceGetAttribute(&info.max_threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, info.device),
        "cuDeviceGetAttribute");
  info.arch = major * 10 + minor;
  char name[256] = {};
  d.cuDeviceGetName(name, sizeof name, info.device);
  info.name = name;
  return info;
}

// The thread's current stream per device; null entries mean the legacy default stream.
thread_local std::unordered_map<int, std::shared_ptr<copper::cuda::StreamState>> current_streams;
thread_local CUcontext current_context = nullptr;

}  // namespace

int device_count() { return known_device_count(); }

const DeviceInfo& device_info(int index) {
  static auto* infos = new PerDevice<DeviceInfo>();  // leaked: contexts outlive arrays freed at exit
  const int count = known_device_count();
  if (index >= 0 && index < count) return infos->get(index, [&] { return std::make_unique<DeviceInfo>(open_device(index)); });
  if (count == 0) throw RuntimeError("CUDA is not available: " + why_unavailable());
  throw RuntimeError("CUDA device " + std::to_string(index) + " requested, but " + std::to_string(count) +
                     " GPU(s) were found");
}

void make_current(int index) {
  const DeviceInfo& info = device_info(index);
  if (current_context == info.context) return;
  check(driver().cuCtxSetCurrent(info.context), "cuCtxSetCurrent");
  current_context = info.context;
}

std::shared_ptr<copper::cuda::StreamState>& current_stream_slot(int device) {
  auto& slot = current_streams[device];
  if (!slot) {
    // One legacy-stream state per device and thread, so last_op bookkeeping is per thread.
    slot = std::make_shared<copper::cuda::StreamState>();
    slot->device = device;
  }
  return slot;
}

copper::cuda::StreamState& current_stream_state(int device) { return *current_stream_slot(device); }
std::shared_ptr<copper::cuda::StreamState> current_stream_shared(int device) { return current_stream_slot(device); }

void set_current_stream_shared(std::shared_ptr<copper::cuda::StreamState> s) {
  const int device = s->device;
  current_streams[device] = std::move(s);
}

CUstream current_stream_handle(int device) { return current_stream_state(device).handle; }

void launch(int device, CUfunction fn, unsigned grid, unsigned block, void** args, const char* op,
            unsigned shared_bytes) {
  make_current(device);
  auto& stream = current_stream_state(device);
  stream.last_op.store(op, std::memory_order_relaxed);
  check(driver().cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, shared_bytes, stream.handle, args, nullptr),
        (std::string("launching the kernel of ") + op).c_str());
  launch_counter.fetch_add(1, std::memory_order_relaxed);
}

void raise_async_error(CUresult result, const std::string& last_op, const char* what) {
  throw RuntimeError(std::string(what) + ": a GPU operation failed: " + error_text(result) +
                     " (the last op enqueued was " + last_op + "; the failure may come from it or an earlier one)");
}

void synchronize_current_stream(int device) {
  refuse_during_capture(device, "synchronizing with the GPU");
  make_current(device);
  auto& stream = current_stream_state(device);
  CUresult r = driver().cuStreamSynchronize(stream.handle);
  if (r != CUDA_SUCCESS) {
    raise_async_error(r, stream.last_op.load(), "synchronize");
  }
  raise_index_error_if_any(stream);
}

unsigned resident_blocks_per_sm(CUfunction fn, unsigned block) {
  // Per thread, so the launch path takes no lock; each thread asks the driver once per kernel.
  thread_local std::unordered_map<std::uint64_t, unsigned> known;
  const std::uint64_t key = reinterpret_cast<std::uintptr_t>(fn) * 1024 + block;
  if (auto it = known.find(key); it != known.end()) return it->second;
  int n = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, static_cast<int>(block), 0),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return known.emplace(key, static_cast<unsigned>(n > 0 ? n : 1)).first->second;
}

unsigned grid_for(int device, std::int64_t work_items, unsigned block, unsigned blocks_per_sm) {
  const DeviceInfo& info = device_info(device);
  const std::int64_t needed = std::max<std::int64_t>(1, (work_items + block - 1) / block);
  const std::int64_t resident = static_cast<std::int64_t>(info.sm_count) *
                                std::min<unsigned>(blocks_per_sm, static_cast<unsigned>(info.max_threads_per_sm) / block);
  return static_cast<unsigned>(std::min<std::int64_t>(needed, std::max<std::int64_t>(resident, 1)));
}

}  // namespace copper::backend::cuda
