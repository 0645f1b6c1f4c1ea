// The random-number kernel compiles under NVRTC for sm_90 for every kind and output
// dtype the front end asks for (needs NVRTC, no GPU).
#include <cstdio>
#include <exception>
#include <string>

#include "backend/cuda/cuda_random.h"
#include "copper/errors.hpp"
#include "backend/cuda/kernel_cache.h"

using namespace copper;
using RKind = ops::philox::Kind;

int main() {
  int failures = 0, compiled = 0;
  auto compile = [&](DType t, RKind kind, int per) {
    try {
      backend::cuda::compile_cubin(backend::cuda::random_source(t, kind, per), 90);
      ++compiled;
    } catch (const CompileError& e) {
      ++failures;
      std::printf("FAILED %s kind %u:\n%.3000s\n", std::string(name(t)).c_str(), static_cast<unsigned>(kind),
                  e.log.c_str());
    } catch (const std::exception& e) {
      ++failures;
      std::printf("FAILED %s kind %u per %d:\n%.3000s\n", std::string(name(t)).c_str(), static_cast<unsigned>(kind),
                  per, e.what());
    }
  };
  compile(uint64, RKind::raw, 2);
  for (DType t : {float32, float64}) {
    compile(t, RKind::uniform, t == float32 ? 4 : 2);
    compile(t, RKind::normal, 2);
    compile(t, RKind::exponential, 2);
  }
  for (DType t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64}) {
    compile(t, RKind::integers, 2);
    compile(t, RKind::integers, 1);
  }
  std::printf("%d random kernels compiled, %d failed\n", compiled, failures);
  return failures ? 1 : 0;
}
