// Compiling user source (RawKernel / RawModule) with NVRTC. The user's text is the
// whole program, unchanged, so NVRTC's log points at the user's own line numbers.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace copper::backend::cuda {

// What a user module is made from.
struct RawModuleSource {
  std::string code;
  std::vector<std::string> options;           // NVRTC options, as the user gave them
  std::vector<std::string> name_expressions;  // e.g. "my_kernel<float, 4>"
  std::string program_name = "raw_module.cu";  // the file name NVRTC's log shows
  // Everything the compiled image depends on besides NVRTC and the architecture.
  std::string cache_text() const;
};

// A compiled module: a cubin (or PTX text, NUL-terminated, when the options name a
// virtual architecture) and the mangled name of each name expression.
struct RawModuleImage {
  std::vector<char> image;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // expression -> symbol
};

// Compiles for sm_<arch> (unless the options name an architecture themselves).
// CompileError carrying NVRTC's log when the source does not compile.
RawModuleImage compile_raw_module(const RawModuleSource& source, int arch);

// The disk cache's payload form, and back (nullopt for a malformed payload).
std::vector<char> serialize(const RawModuleImage& image);
std::optional<RawModuleImage> deserialize(const std::vector<char>& payload);

}  // namespace copper::backend::cuda
