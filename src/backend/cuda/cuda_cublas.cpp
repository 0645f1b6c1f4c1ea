#include "backend/cuda/cuda_cublas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backend/cuda/cuda_context.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

struct Loaded {
  Cublas api;
  std::string error;
};

Loaded load() {
  Loaded l;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COPPER_CUBLAS_PATH"); env && *env) candidates.emplace_back(env);
  candidates.emplace_back("libcublas.so.13");
  candidates.emplace_back("libcublas.so");
#ifdef COPPER_CUDA_LIBRARY_DIR
  candidates.emplace_back(std::string(COPPER_CUDA_LIBRARY_DIR) + "/libcublas.so.13");
#endif
  candidates.emplace_back("/usr/local/cuda/lib64/libcublas.so.13");
  void* lib = nullptr;
  for (const auto& c : candidates)
    if ((lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib) {
    l.error = "cuBLAS (libcublas.so.13) was not found; set COPPER_CUBLAS_PATH to its path";
    return l;
  }
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (!fn && l.error.empty()) l.error = std::string("cuBLAS lacks ") + name;
  };
  sym(l.api.create, "cublasCreate_v2");
  sym(l.api.set_stream, "cublasSetStream_v2");
  sym(l.api.set_math_mode, "cublasSetMathMode");
  sym(l.api.gemm_strided_batched, "cublasGemmStridedBatchedEx");
  sym(l.api.status_name, "cublasGetStatusName");
  return l;
}

const Loaded& loaded() {
  static const Loaded* l = new Loaded(load());  // leaked: the library outlives static destructors
  return *l;
}

}  // namespace

const Cublas& cublas() {
  if (!loaded().error.empty()) throw RuntimeError(loaded().error);
  return loaded().api;
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const char* name = loaded().api.status_name ? loaded().api.status_name(status) : nullptr;
  std::string msg = std::string(what) + " failed: " + (name ? name : "cuBLAS status " + std::to_string(status));
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);
  throw RuntimeError(msg);
}

cublasHandle_t cublas_handle(int device) {
  // Handles are not thread-safe to share while streams change, so each thread keeps its own.
  thread_local std::map<int, cublasHandle_t> handles;
  const Cublas& api = cublas();
  make_current(device);
  auto it = handles.find(device);
  if (it == handles.end()) {
    cublasHandle_t h = nullptr;
    check_cublas(api.create(&h), "cublasCreate");
    // Default math: no TF32 for float32 unless the compute type asks for it.
    check_cublas(api.set_math_mode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    it = handles.emplace(device, h).first;
  }
  check_cublas(api.set_stream(it->second, reinterpret_cast<cudaStream_t>(current_stream_handle(device))),
               "cublasSetStream");
  return it->second;
}

}  // namespace copper::backend::cuda
