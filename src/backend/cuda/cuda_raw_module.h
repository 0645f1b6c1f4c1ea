// User modules on a GPU: loading (memory cache keyed by device and the module's full
// text, then the disk cache), kernels looked up once per device, function
// attributes, and launches on a stream.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/cuda_raw_compile.h"
#include "backend/cuda/per_device.h"

namespace copper::cuda {
struct StreamState;
}

namespace copper::backend::cuda {

struct LoadedRawModule {
  CUmodule module = nullptr;
  std::vector<std::pair<std::string, std::string>> lowered_names;
  // The symbol to look up for `name`: its lowered form when it is a name expression.
  const std::string& symbol_of(const std::string& name) const;
};

// Loaded modules live as long as the process (as the built-in kernels' do), so
// kernels and globals taken from them stay valid.
const LoadedRawModule& load_raw_module(int device, const RawModuleSource& source);
const LoadedRawModule& load_raw_image(int device, const std::vector<char>& image);

// A kernel on one device, with the limits a launch is checked against.
struct RawFunction {
  CUfunction fn = nullptr;
  int max_threads_per_block = 0;
  std::atomic<int> max_dynamic_shared_bytes{0};
};
// RuntimeError naming `what` (e.g. "RawKernel 'f'") when the module has no such symbol.
std::unique_ptr<RawFunction> find_raw_function(int device, const LoadedRawModule& module, const std::string& name,
                                               const std::string& what);

int function_attribute(CUfunction fn, CUfunction_attribute attribute);
void set_function_attribute(int device, CUfunction fn, CUfunction_attribute attribute, int value);

// A __device__/__constant__ variable's address and size; RuntimeError if absent.
std::pair<CUdeviceptr, std::size_t> module_global(int device, const LoadedRawModule& module, const std::string& name);

// Enqueues the kernel on `stream` (nullptr: the device's current stream); `op` is a
// static name recorded for asynchronous error reports. Launch errors from the driver
// raise RuntimeError naming `op`.
void launch_raw(int device, CUfunction fn, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                void** params, copper::cuda::StreamState* stream, const char* op, bool cooperative);

}  // namespace copper::backend::cuda
