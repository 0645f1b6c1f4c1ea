#include "backend/cuda/cuda_raw_module.h"

#include <unordered_map>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

struct ModuleCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<LoadedRawModule>> modules;
};
ModuleCache& module_cache() {
  static auto* c = new ModuleCache();  // leaked: modules outlive static destructors
  return *c;
}

bool unusable_image(CUresult r) {
  return r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_NO_BINARY_FOR_GPU;
}

const LoadedRawModule& remember(const std::string& key, CUmodule module,
                                std::vector<std::pair<std::string, std::string>> lowered) {
  auto loaded = std::make_unique<LoadedRawModule>();
  loaded->module = module;
  loaded->lowered_names = std::move(lowered);
  return *module_cache().modules.emplace(key, std::move(loaded)).first->second;
}

}  // namespace

const std::string& LoadedRawModule::symbol_of(const std::string& name) const {
  for (const auto& [expr, lowered] : lowered_names)
    if (expr == name) return lowered;
  return name;
}

const LoadedRawModule& load_raw_module(int device, const RawModuleSource& source) {
  const std::string text = source.cache_text();
  const std::string key = std::to_string(device) + "#src#" + text;
  ModuleCache& cache = module_cache();
  // One lock over compile and load: two threads asking for one module compile it once.
  std::lock_guard lock(cache.mutex);
  if (auto it = cache.modules.find(key); it != cache.modules.end()) return *it->second;

  const int arch = device_info(device).arch;
  auto build = [&] { return serialize(compile_raw_module(source, arch)); };
  std::optional<RawModuleImage> image = deserialize(disk_cached_payload(arch, text, build));
  if (!image) image = deserialize(disk_cached_payload(arch, text, build, /*rebuild=*/true));
  if (!image) throw RuntimeError("could not read back the compiled " + source.program_name);
  make_current(device);
  const Driver& d = driver();
  RelaxedCaptureScope relaxed;  // a first launch inside a graph capture loads its module here
  CUmodule module = nullptr;
  CUresult r = d.cuModuleLoadData(&module, image->image.data());
  if (unusable_image(r)) {
    // A checksum-valid entry the driver rejects (written by another driver?): rebuild once.
    image = deserialize(disk_cached_payload(arch, text, build, /*rebuild=*/true));
    if (!image) throw RuntimeError("could not read back the compiled " + source.program_name);
    r = d.cuModuleLoadData(&module, image->image.data());
  }
  check(r, ("loading the compiled " + source.program_name).c_str());
  return remember(key, module, std::move(image->lowered_names));
}

const LoadedRawModule& load_raw_image(int device, const std::vector<char>& image) {
  const std::string key = std::to_string(device) + "#image#" + std::string(image.begin(), image.end());
  ModuleCache& cache = module_cache();
  std::lock_guard lock(cache.mutex);
  if (auto it = cache.modules.find(key); it != cache.modules.end()) return *it->second;
  make_current(device);
  RelaxedCaptureScope relaxed;
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, image.data()), "loading the RawModule image");
  return remember(key, module, {});
}

std::unique_ptr<RawFunction> find_raw_function(int device, const LoadedRawModule& module, const std::string& name,
                                               const std::string& what) {
  make_current(device);
  RelaxedCaptureScope relaxed;
  auto f = std::make_unique<RawFunction>();
  const CUresult r = driver().cuModuleGetFunction(&f->fn, module.module, module.symbol_of(name).c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw RuntimeError(what + ": the module has no kernel named '" + name +
                       "' (a C++ kernel needs extern \"C\", or its name in name_expressions)");
  check(r, ("cuModuleGetFunction for " + what).c_str());
  f->max_threads_per_block = function_attribute(f->fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  f->max_dynamic_shared_bytes = function_attribute(f->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  return f;
}

int function_attribute(CUfunction fn, CUfunction_attribute attribute) {
  int value = 0;
  check(driver().cuFuncGetAttribute(&value, attribute, fn), "cuFuncGetAttribute");
  return value;
}

void set_function_attribute(int device, CUfunction fn, CUfunction_attribute attribute, int value) {
  make_current(device);
  const CUresult r = driver().cuFuncSetAttribute(fn, attribute, value);
  if (r == CUDA_ERROR_INVALID_VALUE)
    throw ValueError("the GPU does not accept the value " + std::to_string(value) + " for this kernel attribute");
  check(r, "cuFuncSetAttribute");
}

std::pair<CUdeviceptr, std::size_t> module_global(int device, const LoadedRawModule& module, const std::string& name) {
  make_current(device);
  CUdeviceptr ptr = 0;
  std::size_t bytes = 0;
  const CUresult r = driver().cuModuleGetGlobal(&ptr, &bytes, module.module, module.symbol_of(name).c_str());
  if (r == CUDA_ERROR_NOT_FOUND) throw RuntimeError("RawModule has no global variable named '" + name + "'");
  check(r, "cuModuleGetGlobal");
  return {ptr, bytes};
}

void launch_raw(int device, CUfunction fn, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                void** params, copper::cuda::StreamState* stream, const char* op, bool cooperative) {
  make_current(device);
  copper::cuda::StreamState& s = stream ? *stream : current_stream_state(device);
  s.last_op.store(op, std::memory_order_relaxed);
  launch_counter.fetch_add(1, std::memory_order_relaxed);  // copper.cuda.launch_count()
  const CUresult r =
      cooperative ? driver().cuLaunchCooperativeKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                                           shared_bytes, s.handle, params)
                  : driver().cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes,
                                            s.handle, params, nullptr);
  if (r != CUDA_SUCCESS) check(r, ("launching " + std::string(op)).c_str());
}

}  // namespace copper::backend::cuda
