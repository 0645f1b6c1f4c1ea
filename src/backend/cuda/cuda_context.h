// Per-device runtime state: the primary context, device facts, current streams
// (per thread), and kernel launches that remember which op they ran so an
// asynchronous failure can be named at the next synchronization.
#pragma once
#include <cstdint>
#include <memory>
#include <atomic>
#include <string>

#include "backend/cuda/cuda_driver.h"
#include "copper/cuda.hpp"

namespace copper::cuda {

struct StreamState {
  CUstream handle = nullptr;  // nullptr: the legacy default stream
  int device = 0;
  bool owned = false;
  // The last op enqueued (a static name), for naming an asynchronous failure.
  std::atomic<const char*> last_op{"(none)"};
  // Set between begin_capture() and end_capture() (cuda_graph.cpp): allocations for work
  // on this stream then come from outside the graph.
  std::atomic<bool> capturing{false};
  // A bounds-checking kernel (indexing) was enqueued since the last synchronization:
  // the next one reads the device's out-of-bounds record (cuda_index_errors.h).
  std::atomic<bool> index_check_pending{false};
  ~StreamState();
};

struct EventState {
  CUevent handle = nullptr;
  int device = 0;
  bool recorded = false;
  ~EventState();
};

}  // namespace copper::cuda

namespace copper::backend::cuda {

struct DeviceInfo {
  int index = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int sm_count = 0;
  int arch = 0;  // 90 for sm_90
  int max_threads_per_sm = 2048;
  std::string name;
};

int device_count();  // 0 without a usable driver
// Facts about device `index`, with its primary context retained; RuntimeError for a
// bad index.
const DeviceInfo& device_info(int index);
// Makes the device's primary context current on this thread (cheap when it already is).
void make_current(int index);

// The current stream of `device` on this thread (the legacy default stream unless
// set), as a raw handle for launches and copies.
CUstream current_stream_handle(int device);
copper::cuda::StreamState& current_stream_state(int device);
std::shared_ptr<copper::cuda::StreamState> current_stream_shared(int device);
void set_current_stream_shared(std::shared_ptr<copper::cuda::StreamState> stream);

// Kernels and graphs copper has launched in this process (copper.cuda.launch_count()):
// one relaxed increment per launch, so tests can see a graph replay is one call.
inline std::atomic<std::uint64_t> launch_counter{0};

// Enqueues `fn` on the current stream of `device`; `op` names the work for error reports.
void launch(int device, CUfunction fn, unsigned grid, unsigned block, void** args, const char* op,
            unsigned shared_bytes = 0);
// Blocks on the current stream of `device`; raises RuntimeError naming the last op
// enqueued if the GPU reports a failure.
void synchronize_current_stream(int device);
// A failed synchronization as an exception that names the op most likely at fault.
[[noreturn]] void raise_async_error(CUresult result, const std::string& last_op, const char* what);

// How many blocks of `block` threads of `fn` one SM holds at once (registers and shared
// memory permitting), asked of the driver once per kernel.
unsigned resident_blocks_per_sm(CUfunction fn, unsigned block);

// A grid of at most `blocks_per_sm` resident blocks per SM for grid-stride loops.
unsigned grid_for(int device, std::int64_t work_items, unsigned block, unsigned blocks_per_sm = 8);

}  // namespace copper::backend::cuda
