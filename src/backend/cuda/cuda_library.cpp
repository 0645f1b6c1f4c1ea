#include "backend/cuda/cuda_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace copper::backend::cuda {

OpenedLibrary open_cuda_library(const char* env_var, std::initializer_list<const char*> sonames) {
  OpenedLibrary lib;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv(env_var); env && *env) {
    if (std::string(env) == "none") {
      lib.turned_off = true;
      return lib;
    }
    candidates.emplace_back(env);
  }
  for (const char* name : sonames) candidates.emplace_back(name);
  const std::string first = *sonames.begin();
#ifdef COPPER_CUDA_LIBRARY_DIR
  candidates.push_back(std::string(COPPER_CUDA_LIBRARY_DIR) + "/" + first);
#endif
  candidates.push_back("/usr/local/cuda/lib64/" + first);
  for (const auto& c : candidates)
    if ((lib.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      lib.path = c;
      break;
    }
  return lib;
}

}  // namespace copper::backend::cuda
