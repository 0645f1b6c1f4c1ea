#include "backend/cuda/cuda_graph.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <thread>

#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/per_device.h"
#include "copper/errors.hpp"
#include "copper/fusion.hpp"

namespace copper::cuda {

GraphState::~GraphState() {
  using namespace copper::backend::cuda;
  const Driver* d = try_driver();
  if (!d) return;
  try {
    make_current(device);
    if (launched && last_launch) {
      // The kept memory goes back to the pool next: the last replay must be done with it.
      RelaxedCaptureScope relaxed;
      d->cuEventSynchronize(last_launch);
    }
    if (exec) d->cuGraphExecDestroy(exec);
    if (graph) d->cuGraphDestroy(graph);
    if (last_launch) d->cuEventDestroy(last_launch);
  } catch (...) {
    // No throw from a destructor; the process is going down or the driver is gone.
  }
}

}  // namespace copper::cuda

namespace copper::backend::cuda {
namespace {

using copper::cuda::GraphState;
using copper::cuda::StreamState;

struct CaptureSession {
  std::shared_ptr<StreamState> stream;  // held, so a capturing stream is not destroyed
  std::thread::id thread;
  std::vector<std::shared_ptr<void>> kept;
};

// The captures in progress, per device; leaked (buffers freed at exit still ask).
struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<CaptureSession>> sessions[kMaxDevices];
};
Registry& registry() {
  static auto* r = new Registry();
  return *r;
}

// Memory freed during a capture: released when the last graph holding it lets go.
struct DeferredRelease {
  int device = 0;
  std::function<void()> release;
  ~DeferredRelease() {
    if (!release) return;
    try {
      if (!defer_release_during_capture(device, release)) release();
    } catch (...) {
    }
  }
};

struct AllocationStream {
  CUstream handle = nullptr;
};
CUstream allocation_stream(int device) {
  static auto* streams = new PerDevice<AllocationStream>();  // leaked, as the contexts
  return streams
      ->get(device,
            [&] {
              auto s = std::make_unique<AllocationStream>();
              make_current(device);
              check(driver().cuStreamCreate(&s->handle, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
              return s;
            })
      .handle;
}

std::shared_ptr<CaptureSession> take_session(int device, const StreamState* stream) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto& list = r.sessions[device];
  auto it = std::find_if(list.begin(), list.end(), [&](const auto& s) { return s->stream.get() == stream; });
  if (it == list.end()) return nullptr;
  auto session = std::move(*it);
  list.erase(it);
  captures_in_progress[device].fetch_sub(1, std::memory_order_acq_rel);
  return session;
}

std::string device_name(int device) { return "cuda:" + std::to_string(device); }

}  // namespace

void refuse_during_capture(int device, const char* what) {
  if (!capture_active(device)) return;
  throw RuntimeError(std::string(what) + " cannot run while a CUDA graph capture is in progress on " +
                     device_name(device) +
                     " (it would wait for the GPU or copy host memory, which a graph cannot record); do it "
                     "before begin_capture() or after end_capture()");
}

RelaxedCaptureScope::RelaxedCaptureScope() {
  try {
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    if (driver().cuThreadExchangeStreamCaptureMode(&mode) == CUDA_SUCCESS) {
      saved_ = static_cast<int>(mode);
      active_ = true;
    }
  } catch (const error&) {
    // A driver without capture support cannot be capturing either.
  }
}

RelaxedCaptureScope::~RelaxedCaptureScope() {
  if (!active_) return;
  auto mode = static_cast<CUstreamCaptureMode>(saved_);
  driver().cuThreadExchangeStreamCaptureMode(&mode);
}

CUresult allocate_outside_capture(int device, CUdeviceptr* ptr, std::size_t nbytes) {
  RelaxedCaptureScope relaxed;
  const Driver& d = driver();
  CUstream side = allocation_stream(device);
  CUresult r = d.cuMemAllocAsync(ptr, nbytes, side);
  if (r == CUDA_SUCCESS) r = d.cuStreamSynchronize(side);  // allocated: usable from any stream now
  return r;
}

void keep_for_capture(const StreamState& stream, std::shared_ptr<void> owner) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto& s : r.sessions[stream.device]) {
    if (s->stream.get() == &stream) {
      s->kept.push_back(std::move(owner));
      return;
    }
  }
}

bool defer_release_during_capture(int device, std::function<void()>& release) {
  if (!capture_active(device)) return false;
  Registry& r = registry();
  std::shared_ptr<DeferredRelease> pending;
  std::lock_guard lock(r.mutex);
  auto& list = r.sessions[device];
  if (list.empty()) return false;
  pending = std::make_shared<DeferredRelease>();
  pending->device = device;
  pending->release = std::move(release);
  // Any of the captures may refer to the memory; whichever graph goes last frees it.
  for (auto& s : list) s->kept.push_back(pending);
  return true;  // `pending` is dropped here with others still holding it (never the last)
}

void begin_capture(const std::shared_ptr<StreamState>& stream) {
  if (!stream->handle)
    throw RuntimeError("cannot capture the legacy default stream (Stream.null); capture a stream made with "
                       "copper.cuda.Stream()");
  if (stream->capturing.load())
    throw RuntimeError("the stream is already capturing; call end_capture() first");
  const int device = stream->device;
  // Deferred elementwise work (automatic fusion) was called before the capture: it runs now,
  // outside the graph; ops are not deferred while a capture runs (CudaBackend::can_chain).
  run_deferred();
  const Driver& d = driver();
  make_current(device);
  // First uses make calls a capture forbids: open the pool and the allocation stream now.
  memory_stats(device);
  allocation_stream(device);
  auto session = std::make_shared<CaptureSession>();
  session->stream = stream;
  session->thread = std::this_thread::get_id();
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.sessions[device].push_back(session);
    captures_in_progress[device].fetch_add(1, std::memory_order_acq_rel);
  }
  stream->capturing.store(true);
  if (CUresult res = d.cuStreamBeginCapture(stream->handle, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL); res != CUDA_SUCCESS) {
    stream->capturing.store(false);
    take_session(device, stream.get());
    check(res, "cuStreamBeginCapture");
  }
}

std::shared_ptr<GraphState> end_capture(StreamState& stream) {
  if (!stream.capturing.load())
    throw RuntimeError("end_capture(): the stream is not capturing (call begin_capture() first)");
  const int device = stream.device;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (auto& s : r.sessions[device]) {
      if (s->stream.get() == &stream && s->thread != std::this_thread::get_id())
        throw RuntimeError("end_capture() must be called on the thread that called begin_capture()");
    }
  }
  const Driver& d = driver();
  make_current(device);
  CUgraph graph = nullptr;
  const CUresult res = d.cuStreamEndCapture(stream.handle, &graph);
  stream.capturing.store(false);
  auto state = std::make_shared<GraphState>();  // owns what the session kept from here on
  state->device = device;
  state->graph = graph;
  if (auto session = take_session(device, &stream)) state->kept = std::move(session->kept);
  if (res != CUDA_SUCCESS || !graph) {
    throw RuntimeError("stream capture failed: " + error_text(res) +
                       ". An operation that cannot be recorded in a graph ran during the capture (for example "
                       "work on the legacy default stream while a blocking stream captures)");
  }
  check(d.cuGraphGetNodes(graph, nullptr, &state->nodes), "cuGraphGetNodes");
  // Auto-free: should a library allocate graph memory inside the capture and not free
  // it, a relaunch frees the previous launch's block instead of failing.
  check(d.cuGraphInstantiate(&state->exec, graph, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH),
        "cuGraphInstantiate");
  return state;
}

bool is_capturing(const StreamState& stream) {
  if (!stream.handle) return false;  // the legacy stream cannot capture
  make_current(stream.device);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(driver().cuStreamIsCapturing(stream.handle, &status), "cuStreamIsCapturing");
  if (status == CU_STREAM_CAPTURE_STATUS_INVALIDATED)
    throw RuntimeError("the capture on this stream was invalidated by an operation that cannot be captured");
  return status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

namespace {
void check_launchable(const GraphState& graph, const StreamState& stream, const char* what) {
  if (stream.device != graph.device)
    throw ValueError(std::string(what) + ": the graph was captured on " + device_name(graph.device) +
                     " but the stream belongs to " + device_name(stream.device));
  if (stream.capturing.load())
    throw RuntimeError(std::string(what) + ": the stream is capturing; launching a graph inside a capture is not supported");
}
}  // namespace

void launch_graph(GraphState& graph, StreamState& stream) {
  check_launchable(graph, stream, "Graph.launch");
  const Driver& d = driver();
  make_current(graph.device);
  stream.last_op.store("a CUDA graph", std::memory_order_relaxed);
  check(driver().cuGraphLaunch(graph.exec, stream.handle), "cuGraphLaunch");
  launch_counter.fetch_add(1, std::memory_order_relaxed);
  if (!graph.kept.empty()) {
    // Launches of one graph run in order, so the last one done means all are.
    if (!graph.last_launch) check(d.cuEventCreate(&graph.last_launch, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    check(d.cuEventRecord(graph.last_launch, stream.handle), "cuEventRecord");
    graph.launched = true;
  }
}

void upload_graph(GraphState& graph, StreamState& stream) {
  check_launchable(graph, stream, "Graph.upload");
  make_current(graph.device);
  check(driver().cuGraphUpload(graph.exec, stream.handle), "cuGraphUpload");
}

}  // namespace copper::backend::cuda
