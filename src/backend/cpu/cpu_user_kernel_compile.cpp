#include "backend/cpu/cpu_user_kernel_compile.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <unordered_map>
#include <vector>

#include "backend/cache_directory.h"
#include "backend/user_kernel_source.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

namespace fs = std::filesystem;

const char* const kFlags = "-std=c++20 -O2 -fPIC -shared";

std::atomic<std::uint64_t> memory_hits{0}, disk_hits{0}, compiles{0};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command; returns its exit status and its output (stdout and stderr).
int run_command(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw RuntimeError("could not start the C++ compiler: " + command);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Compiler {
  std::string path;
  std::string identity;  // path and `--version` output: part of every cache key
};

std::string find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string dirs = path;
  std::size_t pos = 0;
  while (pos <= dirs.size()) {
    std::size_t end = dirs.find(':', pos);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(pos, end - pos);
    if (dir.empty()) dir.assign(1, '.');
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
    pos = end + 1;
  }
  return "";
}

const Compiler& compiler() {
  static std::mutex mutex;
  static std::optional<Compiler> found;
  std::lock_guard lock(mutex);
  if (found) return *found;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COPPER_CXX"); env && *env) candidates.push_back(env);
  else candidates = {"c++", "g++", "clang++"};
  for (const auto& name : candidates) {
    const std::string path = find_on_path(name);
    if (path.empty()) continue;
    std::string version;
    if (run_command(shell_quote(path) + " --version", version) != 0) continue;
    found = Compiler{path, path + "\n" + version + "\n" + kFlags};
    return *found;
  }
  throw RuntimeError(
      "ElementwiseKernel and ReductionKernel on the CPU compile the kernel with the system C++ compiler, "
      "but none was found: looked for " +
      std::string(std::getenv("COPPER_CXX") ? "$COPPER_CXX" : "c++, g++ and clang++") +
      " on PATH. Install one (e.g. apt-get install g++) or set COPPER_CXX to a C++20 compiler.");
}

void* open_library(const fs::path& path) { return dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL); }

// Compiles `source` into `target` (atomically: a temporary file, then rename).
void compile_to(const Compiler& cxx, const std::string& source, const fs::path& target) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  std::random_device rd;
  const std::string stem = target.string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(rd());
  const std::string cpp = stem + ".cpp", so = stem + ".so";
  {
    std::ofstream f(cpp, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(source.data(), static_cast<std::streamsize>(source.size())) || !f.flush())
      throw RuntimeError("could not write a user kernel's source to " + cpp + " (is the cache directory writable? "
                         "set COPPER_CACHE_DIR)");
  }
  std::string output;
  const int status =
      run_command(shell_quote(cxx.path) + " " + kFlags + " -o " + shell_quote(so) + " " + shell_quote(cpp), output);
  fs::remove(cpp, ec);
  ++compiles;
  if (status != 0) {
    fs::remove(so, ec);
    throw CompileError("the C++ compiler (" + cxx.path + ") could not compile a user kernel:\n" + output, output);
  }
  fs::rename(so, target, ec);  // readers see no entry or a whole one
  if (ec) {
    fs::remove(so, ec);
    throw RuntimeError("could not store a compiled user kernel at " + target.string());
  }
}

}  // namespace

void* user_library(const std::string& source) {
  static std::mutex mutex;
  static std::unordered_map<std::string, void*> loaded;  // libraries stay loaded
  const Compiler& cxx = compiler();
  const std::string key = hash_source(cxx.identity + '\0' + source).hex();
  std::lock_guard lock(mutex);  // one compile at a time: the machine's cores are the compiler's
  if (auto it = loaded.find(key); it != loaded.end()) {
    ++memory_hits;
    return it->second;
  }
  const fs::path path = fs::path(kernel_cache_directory()) / "cpu" / (key + ".so");
  void* lib = fs::exists(path) ? open_library(path) : nullptr;
  if (lib) {
    ++disk_hits;
  } else {
    // Missing, or an entry that does not load (truncated by a crash, another platform's): rebuild.
    compile_to(cxx, source, path);
    lib = open_library(path);
    if (!lib) throw RuntimeError("could not load a compiled user kernel: " + std::string(dlerror()));
  }
  loaded.emplace(key, lib);
  return lib;
}

void* user_symbol(void* library, const char* name) {
  void* sym = dlsym(library, name);
  if (!sym) throw RuntimeError(std::string("a compiled user kernel lacks the symbol ") + name);
  return sym;
}

UserCompileStats user_compile_stats() { return UserCompileStats{memory_hits.load(), disk_hits.load(), compiles.load()}; }

}  // namespace copper::backend::cpu
