// The cuFFT loader works without a GPU: libcufft is found and every routine copper.fft
// uses resolves (symbol by symbol, so a missing one is named), and the loader's table is
// complete. Needs the CUDA toolkit's libcufft, no GPU.
#include <dlfcn.h>

#include <cstdio>
#include <exception>

#include "backend/cuda/cuda_cufft.h"

using namespace copper::backend::cuda;

int main() {
  int failures = 0;
  try {
    const Cufft& api = cufft();
    std::printf("loaded %s\n", api.path.c_str());
    void* lib = dlopen(api.path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    int count = 0;
    const char* const* names = cufft_symbol_names(&count);
    for (int i = 0; i < count; ++i) {
      if (!lib || !dlsym(lib, names[i])) {
        std::fprintf(stderr, "missing symbol %s\n", names[i]);
        ++failures;
      }
    }
    const void* fns[] = {reinterpret_cast<const void*>(api.create),      reinterpret_cast<const void*>(api.destroy),
                         reinterpret_cast<const void*>(api.make_plan_many64),
                         reinterpret_cast<const void*>(api.set_work_area), reinterpret_cast<const void*>(api.set_stream),
                         reinterpret_cast<const void*>(api.exec_c2c),    reinterpret_cast<const void*>(api.exec_z2d),
                         reinterpret_cast<const void*>(api.get_version)};
    for (const void* fn : fns)
      if (!fn) ++failures;
    int version = 0;
    api.get_version(&version);  // needs no device
    std::printf("%d cuFFT symbols checked; cuFFT version %d\n", count, version);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuFFT did not load: %s\n", e.what());
    ++failures;
  }
  std::printf("%s\n", failures ? "FAILED" : "cuFFT loads");
  return failures ? 1 : 0;
}
