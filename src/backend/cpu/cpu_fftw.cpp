#include "backend/cpu/cpu_fftw.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <vector>

#include "backend/cpu/thread_pool.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

struct Loaded {
  Fftw api;
  std::string error;
};

// FFTW's threads call this for each parallel loop: its jobs run on copper's pool (nested
// loops run inline there), so FFTW never starts threads of its own.
void parallel_loop(void* (*work)(char*), char* jobdata, std::size_t elsize, int njobs, void*) {
  parallel_tasks(njobs, [&](int i) { work(jobdata + static_cast<std::size_t>(i) * elsize); });
}

bool is_directory(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

Loaded load(bool single) {
  Loaded l;
  const std::string base = single ? "libfftw3f" : "libfftw3";
  const char* package = single ? "libfftw3-single3" : "libfftw3-double3";
  std::string folder;
  if (const char* env = std::getenv("COPPER_FFTW_PATH"); env && *env) {
    if (std::string(env) == "none") {
      l.error = std::string("FFTW is turned off (COPPER_FFTW_PATH=none); copper.fft needs it for CPU arrays (") +
                "Debian/Ubuntu package " + package + ")";
      return l;
    }
    if (is_directory(env)) folder = std::string(env) + "/";
  }
  // The main library first (by full path when a folder is given), so the threads
  // library's dependency on its soname is met by the copy already loaded.
  void* lib = nullptr;
  for (const std::string& name : {folder + base + ".so.3", base + ".so.3", base + ".so"})
    if ((lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      l.api.path = name;
      break;
    }
  if (!lib) {
    l.error = "copper.fft on the CPU needs FFTW (" + base + ".so.3), which was not found: install it (Debian/Ubuntu: " +
              "apt-get install " + package + ") or set COPPER_FFTW_PATH to the folder holding it";
    return l;
  }
  const std::string p = single ? "fftwf_" : "fftw_";
  auto sym = [&](void* from, auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(from, (p + name).c_str()));
    if (!fn && l.error.empty()) l.error = "FFTW (" + l.api.path + ") lacks " + p + name;
  };
  Fftw& a = l.api;
  sym(lib, a.plan_dft, "plan_guru64_dft");
  sym(lib, a.plan_r2c, "plan_guru64_dft_r2c");
  sym(lib, a.plan_c2r, "plan_guru64_dft_c2r");
  sym(lib, a.execute_dft, "execute_dft");
  sym(lib, a.execute_r2c, "execute_dft_r2c");
  sym(lib, a.execute_c2r, "execute_dft_c2r");
  sym(lib, a.destroy_plan, "destroy_plan");
  sym(lib, a.alignment_of, "alignment_of");
  if (!l.error.empty()) return l;

  // Threads: optional (plans are then single-threaded).
  void* threads = nullptr;
  for (const std::string& name : {folder + base + "_threads.so.3", base + "_threads.so.3"})
    if ((threads = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (threads) {
    int (*init_threads)() = nullptr;
    void (*set_callback)(void (*)(void* (*)(char*), char*, std::size_t, int, void*), void*) = nullptr;
    init_threads = reinterpret_cast<decltype(init_threads)>(dlsym(threads, (p + "init_threads").c_str()));
    set_callback = reinterpret_cast<decltype(set_callback)>(dlsym(threads, (p + "threads_set_callback").c_str()));
    a.plan_with_nthreads = reinterpret_cast<decltype(a.plan_with_nthreads)>(
        dlsym(threads, (p + "plan_with_nthreads").c_str()));
    if (!init_threads || !a.plan_with_nthreads || !init_threads()) {
      a.plan_with_nthreads = nullptr;
    } else if (set_callback) {  // FFTW 3.3.9 and later
      set_callback(parallel_loop, nullptr);
    }
  }
  return l;
}

const Loaded& loaded(bool single) {
  // Leaked: plans may be destroyed by static destructors after this would be.
  if (single) {
    static const Loaded* s = new Loaded(load(true));
    return *s;
  }
  static const Loaded* d = new Loaded(load(false));
  return *d;
}

}  // namespace

const Fftw& fftw(bool single_precision) {
  const Loaded& l = loaded(single_precision);
  if (!l.error.empty()) throw RuntimeError(l.error);
  return l.api;
}

std::mutex& fftw_planner_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

}  // namespace copper::backend::cpu
