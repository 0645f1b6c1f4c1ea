#include "backend/cuda/cuda_driver.h"

#include <dlfcn.h>

#include <mutex>

#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

#define COPPER_STRINGIFY_(x) #x
#define COPPER_STRINGIFY(x) COPPER_STRINGIFY_(x)

struct Loaded {
  Driver api;
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded l;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    l.why = "the CUDA driver (libcuda.so.1) was not found";
    return l;
  }
  // The stringified name is the macro-expanded one: cuMemcpyHtoDAsync_v2, ...
#define COPPER_LOAD_SYMBOL(name)                                                          \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(dlsym(lib, COPPER_STRINGIFY(name))); \
  if (!l.api.name) {                                                                      \
    l.why = "the CUDA driver lacks " COPPER_STRINGIFY(name) " (driver too old?)";          \
    return l;                                                                             \
  }
  COPPER_CUDA_DRIVER_FUNCTIONS(COPPER_LOAD_SYMBOL)
#undef COPPER_LOAD_SYMBOL
  if (CUresult r = l.api.cuInit(0); r != CUDA_SUCCESS) {
    const char* name = nullptr;
    l.api.cuGetErrorName(r, &name);
    l.why = std::string("cuInit failed: ") + (name ? name : "unknown error");
    return l;
  }
  int count = 0;
  if (l.api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    l.why = "the CUDA driver reports no GPU";
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static const Loaded* l = new Loaded(load());  // leaked: drivers outlive static destructors
  return *l;
}

}  // namespace

const Driver* try_driver() { return loaded().ok ? &loaded().api : nullptr; }
const std::string& why_unavailable() { return loaded().why; }

const Driver& driver() {
  if (const Driver* d = try_driver()) return *d;
  throw RuntimeError("CUDA is not available: " + why_unavailable());
}

std::string error_text(CUresult result) {
  const Driver* d = &loaded().api;
  const char* name = nullptr;
  const char* text = nullptr;
  if (d->cuGetErrorName) d->cuGetErrorName(result, &name);
  if (d->cuGetErrorString) d->cuGetErrorString(result, &text);
  std::string s = name ? name : ("CUDA error " + std::to_string(static_cast<int>(result)));
  if (text) s += std::string(" (") + text + ")";
  return s;
}

void check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  std::string msg = std::string(what) + " failed: " + error_text(result);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) throw OutOfMemoryError(msg);
  throw RuntimeError(msg);
}

}  // namespace copper::backend::cuda
