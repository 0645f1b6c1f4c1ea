#include "backend/cuda/kernel_cache.h"
#include "backend/cuda/kernel_cache_probe.h"

#include <cuda.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <unordered_map>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/nvrtc_api.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

// ---- hashing (FNV-1a, two independent 64-bit lanes for a 128-bit disk key) ----
struct Hash128 {
  std::uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      a = (a ^ p[i]) * 0x100000001b3ull;
      b = (b ^ p[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
  }
  void add(const std::string& s) {
    add(s.data(), s.size());
    add("\0", 1);
  }
  std::string hex() const {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
  }
};

std::uint64_t checksum(const char* p, std::size_t n) {
  Hash128 h;
  h.add(p, n);
  return h.a ^ (h.b << 1);
}

std::vector<std::string> compile_options(int arch) {
  // No FMA contraction: results match the CPU backend (and NumPy) bit for bit where C++ fixes them.
  // -minimal leaves out declarations copper's kernels never use (textures, surfaces, device-side
  // runtime calls and launches): 4-6 ms less per compile, about 10% of a small chain kernel's,
  // and byte-identical cubins for all 1,491 kernels of the NVRTC compile checks (2026-12-04).
  return {"--gpu-architecture=sm_" + std::to_string(arch), "-std=c++20", "-default-device", "--fmad=false", "-minimal"};
}

// The compiler's identity in the disk keys, known without loading NVRTC (dlopen of libnvrtc
// costs 5-7 ms, most of a warm first call in a fresh process): the toolkit version copper was
// built against, whose major version names the libnvrtc.so.N it loads. An entry written by
// another minor release of that NVRTC is reused (the cubin stays valid for the architecture);
// an image the driver refuses is rebuilt (get_kernel, RawModule loading).
constexpr int kNvrtcBuildVersion = CUDA_VERSION;

// Hash of everything besides a kernel's own source that its cubin depends on.
const Hash128& environment_hash(int arch) {
  static std::mutex mutex;
  static std::unordered_map<int, Hash128> by_arch;
  std::lock_guard lock(mutex);
  auto it = by_arch.find(arch);
  if (it != by_arch.end()) return it->second;
  Hash128 h;
  for (int i = 0; i < kNumEmbeddedFiles; ++i) {
    h.add(kEmbeddedFiles[i].name);
    h.add(kEmbeddedFiles[i].text);
  }
  for (const auto& o : compile_options(arch)) h.add(o);
  h.add(&kNvrtcBuildVersion, sizeof kNvrtcBuildVersion);
  h.add(&arch, sizeof arch);
  return by_arch.emplace(arch, h).first->second;
}

// ---- disk entries: magic, payload size, checksum, payload ----
constexpr char kMagic[8] = {'C', 'O', 'P', 'K', 'E', 'R', 'N', '1'};

std::atomic<std::uint64_t> memory_hits{0}, disk_hits{0}, compiles{0}, corrupt_entries{0};

std::optional<std::vector<char>> read_entry(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  char magic[8];
  std::uint64_t size = 0, sum = 0;
  if (!f.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0 || !f.read(reinterpret_cast<char*>(&size), 8) ||
      !f.read(reinterpret_cast<char*>(&sum), 8) || size > (1ull << 30)) {
    ++corrupt_entries;
    return std::nullopt;
  }
  std::vector<char> payload(size);
  if (!f.read(payload.data(), static_cast<std::streamsize>(size)) || f.peek() != EOF ||
      checksum(payload.data(), payload.size()) != sum) {
    ++corrupt_entries;
    return std::nullopt;
  }
  return payload;
}

// Best effort: a cache that cannot be written only costs a recompile next time.
void write_entry(const std::filesystem::path& path, const std::vector<char>& payload) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::random_device rd;
  auto tmp = path;
  tmp += ".tmp." + std::to_string(getpid()) + "." + std::to_string(rd());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return;
    const std::uint64_t size = payload.size(), sum = checksum(payload.data(), payload.size());
    f.write(kMagic, 8);
    f.write(reinterpret_cast<const char*>(&size), 8);
    f.write(reinterpret_cast<const char*>(&sum), 8);
    f.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    if (!f.flush()) {
      f.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);  // atomic: readers see the old entry or the whole new one
  if (ec) std::filesystem::remove(tmp, ec);
}

struct KeyHash {
  std::size_t operator()(const std::pair<int, KernelKey>& k) const {
    std::uint64_t h = static_cast<std::uint64_t>(k.first) * 0x9e3779b97f4a7c15ull;
    for (auto w : k.second.words) h = (h ^ w) * 0x100000001b3ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

struct MemoryCache {
  std::mutex mutex;
  std::unordered_map<std::pair<int, KernelKey>, CUfunction, KeyHash> functions;
  std::vector<CUmodule> modules;  // loaded for the process's lifetime
};
MemoryCache& memory_cache() {
  static auto* c = new MemoryCache();
  return *c;
}

}  // namespace

std::string cache_directory() {
  if (const char* env = std::getenv("COPPER_CACHE_DIR"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/copper/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/copper/kernels";
  return (std::filesystem::temp_directory_path() / "copper-kernels").string();
}

std::vector<char> compile_cubin(const std::string& source, int arch) {
  const Nvrtc& n = nvrtc();
  std::vector<const char*> names, texts;
  for (int i = 0; i < kNumEmbeddedFiles; ++i) {
    names.push_back(kEmbeddedFiles[i].name);
    texts.push_back(kEmbeddedFiles[i].text);
  }
  nvrtcProgram prog = nullptr;
  if (nvrtcResult r = n.nvrtcCreateProgram(&prog, source.c_str(), "copper_kernel.cu", kNumEmbeddedFiles, texts.data(),
                                           names.data());
      r != NVRTC_SUCCESS)
    throw RuntimeError(std::string("nvrtcCreateProgram failed: ") + n.nvrtcGetErrorString(r));
  struct Destroy {
    const Nvrtc& n;
    nvrtcProgram& p;
    ~Destroy() { n.nvrtcDestroyProgram(&p); }
  } destroy{n, prog};
  const auto options = compile_options(arch);
  std::vector<const char*> opts;
  for (const auto& o : options) opts.push_back(o.c_str());
  const nvrtcResult r = n.nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  if (r != NVRTC_SUCCESS) {
    std::size_t log_size = 0;
    n.nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    if (log_size) n.nvrtcGetProgramLog(prog, log.data());
    throw CompileError("NVRTC could not compile a generated kernel: " + std::string(n.nvrtcGetErrorString(r)) + "\n" +
                           log + "\n--- source ---\n" + source,
                       log);
  }
  std::size_t size = 0;
  n.nvrtcGetCUBINSize(prog, &size);
  std::vector<char> cubin(size);
  n.nvrtcGetCUBIN(prog, cubin.data());
  return cubin;
}

namespace {

std::filesystem::path disk_path(int arch, const std::string& source, const char* entry) {
  Hash128 h = environment_hash(arch);
  h.add(source);
  h.add(entry);
  return std::filesystem::path(cache_directory()) / (h.hex() + ".cubin");
}

}  // namespace

bool kernel_on_disk(int device, const std::string& source, const char* entry) {
  std::error_code ec;
  return std::filesystem::exists(disk_path(device_info(device).arch, source, entry), ec);
}

CUfunction get_kernel(int device, const KernelKey& key, const std::function<std::string()>& make_source,
                      const char* entry) {
  MemoryCache& cache = memory_cache();
  const auto mkey = std::make_pair(device, key);
  {
    std::lock_guard lock(cache.mutex);
    auto it = cache.functions.find(mkey);
    if (it != cache.functions.end()) {
      ++memory_hits;
      return it->second;
    }
  }
  const int arch = device_info(device).arch;
  const std::string source = make_source();
  const std::filesystem::path path = disk_path(arch, source, entry);
  std::vector<char> cubin;
  if (auto cached = read_entry(path)) {
    cubin = std::move(*cached);
    ++disk_hits;
  } else {
    cubin = compile_cubin(source, arch);
    ++compiles;
    write_entry(path, cubin);
  }
  make_current(device);
  const Driver& d = driver();
  RelaxedCaptureScope relaxed;  // a first use during a graph capture may load its module (cuda_graph.h)
  CUmodule module = nullptr;
  CUresult r = d.cuModuleLoadData(&module, cubin.data());
  if (r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    // A checksum-valid but unusable entry (another driver wrote it?): rebuild it once.
    ++corrupt_entries;
    cubin = compile_cubin(source, arch);
    ++compiles;
    write_entry(path, cubin);
    r = d.cuModuleLoadData(&module, cubin.data());
  }
  check(r, "cuModuleLoadData");
  CUfunction fn = nullptr;
  check(d.cuModuleGetFunction(&fn, module, entry), "cuModuleGetFunction");
  std::lock_guard lock(cache.mutex);
  cache.modules.push_back(module);
  cache.functions.emplace(mkey, fn);
  return fn;
}

std::vector<char> disk_cached_payload(int arch, const std::string& key_text,
                                      const std::function<std::vector<char>()>& build, bool rebuild) {
  Hash128 h;
  h.add(std::string("copper raw module 1"));  // the payload layout's version
  h.add(&kNvrtcBuildVersion, sizeof kNvrtcBuildVersion);
  h.add(&arch, sizeof arch);
  h.add(key_text);
  const std::filesystem::path path = std::filesystem::path(cache_directory()) / (h.hex() + ".module");
  if (!rebuild) {
    if (auto cached = read_entry(path)) {
      ++disk_hits;
      return std::move(*cached);
    }
  } else {
    ++corrupt_entries;
  }
  std::vector<char> payload = build();
  ++compiles;
  write_entry(path, payload);
  return payload;
}

KernelCacheStats kernel_cache_stats() {
  return KernelCacheStats{memory_hits.load(), disk_hits.load(), compiles.load(), corrupt_entries.load()};
}

}  // namespace copper::backend::cuda
