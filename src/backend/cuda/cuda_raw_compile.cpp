#include "backend/cuda/cuda_raw_compile.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "backend/cuda/nvrtc_api.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

bool names_architecture(const std::string& option) {
  return option.starts_with("-arch") || option.starts_with("--gpu-architecture") || option.starts_with("--gpu-name");
}

// The toolkit's headers (cuda_fp16.h, cooperative_groups.h, ...), which NVRTC does not
// search by itself; user kernels may include them, as with CuPy. Empty if none is found.
const std::string& cuda_include_dir() {
  static const std::string dir = [] {
    std::vector<std::string> candidates;
    for (const char* env : {"CUDA_PATH", "CUDA_HOME"})
      if (const char* v = std::getenv(env); v && *v) candidates.push_back(std::string(v) + "/include");
#ifdef COPPER_CUDA_LIBRARY_DIR
    candidates.push_back(std::string(COPPER_CUDA_LIBRARY_DIR) + "/../include");
#endif
    candidates.push_back("/usr/local/cuda/include");
    for (const auto& c : candidates) {
      std::error_code ec;
      if (std::filesystem::exists(c + "/cuda_fp16.h", ec)) return std::filesystem::path(c).lexically_normal().string();
    }
    return std::string();
  }();
  return dir;
}

struct ProgramGuard {
  const Nvrtc& n;
  nvrtcProgram prog = nullptr;
  ~ProgramGuard() {
    if (prog) n.nvrtcDestroyProgram(&prog);
  }
};

std::string program_log(const Nvrtc& n, nvrtcProgram prog) {
  std::size_t size = 0;
  n.nvrtcGetProgramLogSize(prog, &size);
  std::string log(size, '\0');
  if (size) n.nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

void append_bytes(std::vector<char>& out, const void* data, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n) std::memcpy(out.data() + at, data, n);
}
void append_u32(std::vector<char>& out, std::uint32_t v) { append_bytes(out, &v, 4); }
void append_text(std::vector<char>& out, const std::string& s) {
  append_u32(out, static_cast<std::uint32_t>(s.size()));
  append_bytes(out, s.data(), s.size());
}

// COPPER_DUMP_CUBINS=dir writes every freshly compiled raw-module image there (named by the
// program and a hash of its source), so that `cuobjdump -sass` can compare the machine code of
// two kernels, e.g. a copper.jit kernel against the same RawKernel (issue 16). Cache hits are
// not compiled, so point COPPER_CACHE_DIR at an empty folder as well.
void dump_image(const RawModuleSource& source, const std::vector<char>& image) {
  const char* dir = std::getenv("COPPER_DUMP_CUBINS");
  if (!dir || !*dir || image.empty()) return;
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a of the source text
  for (unsigned char c : source.code) hash = (hash ^ c) * 1099511628211ull;
  std::string name = source.program_name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "-%016llx", static_cast<unsigned long long>(hash));
  const bool ptx = image.size() < 4 || std::memcmp(image.data(), "\x7f" "ELF", 4) != 0;
  std::ofstream(std::filesystem::path(dir) / (name + suffix + (ptx ? ".ptx" : ".cubin")), std::ios::binary)
      .write(image.data(), static_cast<std::streamsize>(ptx ? image.size() - 1 : image.size()));
}

}  // namespace

std::string RawModuleSource::cache_text() const {
  // Lengths before each piece, so no two different sources give the same text.
  std::string text;
  auto add = [&](const std::string& s) {
    text += std::to_string(s.size());
    text += ':';
    text += s;
  };
  add(code);
  text += "|options";
  for (const auto& o : options) add(o);
  text += "|names";
  for (const auto& e : name_expressions) add(e);
  return text;
}

RawModuleImage compile_raw_module(const RawModuleSource& source, int arch) {
  const Nvrtc& n = nvrtc();
  ProgramGuard guard{n};
  if (nvrtcResult r = n.nvrtcCreateProgram(&guard.prog, source.code.c_str(), source.program_name.c_str(), 0, nullptr,
                                           nullptr);
      r != NVRTC_SUCCESS)
    throw RuntimeError(std::string("nvrtcCreateProgram failed: ") + n.nvrtcGetErrorString(r));
  for (const auto& e : source.name_expressions) {
    if (nvrtcResult r = n.nvrtcAddNameExpression(guard.prog, e.c_str()); r != NVRTC_SUCCESS)
      throw ValueError("invalid name expression '" + e + "': " + n.nvrtcGetErrorString(r));
  }
  std::vector<std::string> options;
  bool has_arch = false;
  for (const auto& o : source.options) has_arch = has_arch || names_architecture(o);
  if (!has_arch) options.push_back("--gpu-architecture=sm_" + std::to_string(arch));
  options.insert(options.end(), source.options.begin(), source.options.end());
  if (const std::string& dir = cuda_include_dir(); !dir.empty()) {  // after the user's own paths
    options.push_back("--include-path=" + dir);
    // CUDA 13 keeps libcu++ (cuda/std/...), which cooperative_groups.h needs, under cccl/.
    std::error_code ec;
    if (std::filesystem::is_directory(dir + "/cccl", ec)) options.push_back("--include-path=" + dir + "/cccl");
  }
  std::vector<const char*> option_ptrs;
  for (const auto& o : options) option_ptrs.push_back(o.c_str());

  const nvrtcResult r = n.nvrtcCompileProgram(guard.prog, static_cast<int>(option_ptrs.size()), option_ptrs.data());
  if (r != NVRTC_SUCCESS) {
    const std::string log = program_log(n, guard.prog);
    throw CompileError("NVRTC could not compile " + source.program_name + " (" + n.nvrtcGetErrorString(r) + "):\n" +
                           log,
                       log);
  }
  RawModuleImage out;
  std::size_t size = 0;
  n.nvrtcGetCUBINSize(guard.prog, &size);
  if (size > 0) {
    out.image.resize(size);
    n.nvrtcGetCUBIN(guard.prog, out.image.data());
  } else {
    // A virtual architecture (compute_XX): PTX, which the driver compiles when loading.
    n.nvrtcGetPTXSize(guard.prog, &size);
    out.image.resize(size);
    n.nvrtcGetPTX(guard.prog, out.image.data());
    if (out.image.empty() || out.image.back() != '\0') out.image.push_back('\0');
  }
  for (const auto& e : source.name_expressions) {
    const char* lowered = nullptr;
    if (nvrtcResult lr = n.nvrtcGetLoweredName(guard.prog, e.c_str(), &lowered); lr != NVRTC_SUCCESS || !lowered)
      throw ValueError("name expression '" + e + "' names no kernel: " + n.nvrtcGetErrorString(lr));
    out.lowered_names.emplace_back(e, lowered);
  }
  dump_image(source, out.image);
  return out;
}

// Layout: u32 count, then per name (u32 length, bytes) twice, then the image.
std::vector<char> serialize(const RawModuleImage& image) {
  std::vector<char> out;
  append_u32(out, static_cast<std::uint32_t>(image.lowered_names.size()));
  for (const auto& [expr, lowered] : image.lowered_names) {
    append_text(out, expr);
    append_text(out, lowered);
  }
  append_bytes(out, image.image.data(), image.image.size());
  return out;
}

std::optional<RawModuleImage> deserialize(const std::vector<char>& payload) {
  std::size_t pos = 0;
  auto read_u32 = [&](std::uint32_t& v) {
    if (payload.size() - pos < 4) return false;
    std::memcpy(&v, payload.data() + pos, 4);
    pos += 4;
    return true;
  };
  auto read_text = [&](std::string& s) {
    std::uint32_t len = 0;
    if (!read_u32(len) || payload.size() - pos < len) return false;
    s.assign(payload.data() + pos, len);
    pos += len;
    return true;
  };
  RawModuleImage out;
  std::uint32_t count = 0;
  if (!read_u32(count) || count > payload.size()) return std::nullopt;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string expr, lowered;
    if (!read_text(expr) || !read_text(lowered)) return std::nullopt;
    out.lowered_names.emplace_back(std::move(expr), std::move(lowered));
  }
  if (pos == payload.size()) return std::nullopt;  // no image
  out.image.assign(payload.begin() + static_cast<std::ptrdiff_t>(pos), payload.end());
  return out;
}

}  // namespace copper::backend::cuda
