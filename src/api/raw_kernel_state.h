// What RawModule and RawKernel objects share: the module's source (or image) and, with
// the CUDA backend, the module and kernel loaded per device on first use.
#pragma once
#include <memory>
#include <string>
#include <vector>

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_raw_module.h"
#endif

namespace copper::detail {

struct RawModuleState {
  std::string code;
  std::vector<std::string> options, name_expressions;
  std::vector<char> image;  // from_image: a compiled image used instead of code
  bool from_image = false;
  bool cooperative = false;
  const char* program_name = "raw_module.cu";  // the file name in NVRTC's log
#ifdef COPPER_HAVE_CUDA
  struct Loaded {
    const backend::cuda::LoadedRawModule* module;
  };
  backend::cuda::PerDevice<Loaded> loaded;
#endif
};

struct RawKernelState {
  std::shared_ptr<RawModuleState> module;
  std::string name;          // as the user wrote it (a name expression or a symbol)
  std::string what;          // "RawKernel 'name'", for error messages
  const char* op = nullptr;  // `what`, interned: streams record it for asynchronous errors
#ifdef COPPER_HAVE_CUDA
  backend::cuda::PerDevice<backend::cuda::RawFunction> functions;
#endif
};

// `text` with process lifetime (one copy per distinct text).
const char* intern(const std::string& text);

}  // namespace copper::detail

namespace copper::detail {

// The GPU that compile() and attributes() use: the default device when it is a GPU,
// else GPU 0. RuntimeError naming `what` where no GPU is usable.
int current_gpu(const std::string& what);

#ifdef COPPER_HAVE_CUDA
const backend::cuda::LoadedRawModule& module_on(RawModuleState& state, int device);
backend::cuda::RawFunction& function_on(RawKernelState& state, int device);
// compile() where no GPU is usable: NVRTC for sm_90, so source errors still show.
void compile_check_without_gpu(const RawModuleState& state);
#endif

}  // namespace copper::detail
