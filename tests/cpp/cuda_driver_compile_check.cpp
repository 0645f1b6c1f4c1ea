// Every driver entry point of cuda_driver.h's table exists under the name cuda.h's
// versioning macros give it: checked against the toolkit's libcuda stub (no GPU needed),
// so a misspelt or renamed symbol fails here rather than as "driver too old" on a GPU
// machine.
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "backend/cuda/cuda_driver.h"


#ifndef COPPER_CUDA_LIBRARY_DIR
#define COPPER_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

#define COPPER_CHECK_STRINGIFY_(x) #x
#define COPPER_CHECK_STRINGIFY(x) COPPER_CHECK_STRINGIFY_(x)

int main() {
  const std::vector<std::string> candidates = {
      "libcuda.so.1", std::string(COPPER_CUDA_LIBRARY_DIR) + "/stubs/libcuda.so", "/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda/lib/stubs/libcuda.so",
      "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"};
  void* lib = nullptr;
  for (const auto& c : candidates)
    if ((lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib) {
    std::printf("SKIPPED: neither libcuda nor its stub was found\n");
    return 0;
  }
  int missing = 0, found = 0;
#define COPPER_CHECK_SYMBOL(name)                                 \
  if (dlsym(lib, COPPER_CHECK_STRINGIFY(name))) {                 \
    ++found;                                                      \
  } else {                                                        \
    ++missing;                                                    \
    std::printf("MISSING %s\n", COPPER_CHECK_STRINGIFY(name));     \
  }
  COPPER_CUDA_DRIVER_FUNCTIONS(COPPER_CHECK_SYMBOL)
#undef COPPER_CHECK_SYMBOL
  std::printf("%d driver entry points found, %d missing\n", found, missing);
  return missing ? 1 : 0;
}
