#include "backend/cpu/cpu_lapack.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "copper/errors.hpp"

namespace copper::backend::cpu {

Precision precision_of(DType t) {
  switch (t) {
    case DType::float32: return kS;
    case DType::float64: return kD;
    case DType::complex64: return kC;
    case DType::complex128: return kZ;
    default: throw ValueError("LAPACK has no routines for dtype " + std::string(name(t)));
  }
}

namespace {

template <class Fn>
bool bind(void* lib, Fn& fn, const std::string& name) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name.c_str()));
  return fn != nullptr;
}

// Binds prefix + stem + "_" for each prefix (Fortran's trailing underscore).
template <class Fn, std::size_t N>
bool bind_all(void* lib, Fn (&fns)[N], const char* prefixes, const char* stem) {
  bool ok = true;
  for (std::size_t i = 0; i < N; ++i) ok = bind(lib, fns[i], std::string(1, prefixes[i]) + stem + "_") && ok;
  return ok;
}

bool bind_lapack(void* lib, Lapack& l) {
  bool ok = bind_all(lib, l.getrf, "sdcz", "getrf");
  ok = bind_all(lib, l.getrs, "sdcz", "getrs") && ok;
  ok = bind_all(lib, l.potrf, "sdcz", "potrf") && ok;
  ok = bind_all(lib, l.syevd, "sd", "syevd") && ok;
  ok = bind_all(lib, l.heevd, "cz", "heevd") && ok;
  ok = bind_all(lib, l.real_gesdd, "sd", "gesdd") && ok;
  ok = bind_all(lib, l.complex_gesdd, "cz", "gesdd") && ok;
  ok = bind_all(lib, l.geqrf, "sdcz", "geqrf") && ok;
  ok = bind(lib, l.orgqr[kS], "sorgqr_") && ok;
  ok = bind(lib, l.orgqr[kD], "dorgqr_") && ok;
  ok = bind(lib, l.orgqr[kC], "cungqr_") && ok;
  ok = bind(lib, l.orgqr[kZ], "zungqr_") && ok;
  ok = bind_all(lib, l.real_geev, "sd", "geev") && ok;
  ok = bind_all(lib, l.complex_geev, "cz", "geev") && ok;
  return ok;
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
    if (!bind_lapack(lib, *l)) {
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
