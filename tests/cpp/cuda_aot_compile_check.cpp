// The ahead-of-time CUB code (src/backend/cuda/cub/*.cu) is compiled by nvcc and linked
// into libcopper with the static CUDA runtime, and that costs nothing where there is no
// driver: loading copper and computing on the CPU never loads libcuda (the runtime
// loads it on its first real call), and without a GPU the default device is the CPU.
// Runs on CI machines (toolkit, no GPU) as well as GPU machines.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "backend/cuda/cub/aot.h"
#include "backend/cuda/cuda_context.h"
#include "copper/copper.hpp"

namespace {

bool libcuda_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libcuda.so") != std::string::npos) return true;
  return false;
}

int failures = 0;
void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

}  // namespace

int main() {
  namespace aot = copper::backend::cuda::aot;
  expect(!libcuda_mapped(), "libcuda is not loaded at start-up");

  const char* archs = aot::compiled_architectures();
  std::printf("nvcc compiled the CUB code for virtual architectures %s, CUDA runtime %d\n", archs,
              aot::runtime_version());
  expect(std::strlen(archs) >= 2 && archs[0] >= '1' && archs[0] <= '9', "the AOT objects carry nvcc's architecture list");
  expect(aot::runtime_version() >= 12000, "the static CUDA runtime is linked in");

  auto x = copper::arange(10, std::nullopt, copper::cpu);
  expect(copper::sum(x).item().to_int64() == 45, "CPU work runs");
  expect(!libcuda_mapped(), "the static runtime has not loaded libcuda");

  if (copper::backend::cuda::device_count() == 0) {
    expect(copper::default_device() == copper::cpu, "without a usable GPU the default device is the CPU");
  }
  return failures ? 1 : 0;
}
