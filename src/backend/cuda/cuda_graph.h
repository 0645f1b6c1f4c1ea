// CUDA graphs from stream capture (Stream.begin_capture / end_capture / Graph.launch).
//
// Capture runs in thread-local mode, so this thread may still compile and load kernels
// on first use. What cannot be captured (host waits, host<->device copies, the
// allocator's out-of-memory retry) refuses with a clear error while any capture runs on
// the device, before it can invalidate the capture (refuse_during_capture).
//
// Memory: an allocation made while the current stream is capturing is not a graph
// memory node; it is taken from the pool outside the graph (on a private stream) and
// the graph keeps a reference, so its address is fixed and valid for every replay, and
// an array that outlives end_capture() stays a valid array holding the last replay's
// values. Memory freed while a capture runs on its device is likewise kept until every
// graph captured meanwhile is gone (a graph may still read it). A graph waits for its
// last launch before letting go of what it keeps. Arrays made before the capture and
// used by it are referred to by address: keep them alive while the graph is launched.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/per_device.h"

namespace copper::cuda {

// An instantiated graph and the memory its work uses (see above).
struct GraphState {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  int device = 0;
  std::size_t nodes = 0;
  CUevent last_launch = nullptr;  // recorded after each launch when `kept` is not empty
  bool launched = false;
  std::vector<std::shared_ptr<void>> kept;
  ~GraphState();  // waits for the last launch, then drops `kept`
};

}  // namespace copper::cuda

namespace copper::backend::cuda {

// Captures in progress per device, any thread. Read on every free, so a relaxed load.
inline std::atomic<int> captures_in_progress[kMaxDevices] = {};
inline bool capture_active(int device) { return captures_in_progress[device].load(std::memory_order_acquire) != 0; }
// RuntimeError naming `what` while a capture runs on `device`.
void refuse_during_capture(int device, const char* what);

// Relaxed capture mode for the calling thread while alive: for calls that do not touch
// a capturing stream but that thread-local mode forbids (pool queries, module loads).
class RelaxedCaptureScope {
 public:
  RelaxedCaptureScope();
  ~RelaxedCaptureScope();
  RelaxedCaptureScope(const RelaxedCaptureScope&) = delete;
  RelaxedCaptureScope& operator=(const RelaxedCaptureScope&) = delete;

 private:
  int saved_ = 0;
  bool active_ = false;
};

// For the allocator. During a capture on the current stream: memory from the pool,
// finished on a private stream so any stream may use it (a CUresult, as cuMemAllocAsync).
CUresult allocate_outside_capture(int device, CUdeviceptr* ptr, std::size_t nbytes);
// Hands `owner` to the capture running on `stream`, so its graph keeps it alive.
void keep_for_capture(const copper::cuda::StreamState& stream, std::shared_ptr<void> owner);
// While a capture runs on `device`: keeps `release` pending until every graph captured
// meanwhile is gone (then runs it) and returns true; otherwise returns false.
bool defer_release_during_capture(int device, std::function<void()>& release);

void begin_capture(const std::shared_ptr<copper::cuda::StreamState>& stream);
std::shared_ptr<copper::cuda::GraphState> end_capture(copper::cuda::StreamState& stream);
// The driver's answer; RuntimeError when the capture was invalidated.
bool is_capturing(const copper::cuda::StreamState& stream);
void launch_graph(copper::cuda::GraphState& graph, copper::cuda::StreamState& stream);
void upload_graph(copper::cuda::GraphState& graph, copper::cuda::StreamState& stream);

}  // namespace copper::backend::cuda
