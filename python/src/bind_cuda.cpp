// copper._core._cuda: the GPU runtime (streams, events, device sync, memory pool),
// bound from the public C++ API only, so it compiles whether or not the CUDA backend
// is built; without a usable GPU the calls raise RuntimeError (from the C++ side).
// copper/cuda.py adds the CuPy-style pieces that are plain Python (Device, MemoryPool).
#include <cstdio>
#include <functional>
#include <vector>

#include "bindings.h"
#include "copper/cuda.hpp"

namespace copper::python {
namespace {
using copper::cuda::Event;
using copper::cuda::Stream;

// None -> -1 (the current device); an int; "cuda:N", a copper.Device of type cuda;
// or anything with an integer `id` (copper.cuda.Device).
int device_index_from_py(nb::handle obj) {
  if (!obj.is_valid() || obj.is_none()) return -1;
  if (nb::isinstance<nb::bool_>(obj)) throw TypeError("device must be an int, a string such as 'cuda:0', or a Device");
  if (nb::isinstance<nb::int_>(obj)) {
    const int index = nb::cast<int>(obj);
    if (index < -1) throw ValueError("invalid CUDA device index " + std::to_string(index));
    return index;
  }
  if (nb::isinstance<nb::str>(obj) || nb::isinstance<Device>(obj)) {
    const Device d = device_from_py(obj);
    if (d.type != DeviceType::cuda) throw ValueError("device " + d.str() + " is not a CUDA device");
    return d.index;
  }
  if (nb::hasattr(obj, "id")) return nb::cast<int>(obj.attr("id"));
  throw TypeError("device must be an int, a string such as 'cuda:0', or a Device");
}

// Streams entered with `with stream:` on this thread, each with the stream it replaced;
// a stack because `with` blocks nest (and the same stream may be entered twice).
thread_local std::vector<Stream> replaced_streams;

std::string stream_repr(const Stream& s) {
  char handle[32];
  std::snprintf(handle, sizeof handle, "0x%llx", static_cast<unsigned long long>(s.handle()));
  return std::string("<copper.cuda.Stream ") + (s.handle() ? handle : "null") + " on cuda:" +
         std::to_string(s.device()) + ">";
}

void bind_stream(nb::module_& m) {
  nb::class_<Stream>(m, "Stream",
                     "A queue of GPU work on one device. `with stream:` makes it the current stream of its "
                     "device on this thread and restores the previous one on exit.")
      .def(
          "__init__",
          [](Stream* self, bool null, bool non_blocking, nb::handle device) {
            const int index = device_index_from_py(device);
            new (self) Stream(null ? Stream::null(index) : Stream(non_blocking, index));
          },
          nb::arg("null") = false, nb::arg("non_blocking") = false, nb::kw_only(), nb::arg("device") = nb::none())
      // A property of the class, so `Stream.null.synchronize()` works as in CuPy; resolved on
      // access (the current device's legacy default stream), since it needs a GPU.
      .def_prop_ro_static("null", [](nb::handle) { return Stream::null(); })
      .def_prop_ro("ptr", &Stream::handle)
      .def_prop_ro("device_id", &Stream::device)
      .def_prop_ro("done", &Stream::done)
      .def("synchronize", &Stream::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def("use",
           [](Stream& s) -> Stream& {
             copper::cuda::set_current_stream(s);
             return s;
           },
           nb::rv_policy::reference)
      .def(
          "record",
          [](const Stream& s, nb::handle event) -> nb::object {
            // As CuPy: records `event` (a new one when None) and hands back that same object.
            if (event.is_none()) {
              Event e(true, s.device());
              e.record(s);
              return nb::cast(std::move(e));
            }
            nb::cast<Event&>(event).record(s);
            return nb::borrow(event);
          },
          nb::arg("event") = nb::none())
      .def("wait_event", [](const Stream& s, const Event& e) { e.wait(s); }, nb::arg("event"))
      .def(
          "begin_capture",
          [](Stream& s, nb::handle mode) {
            // CuPy takes a capture mode; copper always captures thread-locally.
            if (!mode.is_none() && nb::cast<int>(mode) != 1)
              throw ValueError("copper captures in thread-local mode only (mode=None or 1)");
            s.begin_capture();
          },
          nb::arg("mode") = nb::none(),
          "Starts recording the work enqueued on this stream into a CUDA graph (make it current with "
          "`with stream:`); see end_capture().")
      .def("end_capture", &Stream::end_capture, "Stops recording and returns the captured work as a Graph.")
      .def("is_capturing", &Stream::is_capturing,
           "True between begin_capture() and end_capture(); RuntimeError if the capture was invalidated.")
      .def("__enter__",
           [](Stream& s) -> Stream& {
             Stream previous = copper::cuda::current_stream(s.device());
             copper::cuda::set_current_stream(s);
             replaced_streams.push_back(std::move(previous));
             return s;
           },
           nb::rv_policy::reference)
      .def("__exit__",
           [](Stream&, nb::args) {
             if (replaced_streams.empty()) return;
             Stream previous = std::move(replaced_streams.back());
             replaced_streams.pop_back();
             copper::cuda::set_current_stream(previous);
           })
      .def("__eq__", [](const Stream& a, nb::handle b) { return nb::isinstance<Stream>(b) && a == nb::cast<const Stream&>(b); })
      .def("__hash__", [](const Stream& s) { return std::hash<const void*>{}(s.state().get()); })
      .def("__repr__", &stream_repr);
}

void bind_graph(nb::module_& m) {
  nb::class_<copper::cuda::Graph>(m, "Graph",
                                  "Work captured from a stream (Stream.end_capture), launched again with one call.")
      .def(
          "launch",
          [](const copper::cuda::Graph& g, nb::handle stream) {
            if (stream.is_none()) g.launch();
            else g.launch(nb::cast<const Stream&>(stream));
          },
          nb::arg("stream") = nb::none(), "Enqueues the graph's work on `stream` (the current stream when None).")
      .def(
          "upload",
          [](const copper::cuda::Graph& g, nb::handle stream) {
            g.upload(stream.is_none() ? copper::cuda::current_stream(g.device()) : nb::cast<const Stream&>(stream));
          },
          nb::arg("stream") = nb::none(), "Prepares the graph for launching on `stream` ahead of time.")
      .def_prop_ro("device_id", &copper::cuda::Graph::device)
      .def_prop_ro("num_nodes", &copper::cuda::Graph::num_nodes)
      .def("__repr__", [](const copper::cuda::Graph& g) {
        return "<copper.cuda.Graph of " + std::to_string(g.num_nodes()) + " nodes on cuda:" + std::to_string(g.device()) +
               ">";
      });
  m.def("launch_count", &copper::cuda::launch_count,
        "Kernels and graphs copper has launched in this process (a cheap counter, for tests and tuning).");
}

nb::dict properties_dict(const copper::cuda::DeviceProperties& p) {
  // CuPy's keys (cudaDeviceProp's field names); name as bytes, as CuPy returns it.
  nb::dict d;
  d["name"] = nb::bytes(p.name.data(), p.name.size());
  d["totalGlobalMem"] = p.total_global_mem;
  d["sharedMemPerBlock"] = p.shared_mem_per_block;
  d["sharedMemPerMultiprocessor"] = p.shared_mem_per_multiprocessor;
  d["regsPerBlock"] = p.regs_per_block;
  d["warpSize"] = p.warp_size;
  d["maxThreadsPerBlock"] = p.max_threads_per_block;
  d["maxThreadsDim"] = nb::make_tuple(p.max_threads_dim[0], p.max_threads_dim[1], p.max_threads_dim[2]);
  d["maxGridSize"] = nb::make_tuple(p.max_grid_size[0], p.max_grid_size[1], p.max_grid_size[2]);
  d["clockRate"] = p.clock_rate;
  d["totalConstMem"] = p.total_const_mem;
  d["major"] = p.major;
  d["minor"] = p.minor;
  d["multiProcessorCount"] = p.multi_processor_count;
  d["integrated"] = p.integrated;
  d["concurrentKernels"] = p.concurrent_kernels;
  d["ECCEnabled"] = p.ecc_enabled;
  d["pciBusID"] = p.pci_bus_id;
  d["pciDeviceID"] = p.pci_device_id;
  d["pciDomainID"] = p.pci_domain_id;
  d["memoryClockRate"] = p.memory_clock_rate;
  d["memoryBusWidth"] = p.memory_bus_width;
  d["l2CacheSize"] = p.l2_cache_size;
  d["maxThreadsPerMultiProcessor"] = p.max_threads_per_multiprocessor;
  return d;
}

void bind_devices(nb::module_& m) {
  m.def("get_device", &copper::cuda::get_device);
  m.def("set_device", &copper::cuda::set_device, nb::arg("device"), "Makes cuda:<device> the default device of this thread.");
  m.def("can_access_peer", &copper::cuda::can_access_peer, nb::arg("device"), nb::arg("peer"));
  m.def(
      "device_properties", [](nb::handle device) { return properties_dict(copper::cuda::device_properties(device_index_from_py(device))); },
      nb::arg("device") = nb::none());
  m.def(
      "compute_capability", [](nb::handle device) { return copper::cuda::compute_capability(device_index_from_py(device)); },
      nb::arg("device") = nb::none());
}

void bind_event(nb::module_& m) {
  nb::class_<Event>(m, "Event", "A marker in a stream's work; two recorded events time the work between them.")
      .def(
          "__init__",
          [](Event* self, bool block, bool disable_timing, bool interprocess, nb::handle device) {
            // `block` only changes how the host waits (spin or yield); results are the same.
            (void)block;
            if (interprocess) throw NotImplementedError("interprocess events are not supported");
            new (self) Event(!disable_timing, device_index_from_py(device));
          },
          nb::arg("block") = false, nb::arg("disable_timing") = false, nb::arg("interprocess") = false, nb::kw_only(),
          nb::arg("device") = nb::none())
      .def(
          "record",
          [](Event& e, nb::handle stream) {
            if (stream.is_none()) e.record();
            else e.record(nb::cast<const Stream&>(stream));
          },
          nb::arg("stream") = nb::none())
      .def("synchronize", &Event::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("done", &Event::done)
      .def_prop_ro("ptr", &Event::handle)
      .def("__repr__", [](const Event& e) { return "<copper.cuda.Event " + std::to_string(e.handle()) + ">"; });
  m.def(
      "get_elapsed_time", [](const Event& start, const Event& end) { return double(copper::cuda::elapsed_time(start, end)); },
      nb::arg("start_event"), nb::arg("end_event"), "Milliseconds between two recorded, finished events.");
}

void bind_runtime(nb::module_& m) {
  m.def("is_available", &copper::cuda::is_available, "True when copper can use a GPU.");
  m.def("device_count", &copper::cuda::device_count, "The number of GPUs found (0 without a driver).");
  m.def("current_device", &copper::cuda::current_device);
  m.def(
      "get_current_stream", [](nb::handle device) { return copper::cuda::current_stream(device_index_from_py(device)); },
      nb::arg("device") = nb::none());
  m.def(
      "synchronize",
      [](nb::handle device) {
        const int index = device_index_from_py(device);
        nb::gil_scoped_release unlocked;
        copper::cuda::synchronize(index);
      },
      nb::arg("device") = nb::none(), "Waits for all work on the device, raising the error of a failed op.");
}

void bind_memory(nb::module_& m) {
  m.def(
      "memory_stats",
      [](nb::handle device) {
        const copper::cuda::MemoryStats s = copper::cuda::memory_stats(device_index_from_py(device));
        nb::dict d;
        d["used"] = s.used;
        d["cached"] = s.cached;
        d["peak"] = s.peak;
        d["limit"] = s.limit;
        d["total"] = s.total;
        return d;
      },
      nb::arg("device") = nb::none(),
      "Bytes held by live arrays (used), kept for reuse (cached), the highest `used` (peak), the pool's "
      "limit and the device's total memory.");
  m.def(
      "set_memory_limit",
      [](std::size_t bytes, nb::handle device) { copper::cuda::set_memory_limit(bytes, device_index_from_py(device)); },
      nb::arg("size"), nb::arg("device") = nb::none(), "Caps the bytes live arrays may hold; 0 removes the cap.");
  m.def(
      "free_all_blocks",
      [](nb::handle device) {
        const int index = device_index_from_py(device);
        nb::gil_scoped_release unlocked;  // waits for the device first
        copper::cuda::free_all_blocks(index);
      },
      nb::arg("device") = nb::none(), "Returns cached memory to the driver.");
  m.def(
      "reset_peak_memory", [](nb::handle device) { copper::cuda::reset_peak_memory(device_index_from_py(device)); },
      nb::arg("device") = nb::none());
}

}  // namespace

void bind_cuda(nb::module_& m) {
  nb::module_ cuda = m.def_submodule("_cuda", "GPU runtime control (see copper.cuda)");
  bind_stream(cuda);
  bind_graph(cuda);
  bind_devices(cuda);
  bind_event(cuda);
  bind_runtime(cuda);
  bind_memory(cuda);
}

}  // namespace copper::python
