#include "backend/cuda/cuda_cusolver.h"

#include <dlfcn.h>

#include <map>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_library.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

constexpr const char* kSymbols[] = {
    "cusolverDnCreate",         "cusolverDnSetStream",         "cusolverDnCreateParams",
    "cusolverDnXgetrf_bufferSize", "cusolverDnXgetrf",         "cusolverDnXgetrs",
    "cusolverDnXpotrf_bufferSize", "cusolverDnXpotrf",         "cusolverDnXsyevd_bufferSize",
    "cusolverDnXsyevd",         "cusolverDnXgesvd_bufferSize", "cusolverDnXgesvd",
    "cusolverDnXgeqrf_bufferSize", "cusolverDnXgeqrf",         "cusolverDnSorgqr_bufferSize",
    "cusolverDnDorgqr_bufferSize", "cusolverDnCungqr_bufferSize", "cusolverDnZungqr_bufferSize",
    "cusolverDnSorgqr",         "cusolverDnDorgqr",            "cusolverDnCungqr",
    "cusolverDnZungqr",
};

struct Loaded {
  Cusolver api;
  std::string error;
};

Loaded load() {
  Loaded l;
  const OpenedLibrary opened =
      open_cuda_library("COPPER_CUSOLVER_PATH", {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"});
  if (opened.turned_off) {  // GPU linalg off (tests of the error path)
    l.error = "cuSOLVER is turned off (COPPER_CUSOLVER_PATH=none); copper.linalg needs it for GPU arrays";
    return l;
  }
  void* lib = opened.handle;
  if (!lib) {
    l.error = "copper.linalg on the GPU needs cuSOLVER (libcusolver.so.12 or .so.11), which was not found; "
              "set COPPER_CUSOLVER_PATH to its path";
    return l;
  }
  l.api.path = opened.path;
  const char* const* name = kSymbols;
  auto sym = [&](auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, *name));
    if (!fn && l.error.empty()) l.error = "cuSOLVER (" + l.api.path + ") lacks " + *name;
    ++name;
  };
  Cusolver& a = l.api;
  sym(a.create), sym(a.set_stream), sym(a.create_params);
  sym(a.getrf_buffer_size), sym(a.getrf), sym(a.getrs);
  sym(a.potrf_buffer_size), sym(a.potrf);
  sym(a.syevd_buffer_size), sym(a.syevd);
  sym(a.gesvd_buffer_size), sym(a.gesvd);
  sym(a.geqrf_buffer_size), sym(a.geqrf);
  for (auto& fn : a.orgqr_buffer_size) sym(fn);
  for (auto& fn : a.orgqr) sym(fn);
  a.syev_batched_buffer_size = reinterpret_cast<decltype(a.syev_batched_buffer_size)>(
      dlsym(lib, "cusolverDnXsyevBatched_bufferSize"));
  a.syev_batched = reinterpret_cast<decltype(a.syev_batched)>(dlsym(lib, "cusolverDnXsyevBatched"));
  a.geev_buffer_size = reinterpret_cast<decltype(a.geev_buffer_size)>(dlsym(lib, "cusolverDnXgeev_bufferSize"));
  a.geev = reinterpret_cast<decltype(a.geev)>(dlsym(lib, "cusolverDnXgeev"));
  return l;
}

const Loaded& loaded() {
  static const Loaded* l = new Loaded(load());  // leaked: the library outlives static destructors
  return *l;
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: return nullptr;
  }
}

}  // namespace

const char* const* cusolver_symbol_names(int* count) {
  *count = static_cast<int>(std::size(kSymbols));
  return kSymbols;
}

const Cusolver& cusolver() {
  if (!loaded().error.empty()) throw RuntimeError(loaded().error);
  return loaded().api;
}

void check_cusolver(cusolverStatus_t status, const char* what) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  const char* name = status_name(status);
  const std::string msg =
      std::string(what) + " failed: " + (name ? name : "cuSOLVER status " + std::to_string(static_cast<int>(status)));
  if (status == CUSOLVER_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);
  throw RuntimeError(msg);
}

CusolverSession cusolver_session(int device) {
  // Handles are not shared across threads (their stream changes per call), as cuBLAS's.
  thread_local std::map<int, CusolverSession> sessions;
  const Cusolver& api = cusolver();
  make_current(device);
  auto it = sessions.find(device);
  if (it == sessions.end()) {
    CusolverSession s{};
    check_cusolver(api.create(&s.handle), "cusolverDnCreate");
    check_cusolver(api.create_params(&s.params), "cusolverDnCreateParams");
    it = sessions.emplace(device, s).first;
  }
  check_cusolver(api.set_stream(it->second.handle, reinterpret_cast<cudaStream_t>(current_stream_handle(device))),
                 "cusolverDnSetStream");
  return it->second;
}

}  // namespace copper::backend::cuda
