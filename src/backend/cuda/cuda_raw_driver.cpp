#include "backend/cuda/cuda_raw_driver.h"

#include <dlfcn.h>

#include <string>

#include "backend/cuda/cuda_driver.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

#define COPPER_RAW_STRINGIFY_(x) #x
#define COPPER_RAW_STRINGIFY(x) COPPER_RAW_STRINGIFY_(x)

struct LoadedRaw {
  RawDriver api;
  std::string error;
};

LoadedRaw load() {
  LoadedRaw l;
  driver();  // RuntimeError here when there is no usable driver
  // RTLD_NOLOAD: the handle of the libcuda driver() already opened, not a second copy.
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!lib) {
    l.error = "the CUDA driver (libcuda.so.1) is not loaded";
    return l;
  }
  // Stringified after macro expansion, as the shared table does: cuModuleGetGlobal_v2.
#define COPPER_LOAD_RAW(name)                                                                    \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(dlsym(lib, COPPER_RAW_STRINGIFY(name)));   \
  if (!l.api.name) {                                                                             \
    l.error = "the CUDA driver lacks " COPPER_RAW_STRINGIFY(name) " (driver too old?)";          \
    return l;                                                                                    \
  }
  COPPER_LOAD_RAW(cuFuncGetAttribute)
  COPPER_LOAD_RAW(cuModuleGetGlobal)
  COPPER_LOAD_RAW(cuLaunchCooperativeKernel)
#undef COPPER_LOAD_RAW
  return l;
}

}  // namespace

const RawDriver& raw_driver() {
  static const LoadedRaw* l = new LoadedRaw(load());  // leaked, as the driver table is
  if (!l->error.empty()) throw RuntimeError(l->error);
  return l->api;
}

}  // namespace copper::backend::cuda
