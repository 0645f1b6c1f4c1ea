// NVRTC compile checks (cuda_*_compile_check.cpp) run every source through compile_cubin
// and keep going after a failure: CompileTally counts them and prints each failure with
// the start of the compiler's log.
#pragma once
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"

namespace copper::testing {

struct CompileTally {
  int compiled = 0, failures = 0;

  // Compiles make_source() for sm_90; the cubin, or empty after a failure (a throwing
  // make_source counts as one).
  template <class MakeSource> std::vector<char> compile(const std::string& what, MakeSource&& make_source) {
    try {
      std::vector<char> cubin = backend::cuda::compile_cubin(make_source(), 90);
      ++compiled;
      return cubin;
    } catch (const CompileError& e) {
      fail(what, e.log);
    } catch (const std::exception& e) {
      fail(what, e.what());
    }
    return {};
  }

 private:
  void fail(const std::string& what, const std::string& detail) {
    ++failures;
    std::printf("FAILED %s:\n%.3000s\n", what.c_str(), detail.c_str());
  }
};

}  // namespace copper::testing
