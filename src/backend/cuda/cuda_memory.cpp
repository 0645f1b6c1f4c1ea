#include "backend/cuda/cuda_memory.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/per_device.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

struct Pool {
  std::mutex mutex;
  CUmemoryPool handle = nullptr;
  std::size_t used = 0, peak = 0, limit = 0, total = 0;
};

std::unique_ptr<Pool> open_pool(int device) {
  const Driver& d = driver();
  make_current(device);
  auto p = std::make_unique<Pool>();
  check(d.cuDeviceGetDefaultMemPool(&p->handle, device_info(device).device), "cuDeviceGetDefaultMemPool");
  // Keep freed blocks cached in the pool instead of returning them at every synchronization.
  cuuint64_t keep = ~cuuint64_t(0);
  check(d.cuMemPoolSetAttribute(p->handle, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep), "cuMemPoolSetAttribute");
  std::size_t free_bytes = 0;
  check(d.cuMemGetInfo(&free_bytes, &p->total), "cuMemGetInfo");
  if (const char* env = std::getenv("COPPER_GPU_MEMORY_LIMIT"); env && *env) p->limit = parse_memory_limit(env, p->total);
  return p;
}

Pool& pool_of(int device) {
  static auto* pools = new PerDevice<Pool>();  // leaked, as the contexts are
  device_info(device);  // RuntimeError for a device that does not exist
  return pools->get(device, [&] { return open_pool(device); });
}

std::string bytes_text(std::size_t n) { return std::to_string(n) + " bytes"; }

[[noreturn]] void raise_oom(int device, std::size_t nbytes, const Pool& p, const std::string& why) {
  throw OutOfMemoryError("Out of memory allocating " + bytes_text(nbytes) + " on cuda:" + std::to_string(device) +
                         " (" + bytes_text(p.used) + " in use by arrays" +
                         (p.limit ? ", limit " + bytes_text(p.limit) : std::string()) + "): " + why);
}

}  // namespace

std::shared_ptr<Buffer> allocate_device(int device, std::size_t nbytes) {
  const Device where{DeviceType::cuda, device};
  if (nbytes == 0) return std::make_shared<Buffer>(nullptr, 0, where, nullptr);
  Pool& p = pool_of(device);
  const Driver& d = driver();
  make_current(device);
  auto stream = current_stream_shared(device);
  {
    std::lock_guard lock(p.mutex);
    if (p.limit && p.used + nbytes > p.limit) raise_oom(device, nbytes, p, "the memory limit would be exceeded");
  }
  CUdeviceptr ptr = 0;
  // During a capture the memory comes from outside the graph and the graph keeps it (cuda_graph.h).
  const bool capturing = stream->capturing.load(std::memory_order_relaxed);
  CUresult r = capturing ? allocate_outside_capture(device, &ptr, nbytes) : d.cuMemAllocAsync(&ptr, nbytes, stream->handle);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && capturing) {
    raise_oom(device, nbytes, p, "the device has no more free memory (during a CUDA graph capture copper cannot wait for pending frees)");
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    // Blocks freed by pending work come back once it finishes; then return the cache and retry.
    d.cuCtxSynchronize();
    d.cuMemPoolTrimTo(p.handle, 0);
    r = d.cuMemAllocAsync(&ptr, nbytes, stream->handle);
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) raise_oom(device, nbytes, p, "the device has no more free memory");
  check(r, "cuMemAllocAsync");
  {
    std::lock_guard lock(p.mutex);
    p.used += nbytes;
    p.peak = std::max(p.peak, p.used);
  }
  // Freed in the order of the allocating stream (kept alive by the deleter), as CuPy does.
  const copper::cuda::StreamState& allocating_stream = *stream;
  auto release = [device, nbytes, stream = std::move(stream), &p](void* q) {
    auto free_now = [device, nbytes, &p, q](const std::shared_ptr<copper::cuda::StreamState>& s) {
      if (const Driver* drv = try_driver()) {
        make_current(device);
        drv->cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(q), s->handle);  // no throw in a deleter
      }
      std::lock_guard lock(p.mutex);
      p.used -= nbytes;
    };
    if (capture_active(device)) {  // a graph being captured may still use this memory (cuda_graph.h)
      std::function<void()> later = [free_now, stream] { free_now(stream); };
      if (defer_release_during_capture(device, later)) return;
    }
    free_now(stream);
  };
  auto buffer = std::make_shared<Buffer>(reinterpret_cast<void*>(ptr), nbytes, where, std::move(release));
  if (capturing) keep_for_capture(allocating_stream, buffer);
  return buffer;
}

copper::cuda::MemoryStats memory_stats(int device) {
  Pool& p = pool_of(device);
  cuuint64_t reserved = 0;
  RelaxedCaptureScope relaxed;  // a pure query, which thread-local capture mode would refuse
  check(driver().cuMemPoolGetAttribute(p.handle, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved), "cuMemPoolGetAttribute");
  std::lock_guard lock(p.mutex);
  copper::cuda::MemoryStats s;
  s.used = p.used;
  s.cached = reserved > p.used ? static_cast<std::size_t>(reserved) - p.used : 0;
  s.peak = p.peak;
  s.limit = p.limit ? p.limit : p.total;
  s.total = p.total;
  return s;
}

void set_memory_limit(int device, std::size_t bytes) {
  Pool& p = pool_of(device);
  std::lock_guard lock(p.mutex);
  p.limit = bytes;
}

void free_all_blocks(int device) {
  refuse_during_capture(device, "free_all_blocks");
  Pool& p = pool_of(device);
  make_current(device);
  check(driver().cuCtxSynchronize(), "synchronize before freeing cached blocks");
  check(driver().cuMemPoolTrimTo(p.handle, 0), "cuMemPoolTrimTo");
}

void reset_peak_memory(int device) {
  Pool& p = pool_of(device);
  std::lock_guard lock(p.mutex);
  p.peak = p.used;
}

std::size_t parse_memory_limit(const char* text, std::size_t total) {
  const std::string s(text);
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(s, &used);
  } catch (const std::exception&) {
    throw ValueError("COPPER_GPU_MEMORY_LIMIT: cannot read '" + s + "' as a size");
  }
  std::string unit = s.substr(used);
  unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c); }), unit.end());
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double scale = 1;
  if (unit.empty() || unit == "b") scale = 1;
  else if (unit == "%") scale = static_cast<double>(total) / 100;
  else if (unit == "kb") scale = 1e3;
  else if (unit == "mb") scale = 1e6;
  else if (unit == "gb") scale = 1e9;
  else if (unit == "kib" || unit == "k") scale = 1024.0;
  else if (unit == "mib" || unit == "m") scale = 1024.0 * 1024;
  else if (unit == "gib" || unit == "g") scale = 1024.0 * 1024 * 1024;
  else throw ValueError("COPPER_GPU_MEMORY_LIMIT: unknown unit '" + unit + "' in '" + s + "'");
  if (value < 0) throw ValueError("COPPER_GPU_MEMORY_LIMIT must not be negative");
  return static_cast<std::size_t>(value * scale);
}

std::shared_ptr<Buffer> CudaBackend::allocate(std::size_t nbytes) { return allocate_device(index_, nbytes); }

std::size_t CudaBackend::memory_room() const {
  Pool& p = pool_of(index_);
  std::lock_guard lock(p.mutex);
  const std::size_t limit = p.limit ? p.limit : p.total;
  return limit > p.used ? limit - p.used : 0;
}

}  // namespace copper::backend::cuda
