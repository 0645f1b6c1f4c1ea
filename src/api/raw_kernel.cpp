// RawKernel: launch checks, argument packing and function attributes. Everything
// a launch needs per device is looked up once (PerDevice), so the per-launch work is
// the checks below, one small array of parameter pointers and cuLaunchKernel.
#include <array>

#include "api/raw_kernel_state.h"
#include "copper/cuda.hpp"
#include "copper/errors.hpp"
#include "copper/raw_kernel.hpp"

namespace copper {
namespace {

std::string text_of(const Dim3& d) {
  std::string s = "(";
  s += std::to_string(d.x);
  s += ", ";
  s += std::to_string(d.y);
  s += ", ";
  s += std::to_string(d.z);
  return s + ")";
}

// CUDA's limits for every GPU copper supports (compute capability 5.0 and later).
constexpr std::int64_t kMaxBlockThreads = 1024, kMaxBlockXY = 1024, kMaxBlockZ = 64;
constexpr std::int64_t kMaxGridX = 2147483647, kMaxGridYZ = 65535;

// (Unused in a build without the CUDA backend, which launches nothing.)
[[maybe_unused]] void check_launch_shape(const std::string& what, const Dim3& grid, const Dim3& block) {
  if (grid.x < 1 || grid.y < 1 || grid.z < 1)
    throw ValueError(what + ": grid " + text_of(grid) + " must have every size at least 1");
  if (grid.x > kMaxGridX || grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
    throw ValueError(what + ": grid " + text_of(grid) + " is too large (at most (2147483647, 65535, 65535))");
  if (block.x < 1 || block.y < 1 || block.z < 1)
    throw ValueError(what + ": block " + text_of(block) + " must have every size at least 1");
  if (block.x > kMaxBlockXY || block.y > kMaxBlockXY || block.z > kMaxBlockZ)
    throw ValueError(what + ": block " + text_of(block) + " is too large (at most (1024, 1024, 64))");
  if (block.x * block.y * block.z > kMaxBlockThreads)
    throw ValueError(what + ": block " + text_of(block) + " has " + std::to_string(block.x * block.y * block.z) +
                     " threads; a block has at most 1024");
}

#ifdef COPPER_HAVE_CUDA
// The GPU the launch goes to: the stream's, else the first array argument's, else the
// default device's. Every array argument must live there.
int launch_device(const std::string& what, std::span<const KernelArg> args, const cuda::Stream* stream) {
  if (!cuda::is_available()) detail::current_gpu(what);  // RuntimeError: GPU only
  int device = stream ? stream->device() : -1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_array()) continue;
    const Device d = args[i].array_device();
    if (d.type != DeviceType::cuda)
      throw ValueError(what + ": argument " + std::to_string(i) + " is an array on " + d.str() +
                       "; kernel arguments must be arrays on the GPU (copper.asarray(x, device='cuda'))");
    if (device < 0) {
      device = d.index;
    } else if (d.index != device) {
      throw ValueError(what + ": argument " + std::to_string(i) + " is an array on " + d.str() +
                       ", but the kernel runs on cuda:" + std::to_string(device) +
                       (stream ? " (the stream's device)" : " (where the first array argument is)"));
    }
  }
  if (device >= 0) return device;
  const Device d = default_device();
  return d.type == DeviceType::cuda ? d.index : cuda::current_device();
}

const std::array<std::pair<const char*, CUfunction_attribute>, 10> kAttributes = {{
    {"max_threads_per_block", CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {"shared_size_bytes", CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
    {"const_size_bytes", CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
    {"local_size_bytes", CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
    {"num_regs", CU_FUNC_ATTRIBUTE_NUM_REGS},
    {"ptx_version", CU_FUNC_ATTRIBUTE_PTX_VERSION},
    {"binary_version", CU_FUNC_ATTRIBUTE_BINARY_VERSION},
    {"cache_mode_ca", CU_FUNC_ATTRIBUTE_CACHE_MODE_CA},
    {"max_dynamic_shared_size_bytes", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
    {"preferred_shared_memory_carveout", CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT},
}};
#endif

}  // namespace

RawKernel::RawKernel(std::string code, std::string name, std::vector<std::string> options,
                     bool enable_cooperative_groups) {
  if (name.empty()) throw ValueError("RawKernel needs the name of a __global__ function");
  RawModule module(std::move(code), std::move(options), {}, enable_cooperative_groups);
  RawKernel k = module.get_function(name);
  k.state_->module->program_name = "raw_kernel.cu";
  state_ = std::move(k.state_);
}

void RawKernel::operator()(Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args,
                           std::size_t shared_mem) const {
  launch(grid, block, std::span<const KernelArg>(args.begin(), args.size()), shared_mem, nullptr);
}

void RawKernel::operator()(Dim3 grid, Dim3 block, std::span<const KernelArg> args, std::size_t shared_mem) const {
  launch(grid, block, args, shared_mem, nullptr);
}

void RawKernel::launch(Dim3 grid, Dim3 block, std::span<const KernelArg> args, std::size_t shared_mem,
                       const cuda::Stream* stream) const {
  detail::RawKernelState& st = *state_;
#ifdef COPPER_HAVE_CUDA
  const int device = launch_device(st.what, args, stream);
  check_launch_shape(st.what, grid, block);
  backend::cuda::RawFunction& f = detail::function_on(st, device);  // compiles on first use
  const std::int64_t threads = block.x * block.y * block.z;
  if (threads > f.max_threads_per_block)
    throw ValueError(st.what + ": block " + text_of(block) + " has " + std::to_string(threads) +
                     " threads; this kernel allows at most " + std::to_string(f.max_threads_per_block) +
                     " (its register use or __launch_bounds__)");
  const int shared_limit = f.max_dynamic_shared_bytes.load(std::memory_order_relaxed);
  if (shared_mem > static_cast<std::size_t>(shared_limit))
    throw ValueError(st.what + ": shared_mem=" + std::to_string(shared_mem) +
                     " bytes is above the kernel's dynamic shared memory limit of " + std::to_string(shared_limit) +
                     " bytes (raise it with max_dynamic_shared_size_bytes)");
  // Parameter pointers into the arguments themselves: no copies, no allocation for up to 32.
  std::array<void*, 32> small;
  std::vector<void*> large;
  void** params = small.data();
  if (args.size() > small.size()) {
    large.resize(args.size());
    params = large.data();
  }
  for (std::size_t i = 0; i < args.size(); ++i) params[i] = const_cast<void*>(args[i].value());
  const unsigned g[3] = {static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y), static_cast<unsigned>(grid.z)};
  const unsigned b[3] = {static_cast<unsigned>(block.x), static_cast<unsigned>(block.y),
                         static_cast<unsigned>(block.z)};
  backend::cuda::launch_raw(device, f.fn, g, b, static_cast<unsigned>(shared_mem), params,
                            stream ? stream->state().get() : nullptr, st.op, st.module->cooperative);
#else
  (void)grid, (void)block, (void)args, (void)shared_mem, (void)stream;
  detail::current_gpu(st.what);
#endif
}

void RawKernel::compile() const {
#ifdef COPPER_HAVE_CUDA
  if (!cuda::is_available()) {
    detail::compile_check_without_gpu(*state_->module);
    return;
  }
  detail::function_on(*state_, cuda::current_device());
#else
  detail::current_gpu(state_->what);
#endif
}

const std::string& RawKernel::code() const { return state_->module->code; }
const std::string& RawKernel::name() const { return state_->name; }
const std::vector<std::string>& RawKernel::options() const { return state_->module->options; }
bool RawKernel::enable_cooperative_groups() const { return state_->module->cooperative; }

std::map<std::string, int> RawKernel::attributes() const {
  std::map<std::string, int> out;
#ifdef COPPER_HAVE_CUDA
  const int device = detail::current_gpu(state_->what);
  const auto& f = detail::function_on(*state_, device);
  for (const auto& [name, attribute] : kAttributes) out[name] = backend::cuda::function_attribute(f.fn, attribute);
#else
  detail::current_gpu(state_->what);
#endif
  return out;
}

int RawKernel::attribute(const std::string& name) const {
#ifdef COPPER_HAVE_CUDA
  for (const auto& [known, attribute] : kAttributes) {
    if (name != known) continue;
    const int device = detail::current_gpu(state_->what);
    return backend::cuda::function_attribute(detail::function_on(*state_, device).fn, attribute);
  }
  throw ValueError("unknown kernel attribute '" + name + "'");
#else
  (void)name;
  detail::current_gpu(state_->what);
  return 0;
#endif
}

void RawKernel::set_max_dynamic_shared_size_bytes(int bytes) const {
#ifdef COPPER_HAVE_CUDA
  if (bytes < 0) throw ValueError("max_dynamic_shared_size_bytes must be non-negative");
  const int device = detail::current_gpu(state_->what);
  auto& f = detail::function_on(*state_, device);
  backend::cuda::set_function_attribute(device, f.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
  f.max_dynamic_shared_bytes.store(bytes, std::memory_order_relaxed);
#else
  (void)bytes;
  detail::current_gpu(state_->what);
#endif
}

void RawKernel::set_preferred_shared_memory_carveout(int percent) const {
#ifdef COPPER_HAVE_CUDA
  if (percent < -1 || percent > 100)
    throw ValueError("preferred_shared_memory_carveout must be -1 (no preference) or a percentage 0..100");
  const int device = detail::current_gpu(state_->what);
  auto& f = detail::function_on(*state_, device);
  backend::cuda::set_function_attribute(device, f.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
#else
  (void)percent;
  detail::current_gpu(state_->what);
#endif
}

}  // namespace copper
