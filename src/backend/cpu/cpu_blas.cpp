#include "backend/cpu/cpu_blas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace copper::backend::cpu {
namespace {

// The four ?gemm_ entry points of the library `lib` under one naming scheme (and its ?gemv_,
// where it has them), or false.
bool find_gemm(void* lib, const char* prefix, const char* suffix, Blas& b) {
  auto sym = [&](const char* name) { return dlsym(lib, (std::string(prefix) + name + suffix).c_str()); };
  b.sgemm = sym("sgemm"), b.dgemm = sym("dgemm"), b.cgemm = sym("cgemm"), b.zgemm = sym("zgemm");
  b.sgemv = sym("sgemv"), b.dgemv = sym("dgemv"), b.cgemv = sym("cgemv"), b.zgemv = sym("zgemv");
  return b.sgemm && b.dgemm && b.cgemm && b.zgemm;
}

Blas* load_blas() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COPPER_BLAS_PATH"); env && *env) {
    if (std::string(env) == "none") return nullptr;  // the plain loops only (tests, debugging)
    candidates.emplace_back(env);
  }
  for (const char* name : {"libopenblas.so.0", "libopenblas.so", "libmkl_rt.so"}) candidates.emplace_back(name);
  if (const char* env = std::getenv("COPPER_BLAS_FALLBACK"); env && *env) candidates.emplace_back(env);
  for (const char* name : {"libblas.so.3", "libblas.so"}) candidates.emplace_back(name);
  struct Scheme {
    const char *prefix, *suffix;
    bool ilp64;
  };
  constexpr Scheme schemes[] = {{"", "_", false}, {"scipy_", "_64_", true}, {"", "_64_", true}};
  for (const auto& path : candidates) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) continue;
    Blas b;
    bool found = false;
    for (const Scheme& s : schemes) {
      if ((found = find_gemm(lib, s.prefix, s.suffix, b))) {
        b.ilp64 = s.ilp64;
        break;
      }
    }
    if (!found) {
      dlclose(lib);
      continue;
    }
    // OpenBLAS and MKL split one call over their own threads; reference BLAS does not,
    // so copper splits rows over its pool instead.
    b.threaded = dlsym(lib, "openblas_get_num_threads") || dlsym(lib, "scipy_openblas_get_num_threads64_") ||
                 dlsym(lib, "MKL_Get_Max_Threads");
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
