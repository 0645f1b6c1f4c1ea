#include "backend/cuda/cuda_cufft.h"

#include <dlfcn.h>

#include <iterator>

#include "backend/cuda/cuda_library.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

constexpr const char* kSymbols[] = {
    "cufftCreate",     "cufftDestroy",    "cufftSetAutoAllocation", "cufftMakePlanMany64", "cufftSetWorkArea",
    "cufftSetStream",  "cufftExecC2C",    "cufftExecZ2Z",           "cufftExecR2C",        "cufftExecD2Z",
    "cufftExecC2R",    "cufftExecZ2D",    "cufftGetVersion",
};

struct Loaded {
  Cufft api;
  std::string error;
};

Loaded load() {
  Loaded l;
  const OpenedLibrary opened = open_cuda_library("COPPER_CUFFT_PATH", {"libcufft.so.12", "libcufft.so.11", "libcufft.so"});
  if (opened.turned_off) {
    l.error = "cuFFT is turned off (COPPER_CUFFT_PATH=none); copper.fft needs it for GPU arrays";
    return l;
  }
  void* lib = opened.handle;
  if (!lib) {
    l.error = "copper.fft on the GPU needs cuFFT (libcufft.so.12 or .so.11), which was not found; "
              "set COPPER_CUFFT_PATH to its path";
    return l;
  }
  l.api.path = opened.path;
  const char* const* name = kSymbols;
  auto sym = [&](auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, *name));
    if (!fn && l.error.empty()) l.error = "cuFFT (" + l.api.path + ") lacks " + *name;
    ++name;
  };
  Cufft& a = l.api;
  sym(a.create), sym(a.destroy), sym(a.set_auto_allocation), sym(a.make_plan_many64), sym(a.set_work_area);
  sym(a.set_stream), sym(a.exec_c2c), sym(a.exec_z2z), sym(a.exec_r2c), sym(a.exec_d2z);
  sym(a.exec_c2r), sym(a.exec_z2d), sym(a.get_version);
  return l;
}

const Loaded& loaded() {
  static const Loaded* l = new Loaded(load());  // leaked: the library outlives static destructors
  return *l;
}

const char* result_name(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return nullptr;
  }
}

}  // namespace

const char* const* cufft_symbol_names(int* count) {
  *count = static_cast<int>(std::size(kSymbols));
  return kSymbols;
}

const Cufft& cufft() {
  if (!loaded().error.empty()) throw RuntimeError(loaded().error);
  return loaded().api;
}

void check_cufft(cufftResult result, const char* what) {
  if (result == CUFFT_SUCCESS) return;
  const char* name = result_name(result);
  const std::string msg =
      std::string(what) + " failed: " + (name ? name : "cuFFT result " + std::to_string(static_cast<int>(result)));
  if (result == CUFFT_ALLOC_FAILED) throw OutOfMemoryError(msg);
  throw RuntimeError(msg);
}

}  // namespace copper::backend::cuda
