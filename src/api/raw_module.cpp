// RawModule, and the per-device loading RawKernel shares with it.
#include <mutex>
#include <unordered_set>

#include "api/raw_kernel_state.h"
#include "copper/cuda.hpp"
#include "copper/errors.hpp"
#include "copper/raw_kernel.hpp"

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_raw_compile.h"
#include "copper/fusion.hpp"
#endif

namespace copper {
namespace detail {

const char* intern(const std::string& text) {
  static std::mutex mutex;
  static auto* texts = new std::unordered_set<std::string>();  // leaked: streams may name them at exit
  std::lock_guard lock(mutex);
  return texts->insert(text).first->c_str();
}

int current_gpu(const std::string& what) {
#ifdef COPPER_HAVE_CUDA
  if (!cuda::is_available())
    throw RuntimeError(what + " runs only on NVIDIA GPUs, and no usable GPU was found");
  return cuda::current_device();
#else
  throw RuntimeError(what + " runs only on NVIDIA GPUs, and this copper build has no CUDA backend");
#endif
}

#ifdef COPPER_HAVE_CUDA
namespace {
backend::cuda::RawModuleSource source_of(const RawModuleState& state) {
  return {state.code, state.options, state.name_expressions, state.program_name};
}
}  // namespace

const backend::cuda::LoadedRawModule& module_on(RawModuleState& state, int device) {
  return *state.loaded
              .get(device,
                   [&] {
                     // Pointers: both return modules the process keeps (GCC 13 reads a reference
                     // bound to a call with a temporary argument as dangling).
                     const backend::cuda::LoadedRawModule* m =
                         state.from_image ? &backend::cuda::load_raw_image(device, state.image)
                                          : &backend::cuda::load_raw_module(device, source_of(state));
                     return std::make_unique<RawModuleState::Loaded>(RawModuleState::Loaded{m});
                   })
              .module;
}

backend::cuda::RawFunction& function_on(RawKernelState& state, int device) {
  return state.functions.get(device, [&] {
    return backend::cuda::find_raw_function(device, module_on(*state.module, device), state.name, state.what);
  });
}

void compile_check_without_gpu(const RawModuleState& state) {
  if (state.from_image) return;  // nothing to compile
  backend::cuda::compile_raw_module(source_of(state), 90);
}
#endif

}  // namespace detail

RawModule::RawModule(std::string code, std::vector<std::string> options, std::vector<std::string> name_expressions,
                     bool enable_cooperative_groups)
    : state_(std::make_shared<detail::RawModuleState>()) {
  state_->code = std::move(code);
  state_->options = std::move(options);
  state_->name_expressions = std::move(name_expressions);
  state_->cooperative = enable_cooperative_groups;
}

RawModule RawModule::from_image(std::vector<char> image, bool enable_cooperative_groups) {
  if (image.empty()) throw ValueError("RawModule image is empty");
  RawModule m("", {}, {}, enable_cooperative_groups);
  // PTX text must end in NUL for the driver; a trailing NUL is harmless for binary images.
  if (image.back() != '\0') image.push_back('\0');
  m.state_->image = std::move(image);
  m.state_->from_image = true;
  return m;
}

RawKernel RawModule::get_function(const std::string& name) const {
  if (name.empty()) throw ValueError("RawModule.get_function needs a kernel name");
  auto k = std::make_shared<detail::RawKernelState>();
  k->module = state_;
  k->name = name;
  k->what = "RawKernel '" + name + "'";
  k->op = detail::intern(k->what);
  return RawKernel(std::move(k));
}

ndarray RawModule::get_global(const std::string& name, DType dtype) const {
#ifdef COPPER_HAVE_CUDA
  const int device = detail::current_gpu("RawModule.get_global");
  const auto [ptr, bytes] = backend::cuda::module_global(device, detail::module_on(*state_, device), name);
  const std::int64_t item = itemsize(dtype);
  if (bytes % static_cast<std::size_t>(item) != 0)
    throw ValueError("global '" + name + "' has " + std::to_string(bytes) + " bytes, not a whole number of " +
                     std::to_string(item) + "-byte elements");
  // No deleter: the variable belongs to the module, which lives as long as the process.
  auto buffer = std::make_shared<Buffer>(reinterpret_cast<void*>(ptr), bytes, Device{DeviceType::cuda, device}, nullptr);
  detail::mark_shared_outside(buffer);  // kernels of the module read and write it
  return ndarray(std::move(buffer), dtype, Shape{static_cast<std::int64_t>(bytes) / item}, Strides{item}, 0);
#else
  (void)name;
  (void)dtype;
  detail::current_gpu("RawModule.get_global");
  return {};
#endif
}

void RawModule::compile() const {
#ifdef COPPER_HAVE_CUDA
  if (!cuda::is_available()) {
    detail::compile_check_without_gpu(*state_);
    return;
  }
  detail::module_on(*state_, cuda::current_device());
#else
  detail::current_gpu("RawModule");
#endif
}

const std::string& RawModule::code() const { return state_->code; }
const std::vector<std::string>& RawModule::options() const { return state_->options; }
const std::vector<std::string>& RawModule::name_expressions() const { return state_->name_expressions; }

}  // namespace copper
