// copper::cuda (include/copper/cuda.hpp): streams, events, synchronization and the
// memory pool, on top of the CUDA backend's runtime. Without the backend every call
// but is_available/device_count raises RuntimeError.
#include "copper/cuda.hpp"

#include "copper/device.hpp"
#include "copper/errors.hpp"

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_index_errors.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/cuda_peer.h"
#endif

namespace copper::cuda {

#ifdef COPPER_HAVE_CUDA
namespace rt = copper::backend::cuda;

namespace {
int resolve(int device) {
  if (device < 0) device = current_device();
  rt::device_info(device);  // RuntimeError without a driver or for a bad index
  return device;
}
}  // namespace

bool is_available() { return rt::device_count() > 0; }
int device_count() { return rt::device_count(); }

int current_device() {
  const Device d = default_device();
  const int index = d.type == DeviceType::cuda ? d.index : 0;
  rt::device_info(index);  // RuntimeError where no GPU exists
  return index;
}

Stream::Stream(bool non_blocking, int device) {
  device = resolve(device);
  rt::make_current(device);
  auto s = std::make_shared<StreamState>();
  s->device = device;
  rt::check(rt::driver().cuStreamCreate(&s->handle, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
            "cuStreamCreate");
  s->owned = true;
  state_ = std::move(s);
}

Stream Stream::null(int device) {
  device = resolve(device);
  auto s = std::make_shared<StreamState>();
  s->device = device;
  return Stream(std::move(s));
}

void Stream::synchronize() const {
  rt::refuse_during_capture(state_->device, "Stream.synchronize");
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuStreamSynchronize(state_->handle);
  if (r != CUDA_SUCCESS) {
    rt::raise_async_error(r, state_->last_op.load(), "Stream.synchronize");
  }
  rt::raise_index_error_if_any(*state_);
}

bool Stream::done() const {
  if (state_->capturing.load()) throw RuntimeError("Stream.done cannot be asked of a capturing stream");
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuStreamQuery(state_->handle);
  if (r == CUDA_ERROR_NOT_READY) return false;
  rt::check(r, "cuStreamQuery");
  return true;
}

std::uintptr_t Stream::handle() const { return reinterpret_cast<std::uintptr_t>(state_->handle); }
int Stream::device() const { return state_->device; }

void Stream::begin_capture() { rt::begin_capture(state_); }
Graph Stream::end_capture() { return Graph(rt::end_capture(*state_)); }
bool Stream::is_capturing() const { return rt::is_capturing(*state_); }

void Graph::launch() const { rt::launch_graph(*state_, rt::current_stream_state(state_->device)); }
void Graph::launch(const Stream& stream) const { rt::launch_graph(*state_, *stream.state()); }
void Graph::upload(const Stream& stream) const { rt::upload_graph(*state_, *stream.state()); }
int Graph::device() const { return state_->device; }
std::size_t Graph::num_nodes() const { return state_->nodes; }

std::uint64_t launch_count() { return rt::launch_counter.load(std::memory_order_relaxed); }

Stream current_stream(int device) { return Stream(rt::current_stream_shared(resolve(device))); }
void set_current_stream(const Stream& stream) { rt::set_current_stream_shared(stream.state()); }

Event::Event(bool timing, int device) {
  device = resolve(device);
  rt::make_current(device);
  auto e = std::make_shared<EventState>();
  e->device = device;
  rt::check(rt::driver().cuEventCreate(&e->handle, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  state_ = std::move(e);
}

void Event::record() { record(current_stream(state_->device)); }

void Event::record(const Stream& stream) {
  if (stream.device() != state_->device)
    throw ValueError("Event.record: the event belongs to cuda:" + std::to_string(state_->device) +
                     " but the stream to cuda:" + std::to_string(stream.device()));
  rt::make_current(state_->device);
  rt::check(rt::driver().cuEventRecord(state_->handle, reinterpret_cast<CUstream>(stream.handle())), "cuEventRecord");
  state_->recorded = true;
}

void Event::synchronize() const {
  rt::refuse_during_capture(state_->device, "Event.synchronize");
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuEventSynchronize(state_->handle);
  if (r != CUDA_SUCCESS) rt::raise_async_error(r, "(an op before the event)", "Event.synchronize");
}

bool Event::done() const {
  rt::make_current(state_->device);
  CUresult r = rt::driver().cuEventQuery(state_->handle);
  if (r == CUDA_ERROR_NOT_READY) return false;
  rt::check(r, "cuEventQuery");
  return true;
}

void Event::wait(const Stream& stream) const {
  rt::make_current(stream.device());
  rt::check(rt::driver().cuStreamWaitEvent(reinterpret_cast<CUstream>(stream.handle()), state_->handle, 0),
            "cuStreamWaitEvent");
}

std::uintptr_t Event::handle() const { return reinterpret_cast<std::uintptr_t>(state_->handle); }

float elapsed_time(const Event& start, const Event& end) {
  if (!start.state_->recorded || !end.state_->recorded)
    throw ValueError("elapsed_time: both events must have been recorded");
  rt::make_current(start.state_->device);
  float ms = 0;
  rt::check(rt::driver().cuEventElapsedTime(&ms, start.state_->handle, end.state_->handle), "cuEventElapsedTime");
  return ms;
}

void synchronize(int device) {
  device = resolve(device);
  rt::refuse_during_capture(device, "synchronize");
  rt::make_current(device);
  CUresult r = rt::driver().cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    rt::raise_async_error(r, rt::current_stream_state(device).last_op.load(), "synchronize");
  }
  rt::raise_index_error_if_any(rt::current_stream_state(device));
}

MemoryStats memory_stats(int device) { return rt::memory_stats(resolve(device)); }
void set_memory_limit(std::size_t bytes, int device) { rt::set_memory_limit(resolve(device), bytes); }
void free_all_blocks(int device) { rt::free_all_blocks(resolve(device)); }
void reset_peak_memory(int device) { rt::reset_peak_memory(resolve(device)); }

int get_device() { return current_device(); }
void set_device(int device) { set_default_device(Device{DeviceType::cuda, resolve(device)}); }
bool can_access_peer(int device, int peer) { return rt::can_access_peer(resolve(device), resolve(peer)); }
DeviceProperties device_properties(int device) { return rt::device_properties(resolve(device)); }
std::string compute_capability(int device) { return std::to_string(rt::device_info(resolve(device)).arch); }

#else  // built without the CUDA backend

namespace {
[[noreturn]] void unavailable() { throw RuntimeError("CUDA is not available: copper was built without the CUDA backend"); }
}  // namespace

bool is_available() { return false; }
int device_count() { return 0; }
int current_device() { unavailable(); }
Stream::Stream(bool, int) { unavailable(); }
Stream Stream::null(int) { unavailable(); }
void Stream::synchronize() const { unavailable(); }
bool Stream::done() const { unavailable(); }
std::uintptr_t Stream::handle() const { unavailable(); }
int Stream::device() const { unavailable(); }
Stream current_stream(int) { unavailable(); }
void set_current_stream(const Stream&) { unavailable(); }
Event::Event(bool, int) { unavailable(); }
void Event::record() { unavailable(); }
void Event::record(const Stream&) { unavailable(); }
void Event::synchronize() const { unavailable(); }
bool Event::done() const { unavailable(); }
void Event::wait(const Stream&) const { unavailable(); }
std::uintptr_t Event::handle() const { unavailable(); }
float elapsed_time(const Event&, const Event&) { unavailable(); }
void synchronize(int) { unavailable(); }
MemoryStats memory_stats(int) { unavailable(); }
void set_memory_limit(std::size_t, int) { unavailable(); }
void free_all_blocks(int) { unavailable(); }
void reset_peak_memory(int) { unavailable(); }
void Stream::begin_capture() { unavailable(); }
Graph Stream::end_capture() { unavailable(); }
bool Stream::is_capturing() const { unavailable(); }
void Graph::launch() const { unavailable(); }
void Graph::launch(const Stream&) const { unavailable(); }
void Graph::upload(const Stream&) const { unavailable(); }
int Graph::device() const { unavailable(); }
std::size_t Graph::num_nodes() const { unavailable(); }
std::uint64_t launch_count() { return 0; }
int get_device() { unavailable(); }
void set_device(int) { unavailable(); }
bool can_access_peer(int, int) { unavailable(); }
DeviceProperties device_properties(int) { unavailable(); }
std::string compute_capability(int) { unavailable(); }

#endif

}  // namespace copper::cuda
