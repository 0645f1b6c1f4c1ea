#include "backend/cuda/cuda_graph_driver.h"

#include <dlfcn.h>

#include <string>

#include "backend/cuda/cuda_driver.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

#define COPPER_GRAPH_STRINGIFY_(x) #x
#define COPPER_GRAPH_STRINGIFY(x) COPPER_GRAPH_STRINGIFY_(x)

struct LoadedGraphDriver {
  GraphDriver api;
  std::string missing;  // empty when every entry point was found
};

LoadedGraphDriver load_graph_driver() {
  LoadedGraphDriver l;
  driver();  // RuntimeError without a usable driver; loads libcuda otherwise
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) {
    l.missing = "libcuda.so.1";
    return l;
  }
  // Stringified after macro expansion: cuStreamBeginCapture_v2, cuGraphInstantiateWithFlags, ...
#define COPPER_LOAD_GRAPH_SYMBOL(name)                                                       \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(dlsym(lib, COPPER_GRAPH_STRINGIFY(name))); \
  if (!l.api.name && l.missing.empty()) l.missing = COPPER_GRAPH_STRINGIFY(name);
  COPPER_CUDA_GRAPH_FUNCTIONS(COPPER_LOAD_GRAPH_SYMBOL)
#undef COPPER_LOAD_GRAPH_SYMBOL
  return l;
}

}  // namespace

const GraphDriver& graph_driver() {
  static const LoadedGraphDriver* l = new LoadedGraphDriver(load_graph_driver());  // leaked, as the driver table
  if (!l->missing.empty()) throw RuntimeError("the CUDA driver lacks " + l->missing + " (driver too old?)");
  return l->api;
}

}  // namespace copper::backend::cuda
