// copper::cuda (include/copper/cuda.hpp): streams, events, synchronization and the
// memory pool, on top of the CUDA backend's runtime.
//
// Without a usable GPU (no driver, or built without the CUDA backend) the calls that mean
// something on any device act on the CPU device, which stands in as device 0: streams and
// events are host objects (synchronize waits for the CPU backend, events record the host
// clock), synchronize() and free_all_blocks() work, set_device(0) selects the CPU. Asking
// for another device, and GPU-only features (graphs, memory statistics, device
// properties), raise RuntimeError.
#include "copper/cuda.hpp"

#include <chrono>

#include "backend/backend.h"
#include "copper/device.hpp"
#include "copper/errors.hpp"
#include "copper/fusion.hpp"
#include "copper/runtime.hpp"

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_index_errors.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/cuda_peer.h"
#else
namespace copper::cuda {
// Built without the CUDA backend, every stream and event is a CPU-device one.
struct StreamState {
  int device = 0;
  bool host = true;
};
struct EventState {
  int device = 0;
  bool recorded = false;
  bool host = true;
  std::int64_t host_time_ns = 0;
};
}  // namespace copper::cuda
#endif

namespace copper::cuda {

#ifdef COPPER_HAVE_CUDA
namespace rt = copper::backend::cuda;
#endif

namespace {

// No usable GPU: streams, events and device 0 act on the CPU device. (A build without the
// CUDA backend never has one, and asks nothing.)
[[maybe_unused]] bool on_host() { return !is_available(); }

[[noreturn]] void needs_gpu(const char* what) {
#ifdef COPPER_HAVE_CUDA
  throw RuntimeError(std::string(what) + " needs a GPU, and CUDA is not available: " + rt::why_unavailable());
#else
  throw RuntimeError(std::string(what) + " needs a GPU, and copper was built without the CUDA backend");
#endif
}

// Device -1 (current) or 0 on the CPU stand-in; anything else names a GPU that is not there.
int host_device(int device) {
  if (device > 0) {
    throw RuntimeError("CUDA device " + std::to_string(device) +
                       " requested, but no GPU is usable; without one, device 0 stands for the CPU");
  }
  return 0;
}

void wait_for_cpu() { backend::backend_for(cpu).synchronize(); }

std::shared_ptr<StreamState> host_stream() {
  auto s = std::make_shared<StreamState>();
  s->host = true;
  return s;
}

// The CPU device's null stream (one object, so Stream::null() == Stream::null()) and the
// thread's current stream on it.
const std::shared_ptr<StreamState>& host_null_stream() {
  static const std::shared_ptr<StreamState> null = host_stream();
  return null;
}
thread_local std::shared_ptr<StreamState> host_current_stream;

#ifdef COPPER_HAVE_CUDA
int resolve(int device) {
  if (device < 0) device = current_device();
  rt::device_info(device);  // RuntimeError for a bad index
  return device;
}
#endif

std::int64_t host_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool is_available() {
#ifdef COPPER_HAVE_CUDA
  return rt::device_count() > 0;
#else
  return false;
#endif
}

int device_count() {
#ifdef COPPER_HAVE_CUDA
  return rt::device_count();
#else
  return 0;
#endif
}

int current_device() {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) {
    const Device d = default_device();
    const int index = d.type == DeviceType::cuda ? d.index : 0;
    rt::device_info(index);
    return index;
  }
#endif
  return 0;
}

Stream::Stream(bool non_blocking, int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) {
    device = resolve(device);
    rt::make_current(device);
    auto s = std::make_shared<StreamState>();
    s->device = device;
    rt::check(rt::driver().cuStreamCreate(&s->handle, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
              "cuStreamCreate");
    s->owned = true;
    state_ = std::move(s);
    return;
  }
#endif
  (void)non_blocking;
  host_device(device);
  state_ = host_stream();
}

Stream Stream::null(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) {
    auto s = std::make_shared<StreamState>();
    s->device = resolve(device);
    return Stream(std::move(s));
  }
#endif
  host_device(device);
  return Stream(host_null_stream());
}

namespace {

// Automatic fusion: work called before a synchronization point is enqueued before it, as
// eagerly (a deferred chain runs on the stream its ops were called on).
void enqueue_deferred() {
  if (copper::detail::deferred_pending.load(std::memory_order_acquire)) copper::run_deferred();
}

}  // namespace

void Stream::synchronize() const {
  check_synchronize_allowed("Stream.synchronize");
  enqueue_deferred();
  if (state_->host) return wait_for_cpu();
#ifdef COPPER_HAVE_CUDA
  rt::refuse_during_capture(state_->device, "Stream.synchronize");
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuStreamSynchronize(state_->handle);
  if (r != CUDA_SUCCESS) {
    rt::raise_async_error(r, state_->last_op.load(), "Stream.synchronize");
  }
  rt::raise_index_error_if_any(*state_);
#endif
}

bool Stream::done() const {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) {
    if (state_->capturing.load()) throw RuntimeError("Stream.done cannot be asked of a capturing stream");
    rt::make_current(state_->device);
    CUresult r = rt::driver().cuStreamQuery(state_->handle);
    if (r == CUDA_ERROR_NOT_READY) return false;
    rt::check(r, "cuStreamQuery");
  }
#endif
  return true;  // the CPU backend finishes each op before returning
}

std::uintptr_t Stream::handle() const {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) return reinterpret_cast<std::uintptr_t>(state_->handle);
#endif
  // CPU-device streams: 0 for the null stream (as CUDA's), else the state's address.
  return state_ == host_null_stream() ? 0 : reinterpret_cast<std::uintptr_t>(state_.get());
}

int Stream::device() const { return state_->device; }

void Stream::begin_capture() {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) return rt::begin_capture(state_);
#endif
  needs_gpu("CUDA graph capture");
}

Graph Stream::end_capture() {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) return Graph(rt::end_capture(*state_));
#endif
  needs_gpu("CUDA graph capture");
}

bool Stream::is_capturing() const {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) return rt::is_capturing(*state_);
#endif
  return false;
}

// Graphs exist only where a capture succeeded, so on a GPU.
#ifdef COPPER_HAVE_CUDA
void Graph::launch() const { rt::launch_graph(*state_, rt::current_stream_state(state_->device)); }
void Graph::launch(const Stream& stream) const { rt::launch_graph(*state_, *stream.state()); }
void Graph::upload(const Stream& stream) const { rt::upload_graph(*state_, *stream.state()); }
int Graph::device() const { return state_->device; }
std::size_t Graph::num_nodes() const { return state_->nodes; }
std::uint64_t launch_count() { return rt::launch_counter.load(std::memory_order_relaxed); }
#else
void Graph::launch() const { needs_gpu("Graph.launch"); }
void Graph::launch(const Stream&) const { needs_gpu("Graph.launch"); }
void Graph::upload(const Stream&) const { needs_gpu("Graph.upload"); }
int Graph::device() const { needs_gpu("Graph"); }
std::size_t Graph::num_nodes() const { needs_gpu("Graph"); }
std::uint64_t launch_count() { return 0; }
#endif

Stream current_stream(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return Stream(rt::current_stream_shared(resolve(device)));
#endif
  host_device(device);
  return Stream(host_current_stream ? host_current_stream : host_null_stream());
}

void set_current_stream(const Stream& stream) {
#ifdef COPPER_HAVE_CUDA
  if (!stream.state()->host) return rt::set_current_stream_shared(stream.state());
#endif
  host_current_stream = stream.state();
}

Event::Event(bool timing, int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) {
    device = resolve(device);
    rt::make_current(device);
    auto e = std::make_shared<EventState>();
    e->device = device;
    rt::check(rt::driver().cuEventCreate(&e->handle, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
              "cuEventCreate");
    state_ = std::move(e);
    return;
  }
#endif
  (void)timing;
  host_device(device);
  state_ = std::make_shared<EventState>();
  state_->host = true;
}

void Event::record() { record(current_stream(state_->device)); }

void Event::record(const Stream& stream) {
  if (stream.device() != state_->device || stream.state()->host != state_->host)
    throw ValueError("Event.record: the event and the stream belong to different devices");
  enqueue_deferred();
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) {
    rt::make_current(state_->device);
    rt::check(rt::driver().cuEventRecord(state_->handle, reinterpret_cast<CUstream>(stream.handle())),
              "cuEventRecord");
    state_->recorded = true;
    return;
  }
#endif
  wait_for_cpu();  // the mark follows the work submitted before it
  state_->host_time_ns = host_now_ns();
  state_->recorded = true;
}

void Event::synchronize() const {
  check_synchronize_allowed("Event.synchronize");
  if (state_->host) return wait_for_cpu();
#ifdef COPPER_HAVE_CUDA
  rt::refuse_during_capture(state_->device, "Event.synchronize");
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuEventSynchronize(state_->handle);
  if (r != CUDA_SUCCESS) rt::raise_async_error(r, "(an op before the event)", "Event.synchronize");
#endif
}

bool Event::done() const {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) {
    rt::make_current(state_->device);
    CUresult r = rt::driver().cuEventQuery(state_->handle);
    if (r == CUDA_ERROR_NOT_READY) return false;
    rt::check(r, "cuEventQuery");
  }
#endif
  return true;
}

void Event::wait(const Stream& stream) const {
  if (state_->host || stream.state()->host) return;  // CPU work already runs in order
#ifdef COPPER_HAVE_CUDA
  rt::make_current(stream.device());
  rt::check(rt::driver().cuStreamWaitEvent(reinterpret_cast<CUstream>(stream.handle()), state_->handle, 0),
            "cuStreamWaitEvent");
#endif
}

std::uintptr_t Event::handle() const {
#ifdef COPPER_HAVE_CUDA
  if (!state_->host) return reinterpret_cast<std::uintptr_t>(state_->handle);
#endif
  return reinterpret_cast<std::uintptr_t>(state_.get());
}

float elapsed_time(const Event& start, const Event& end) {
  if (!start.state_->recorded || !end.state_->recorded)
    throw ValueError("elapsed_time: both events must have been recorded");
  if (start.state_->host != end.state_->host)
    throw ValueError("elapsed_time: the events belong to different devices");
#ifdef COPPER_HAVE_CUDA
  if (!start.state_->host) {
    rt::make_current(start.state_->device);
    float ms = 0;
    rt::check(rt::driver().cuEventElapsedTime(&ms, start.state_->handle, end.state_->handle), "cuEventElapsedTime");
    return ms;
  }
#endif
  return static_cast<float>(end.state_->host_time_ns - start.state_->host_time_ns) / 1e6f;
}

void synchronize(int device) {
  check_synchronize_allowed("synchronize");
  enqueue_deferred();
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) {
    device = resolve(device);
    rt::refuse_during_capture(device, "synchronize");
    rt::make_current(device);
    CUresult r = rt::driver().cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
      rt::raise_async_error(r, rt::current_stream_state(device).last_op.load(), "synchronize");
    }
    rt::raise_index_error_if_any(rt::current_stream_state(device));
    return;
  }
#endif
  host_device(device);
  wait_for_cpu();
}

MemoryStats memory_stats(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::memory_stats(resolve(device));
#endif
  (void)device;
  needs_gpu("memory_stats");
}

void set_memory_limit(std::size_t bytes, int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::set_memory_limit(resolve(device), bytes);
#endif
  (void)bytes, (void)device;
  needs_gpu("set_memory_limit");
}

void free_all_blocks(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::free_all_blocks(resolve(device));
#endif
  host_device(device);  // the CPU backend keeps no cached blocks
}

void reset_peak_memory(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::reset_peak_memory(resolve(device));
#endif
  (void)device;
  needs_gpu("reset_peak_memory");
}

int get_device() { return current_device(); }

void set_device(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return set_default_device(Device{DeviceType::cuda, resolve(device)});
#endif
  host_device(device);
  set_default_device(cpu);
}

bool can_access_peer(int device, int peer) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::can_access_peer(resolve(device), resolve(peer));
#endif
  (void)device, (void)peer;
  needs_gpu("can_access_peer");
}

DeviceProperties device_properties(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return rt::device_properties(resolve(device));
#endif
  (void)device;
  needs_gpu("device_properties");
}

std::string compute_capability(int device) {
#ifdef COPPER_HAVE_CUDA
  if (!on_host()) return std::to_string(rt::device_info(resolve(device)).arch);
#endif
  (void)device;
  needs_gpu("compute_capability");
}

}  // namespace copper::cuda
