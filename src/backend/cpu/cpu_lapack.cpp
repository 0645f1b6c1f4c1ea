#include "backend/cpu/cpu_lapack.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

template <class Fn>
bool bind(void* lib, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  return fn != nullptr;
}

std::unique_ptr<Lapack> load_lapack(std::string& tried) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COPPER_LAPACK_PATH"); env && *env) {
    if (std::string(env) == "none") {  // linalg off (tests of the error path)
      tried = "none: COPPER_LAPACK_PATH=none";
      return nullptr;
    }
    candidates.emplace_back(env);
  }
  for (const char* name : {"libopenblas.so.0", "libopenblas.so", "liblapack.so.3", "liblapack.so", "libmkl_rt.so"})
    candidates.emplace_back(name);
  for (const auto& path : candidates) {
    tried += (tried.empty() ? "" : ", ") + path;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) continue;
    auto l = std::make_unique<Lapack>();
    const bool complete = bind(lib, l->dgetrf, "dgetrf_") && bind(lib, l->zgetrf, "zgetrf_") &&
                          bind(lib, l->dgesv, "dgesv_") && bind(lib, l->zgesv, "zgesv_") &&
                          bind(lib, l->dpotrf, "dpotrf_") && bind(lib, l->zpotrf, "zpotrf_") &&
                          bind(lib, l->dsyevd, "dsyevd_") && bind(lib, l->zheevd, "zheevd_") &&
                          bind(lib, l->dgesdd, "dgesdd_") && bind(lib, l->zgesdd, "zgesdd_") &&
                          bind(lib, l->dgeqrf, "dgeqrf_") && bind(lib, l->zgeqrf, "zgeqrf_") &&
                          bind(lib, l->dorgqr, "dorgqr_") && bind(lib, l->zungqr, "zungqr_");
    if (!complete) {
      dlclose(lib);
      continue;
    }
    l->path = path;
    return l;  // the library stays loaded for the process
  }
  return nullptr;
}

}  // namespace

const Lapack& lapack() {
  static std::string tried;
  static const std::unique_ptr<Lapack> loaded = load_lapack(tried);
  if (!loaded)
    throw RuntimeError("copper.linalg needs LAPACK and none could be loaded (tried " + tried +
                       "); set COPPER_LAPACK_PATH to a LAPACK shared library");
  return *loaded;
}

}  // namespace copper::backend::cpu
