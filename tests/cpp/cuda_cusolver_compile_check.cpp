// The cuSOLVER loader works without a GPU: libcusolver is found and every routine
// copper.linalg uses resolves (symbol by symbol, so a missing one is named), and the
// loader's own table is complete. Needs the CUDA toolkit's libcusolver, no GPU.
#include <dlfcn.h>

#include <cstdio>
#include <exception>

#include "backend/cuda/cuda_cusolver.h"

using namespace copper::backend::cuda;

int main() {
  int failures = 0;
  try {
    const Cusolver& api = cusolver();
    std::printf("loaded %s\n", api.path.c_str());
    void* lib = dlopen(api.path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    int count = 0;
    const char* const* names = cusolver_symbol_names(&count);
    for (int i = 0; i < count; ++i) {
      if (!lib || !dlsym(lib, names[i])) {
        std::fprintf(stderr, "missing symbol %s\n", names[i]);
        ++failures;
      }
    }
    // Spot checks that the table was filled (not just the names listed).
    const void* fns[] = {reinterpret_cast<const void*>(api.create), reinterpret_cast<const void*>(api.getrf),
                         reinterpret_cast<const void*>(api.getrs), reinterpret_cast<const void*>(api.potrf),
                         reinterpret_cast<const void*>(api.syevd), reinterpret_cast<const void*>(api.gesvd),
                         reinterpret_cast<const void*>(api.geqrf), reinterpret_cast<const void*>(api.orgqr[0]),
                         reinterpret_cast<const void*>(api.orgqr[3]),
                         reinterpret_cast<const void*>(api.orgqr_buffer_size[3])};
    for (const void* fn : fns)
      if (!fn) ++failures;
    // The optional batched eigensolver: bound whenever the library has it.
    if (lib && dlsym(lib, "cusolverDnXsyevBatched") && (!api.syev_batched || !api.syev_batched_buffer_size)) {
      std::fprintf(stderr, "cusolverDnXsyevBatched is present but was not bound\n");
      ++failures;
    }
    // The optional general eigensolver (linalg.eig): bound whenever the library has it.
    if (lib && dlsym(lib, "cusolverDnXgeev") && (!api.geev || !api.geev_buffer_size)) {
      std::fprintf(stderr, "cusolverDnXgeev is present but was not bound\n");
      ++failures;
    }
    std::printf("%d cuSOLVER symbols checked; batched eigensolver %s\n", count,
                api.syev_batched ? "present" : "absent");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuSOLVER did not load: %s\n", e.what());
    ++failures;
  }
  std::printf("%s\n", failures ? "FAILED" : "cuSOLVER loads");
  return failures ? 1 : 0;
}
