// The custom-kernel lessons (examples/cpp/custom_kernel_sources.h) compile under NVRTC
// for sm_90, the way RawKernel/RawModule compile them (needs NVRTC, no GPU); templated
// kernels get lowered names through name expressions; a broken source raises
// CompileError whose log names the user's own line; the disk-cache payload round-trips.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../../examples/cpp/custom_kernel_sources.h"
#include "backend/cuda/cuda_raw_compile.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"

using namespace copper;
namespace cu = copper::backend::cuda;

namespace {

int failures = 0, passed = 0;

void expect(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failures;
    std::printf("FAILED: %s\n", what.c_str());
  }
}

// Runs `body`, reporting any exception as a failure named `what`.
template <class F> void attempt(const std::string& what, F&& body) {
  try {
    body();
  } catch (const CompileError& e) {
    expect(false, what + ": CompileError\n" + e.log.substr(0, 3000));
  } catch (const std::exception& e) {
    expect(false, what + ": " + e.what());
  }
}

}  // namespace

int main() {
  const std::vector<std::pair<const char*, const char*>> extern_c = {
      {"scaled_add", lessons::kScaledAdd},
      {"histogram", lessons::kHistogram},
      {"box_blur", lessons::kBoxBlur},
      {"block_sum", lessons::kBlockSum},
  };
  for (const auto& [name, source] : extern_c) {
    // Both routes: the built-in kernels' compile_cubin and RawKernel's own compile.
    attempt(std::string(name) + " (compile_cubin)", [&, source = source] {
      expect(!cu::compile_cubin(source, 90).empty(), std::string(name) + " gave an empty cubin");
    });
    attempt(std::string(name) + " (compile_raw_module)", [&, source = source] {
      const cu::RawModuleImage image = cu::compile_raw_module({source, {}, {}, "raw_kernel.cu"}, 90);
      expect(!image.image.empty(), std::string(name) + " gave an empty image");
    });
  }

  attempt("matmul_tiled name expressions", [&] {
    const cu::RawModuleImage image = cu::compile_raw_module(
        {lessons::kTiledMatmul, {"-std=c++17"}, {"matmul_tiled<16>", "matmul_tiled<32>"}, "raw_module.cu"}, 90);
    expect(image.lowered_names.size() == 2, "two lowered names");
    for (const auto& [expr, lowered] : image.lowered_names)
      expect(lowered.rfind("_Z", 0) == 0 && lowered.find("matmul_tiled") != std::string::npos,
             expr + " lowered to a mangled name, got " + lowered);
    // The disk cache's payload form round-trips, and a truncated payload is refused.
    const std::vector<char> payload = cu::serialize(image);
    const auto back = cu::deserialize(payload);
    expect(back && back->image == image.image && back->lowered_names == image.lowered_names, "payload round trip");
    expect(!cu::deserialize(std::vector<char>(payload.begin(), payload.begin() + 6)), "truncated payload refused");
  });

  // A virtual architecture gives PTX text, which the driver compiles when loading.
  attempt("PTX for compute_90", [&] {
    const cu::RawModuleImage image = cu::compile_raw_module({lessons::kScaledAdd, {"-arch=compute_90"}, {}}, 90);
    const std::string text(image.image.begin(), image.image.end());
    expect(text.find(".entry scaled_add") != std::string::npos && image.image.back() == '\0', "PTX with the entry");
  });

  // The toolkit's headers are on the include path, as CuPy puts them.
  attempt("cuda_fp16.h and cooperative_groups.h", [&] {
    const char* source = "#include <cuda_fp16.h>\n#include <cooperative_groups.h>\n"
                         "extern \"C\" __global__ void halves(__half* x, int* flag) {\n"
                         "  cooperative_groups::this_grid().sync();\n"
                         "  x[threadIdx.x] = __float2half(1.5f);\n  *flag = 1;\n}\n";
    expect(!cu::compile_raw_module({source, {}, {}}, 90).image.empty(), "headers compile");
  });

  // Line 3 of the user's source is wrong: the log must say so (nothing is prepended).
  const char* broken = "extern \"C\" __global__ void broken(float* x) {\n"
                       "  int i = threadIdx.x;\n"
                       "  x[i] = undefined_name;\n"
                       "}\n";
  try {
    cu::compile_raw_module({broken, {}, {}, "raw_kernel.cu"}, 90);
    expect(false, "broken source compiled");
  } catch (const CompileError& e) {
    expect(e.log.find("raw_kernel.cu(3)") != std::string::npos, "log names line 3: " + e.log);
    expect(e.log.find("undefined_name") != std::string::npos, "log names the identifier");
    expect(std::string(e.what()).find("raw_kernel.cu(3)") != std::string::npos, "what() carries the log");
  } catch (const std::exception& e) {
    expect(false, std::string("broken source raised another error: ") + e.what());
  }
  try {
    cu::compile_cubin(broken, 90);
    expect(false, "broken source compiled (compile_cubin)");
  } catch (const CompileError& e) {
    expect(e.log.find("(3): error") != std::string::npos, "compile_cubin log names line 3: " + e.log);
  } catch (const std::exception& e) {
    expect(false, std::string("compile_cubin raised another error: ") + e.what());
  }
  // A name expression naming no template instance is a compile error, not a crash.
  try {
    cu::compile_raw_module({lessons::kTiledMatmul, {}, {"no_such_kernel<3>"}}, 90);
    expect(false, "bad name expression compiled");
  } catch (const CompileError&) {
    expect(true, "bad name expression");
  } catch (const std::exception& e) {
    expect(false, std::string("bad name expression raised another error: ") + e.what());
  }

  std::printf("%d raw-kernel compile checks passed, %d failed\n", passed, failures);
  return failures ? 1 : 0;
}
