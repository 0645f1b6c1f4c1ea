// User kernels on the CPU: C++ source compiled by the system compiler into a shared
// library, cached on disk (kernel_cache_directory()/cpu, keyed by the source, flags and
// the compiler's identity) and in memory, loaded with dlopen for the process's lifetime.
#pragma once
#include <cstdint>
#include <string>

namespace copper::backend::cpu {

// The loaded library built from `source`. CompileError with the compiler's output when
// it does not compile; RuntimeError when no compiler is found ($COPPER_CXX, else c++,
// g++, clang++ on PATH).
void* user_library(const std::string& source);
// A symbol of a library user_library returned; RuntimeError if it is missing.
void* user_symbol(void* library, const char* name);

struct UserCompileStats {
  std::uint64_t memory_hits = 0, disk_hits = 0, compiles = 0;
};
UserCompileStats user_compile_stats();

}  // namespace copper::backend::cpu
