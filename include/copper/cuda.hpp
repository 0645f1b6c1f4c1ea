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
#include <string>

namespace copper::cuda {

bool is_available();
int device_count();  // 0 without a driver
// The device index GPU work goes to by default: the default device's when that is a
// GPU, else 0.
int current_device();

struct StreamState;  // owns a CUstream (or names the legacy default stream)
class Graph;

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

  // CUDA graphs, as CuPy's: work enqueued on this stream (make it current, e.g. with a
  // StreamScope) between begin_capture() and end_capture() is recorded, not run, and
  // end_capture() returns it as a Graph to launch any number of times. Capture is
  // thread-local (end on the thread that began). While it runs, whatever would wait for
  // the device or copy host memory on it raises RuntimeError. Memory allocated during
  // the capture is owned by the graph too and keeps its address across launches; arrays
  // made before it are used by address, so keep them alive while launching the graph.
  // The legacy default stream (Stream::null) cannot capture.
  void begin_capture();
  Graph end_capture();
  bool is_capturing() const;  // RuntimeError if the capture was invalidated

  bool operator==(const Stream& other) const { return state_ == other.state_; }
  const std::shared_ptr<StreamState>& state() const { return state_; }
  explicit Stream(std::shared_ptr<StreamState> s) : state_(std::move(s)) {}

 private:
  std::shared_ptr<StreamState> state_;
};

struct GraphState;

// A captured, instantiated CUDA graph (Stream::end_capture). Launching one is one driver
// call whatever the number of kernels recorded.
class Graph {
 public:
  void launch() const;  // on the current stream of the graph's device
  void launch(const Stream& stream) const;
  void upload(const Stream& stream) const;  // prepares a launch on `stream` ahead of time
  int device() const;
  std::size_t num_nodes() const;  // kernels, copies and memsets recorded
  explicit Graph(std::shared_ptr<GraphState> s) : state_(std::move(s)) {}

 private:
  std::shared_ptr<GraphState> state_;
};

// Kernels and graphs copper has launched in this process (kernel launches of libraries
// such as cuBLAS not included); 0 without the CUDA backend.
std::uint64_t launch_count();

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

// Several GPUs. New arrays and kernels go to the default device (copper::DeviceScope,
// set_device); arrays keep theirs, and an op mixing arrays of two devices raises
// ValueError. copper::asarray(a, dtype, Device{cuda, j}) copies between GPUs with
// cuMemcpyPeerAsync (direct when the GPUs can access each other, staged by the driver
// otherwise), ordered after the work pending on both devices' current streams.
int get_device();          // the current GPU (current_device())
void set_device(int device);  // makes cuda:<device> the default device of this thread
bool can_access_peer(int device, int peer);  // direct access from `device` to `peer`'s memory

// The properties scripts read most, named as CUDA's cudaDeviceProp fields.
struct DeviceProperties {
  std::string name;
  std::size_t total_global_mem = 0;       // bytes
  std::size_t shared_mem_per_block = 0;   // bytes
  std::size_t shared_mem_per_multiprocessor = 0;
  std::size_t total_const_mem = 0;
  int regs_per_block = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_threads_dim[3] = {};
  int max_grid_size[3] = {};
  int clock_rate = 0;         // kHz
  int memory_clock_rate = 0;  // kHz
  int memory_bus_width = 0;   // bits
  int major = 0, minor = 0;   // compute capability
  int multi_processor_count = 0;
  int l2_cache_size = 0;      // bytes
  int max_threads_per_multiprocessor = 0;
  int pci_bus_id = 0, pci_device_id = 0, pci_domain_id = 0;
  int concurrent_kernels = 0;
  int ecc_enabled = 0;
  int integrated = 0;
};
DeviceProperties device_properties(int device = -1);
std::string compute_capability(int device = -1);  // "90" for sm_90, as CuPy's Device

}  // namespace copper::cuda
