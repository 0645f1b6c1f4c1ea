// GPU runtime control, CuPy-style: streams (a current one per device and thread),
// events, device synchronization and the memory pool. Operations on GPU arrays
// are asynchronous: they enqueue on the current stream of their array's device,
// and host reads (copy_to_host, item, printing) wait for them.
// Every function here raises RuntimeError where no usable GPU exists, except
// is_available() and device_count().
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace copper::cuda {

bool is_available();
int device_count();  // 0 without a driver
// The device index GPU work goes to by default: the default device's when that is a
// GPU, else 0.
int current_device();

struct StreamState;  // owns a CUstream (or names the legacy default stream)

// A queue of GPU work on one device. Copies share the queue.
class Stream {
 public:
  // A new stream on `device` (-1: the current device). A blocking stream orders
  // itself with the legacy default stream, as CuPy's Stream() does.
  explicit Stream(bool non_blocking = false, int device = -1);
  static Stream null(int device = -1);  // the legacy default stream
  void synchronize() const;  // raises the error of any failed op enqueued on it
  bool done() const;         // all enqueued work finished
  std::uintptr_t handle() const;
  int device() const;
  bool operator==(const Stream& other) const { return state_ == other.state_; }
  const std::shared_ptr<StreamState>& state() const { return state_; }
  explicit Stream(std::shared_ptr<StreamState> s) : state_(std::move(s)) {}

 private:
  std::shared_ptr<StreamState> state_;
};

Stream current_stream(int device = -1);
void set_current_stream(const Stream& stream);  // for its device, on this thread

// RAII: `stream` is current on its device while the guard lives.
class StreamScope {
 public:
  explicit StreamScope(const Stream& stream) : saved_(current_stream(stream.device())) { set_current_stream(stream); }
  ~StreamScope() { set_current_stream(saved_); }
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;

 private:
  Stream saved_;
};

struct EventState;

// A marker in a stream's work; two recorded events time the work between them.
class Event {
 public:
  explicit Event(bool timing = true, int device = -1);
  void record();  // on the current stream of the event's device
  void record(const Stream& stream);
  void synchronize() const;
  bool done() const;
  void wait(const Stream& stream) const;  // `stream` waits for this event
  std::uintptr_t handle() const;

 private:
  friend float elapsed_time(const Event& start, const Event& end);
  std::shared_ptr<EventState> state_;
};
// Milliseconds between two recorded events (both finished; synchronize first).
float elapsed_time(const Event& start, const Event& end);

// Waits for all work on the device (-1: current), raising the error of a failed op.
void synchronize(int device = -1);

// The memory pool of one device.
struct MemoryStats {
  std::size_t used = 0;    // bytes held by live arrays
  std::size_t cached = 0;  // bytes the pool keeps for reuse beyond `used`
  std::size_t peak = 0;    // highest `used` since start or reset_peak_memory
  std::size_t limit = 0;   // the pool's limit (the device's total memory when unset)
  std::size_t total = 0;   // the device's total memory
};
MemoryStats memory_stats(int device = -1);
// Caps the bytes live arrays may hold on the device; 0 removes the cap.
// COPPER_GPU_MEMORY_LIMIT (bytes, or with a suffix: 8GB, 512MiB, 50%) sets it at start.
void set_memory_limit(std::size_t bytes, int device = -1);
void free_all_blocks(int device = -1);  // returns cached memory to the driver
void reset_peak_memory(int device = -1);

}  // namespace copper::cuda
