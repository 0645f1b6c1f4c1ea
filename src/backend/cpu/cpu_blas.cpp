#include "backend/cpu/cpu_blas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace copper::backend::cpu {
namespace {

Blas* load_blas() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COPPER_BLAS_PATH"); env && *env) {
    if (std::string(env) == "none") return nullptr;  // the plain loops only (tests, debugging)
    candidates.emplace_back(env);
  }
  for (const char* name : {"libopenblas.so.0", "libopenblas.so", "libblas.so.3", "libblas.so", "libmkl_rt.so"})
    candidates.emplace_back(name);
  for (const auto& path : candidates) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) continue;
    Blas b;
    b.sgemm = reinterpret_cast<GemmFn<float>>(dlsym(lib, "sgemm_"));
    b.dgemm = reinterpret_cast<GemmFn<double>>(dlsym(lib, "dgemm_"));
    b.cgemm = reinterpret_cast<GemmFn<void>>(dlsym(lib, "cgemm_"));
    b.zgemm = reinterpret_cast<GemmFn<void>>(dlsym(lib, "zgemm_"));
    if (!b.sgemm || !b.dgemm || !b.cgemm || !b.zgemm) {
      dlclose(lib);
      continue;
    }
    // OpenBLAS and MKL split one call over their own threads; reference BLAS does not,
    // so copper splits rows over its pool instead.
    b.threaded = dlsym(lib, "openblas_get_num_threads") || dlsym(lib, "MKL_Get_Max_Threads");
    b.path = path;
    return new Blas(b);  // leaked on purpose: the library stays loaded for the process
  }
  return nullptr;
}

}  // namespace

const Blas* blas() {
  static const Blas* loaded = load_blas();
  return loaded;
}

}  // namespace copper::backend::cpu
