// Kernels from CUDA C++ source strings, as CuPy's RawKernel and RawModule: the source
// is compiled at run time with NVRTC for the GPU's architecture (cached in memory and
// on disk with copper's own kernels) and launched on the current stream.
//
//   copper::RawKernel add(R"(extern "C" __global__ void add(const float* x, float* y, long long n) {
//     for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
//       y[i] += x[i];
//   })", "add");
//   add({128}, {256}, {x, y, (long long)x.size()});
//
// GPU only: launching where no GPU is usable raises RuntimeError. Arguments are
// passed as the kernel's parameters by position; their number and types are not
// checkable (the compiled kernel does not record them), so they must match the
// kernel's signature.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "copper/cuda.hpp"
#include "copper/device.hpp"
#include "copper/ndarray.hpp"
#include "copper/scalar.hpp"

namespace copper {

// A grid or block extent (CUDA's dim3): 1 to 3 sizes, missing ones are 1. Signed, so
// that a negative size is reported rather than wrapped around.
struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
  Dim3(std::int64_t x_ = 1, std::int64_t y_ = 1, std::int64_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

// One kernel argument, held by value (no reference to the array it came from):
// - an ndarray passes its data pointer (first element); it must be on the kernel's GPU;
// - a C++ arithmetic value passes exactly its own type (int: 4 bytes, double: 8, ...);
// - a copper::Scalar passes its dtype: a typed (NumPy-style) scalar its own dtype, a
//   plain one CuPy's choice for Python values (int -> int64, or uint64 above
//   INT64_MAX; float -> float64; complex -> complex128; bool -> bool);
// - nullptr (or device_pointer) passes a raw pointer;
// - by_value / bytes pass a struct's bytes as they are (a CUDA vector type such as
//   float4, or a user struct: lay it out as the kernel's parameter type is laid out).
class KernelArg {
 public:
  KernelArg(const ndarray& a);  // NOLINT: implicit, so {x, y, n} reads as a call
  KernelArg(const Scalar& s);   // NOLINT
  template <class T>
    requires std::is_arithmetic_v<T>
  KernelArg(T v) : size_(sizeof(T)) {  // NOLINT
    std::memcpy(value_, &v, sizeof v);
  }
  template <class T>
  KernelArg(std::complex<T> v) : size_(sizeof v) {  // NOLINT
    std::memcpy(value_, &v, sizeof v);
  }
  KernelArg(std::nullptr_t) : size_(sizeof(void*)) {}  // NOLINT
  // A device address the caller manages (e.g. from another library).
  static KernelArg device_pointer(std::uintptr_t address);
  // `size` bytes copied from `data` (NumPy structured scalars come this way from
  // Python). ValueError for 0 bytes or more than a kernel's parameters can hold.
  static KernelArg bytes(const void* data, std::size_t size);
  template <class T>
    requires std::is_trivially_copyable_v<T>
  static KernelArg by_value(const T& v) {
    return bytes(&v, sizeof v);
  }

  bool is_array() const { return is_array_; }
  Device array_device() const { return device_; }
  // What the kernel parameter receives.
  const void* value() const { return large_ ? static_cast<const void*>(large_.get()) : value_; }
  std::size_t size() const { return size_; }

 private:
  KernelArg() = default;
  alignas(16) unsigned char value_[16] = {};
  std::shared_ptr<unsigned char[]> large_;  // values above 16 bytes (structs)
  std::uint32_t size_ = 0;
  bool is_array_ = false;
  Device device_{};
};

namespace detail {
struct RawModuleState;
struct RawKernelState;
}  // namespace detail

class RawModule;

// One __global__ function of user source. Cheap to copy (copies share the compiled
// function). Compilation happens on first use per device (or with compile()).
class RawKernel {
 public:
  // `options` are NVRTC's (e.g. "-std=c++17", "--use_fast_math"); the architecture of
  // the GPU is added unless an option names one, and the CUDA toolkit's include directory
  // comes after the user's (cuda_fp16.h, cooperative_groups.h). With
  // enable_cooperative_groups the kernel launches with cuLaunchCooperativeKernel.
  RawKernel(std::string code, std::string name, std::vector<std::string> options = {},
            bool enable_cooperative_groups = false);

  // Launches on the current stream of the GPU the array arguments live on (the
  // default device when no argument is an array). shared_mem is the dynamic shared
  // memory per block in bytes. The launch configuration is checked first: ValueError
  // for a block over the kernel's thread limit (at most 1024), a grid or block size
  // that is zero, negative or too large, or shared_mem above the kernel's limit
  // (see set_max_dynamic_shared_size_bytes).
  void operator()(Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args, std::size_t shared_mem = 0) const;
  void operator()(Dim3 grid, Dim3 block, std::span<const KernelArg> args, std::size_t shared_mem = 0) const;
  // The same on `stream` (whose device the arrays must be on).
  void launch(Dim3 grid, Dim3 block, std::span<const KernelArg> args, std::size_t shared_mem,
              const cuda::Stream* stream) const;

  // Compiles (and loads, on a GPU) now, so errors show before the first launch. Where
  // no GPU is usable it compiles for sm_90 as a check (CompileError if the source is
  // wrong), and RuntimeError if NVRTC cannot be loaded.
  void compile() const;

  const std::string& code() const;
  const std::string& name() const;
  const std::vector<std::string>& options() const;
  bool enable_cooperative_groups() const;

  // cuFuncGetAttribute on the current device (compiling first): max_threads_per_block,
  // shared_size_bytes, const_size_bytes, local_size_bytes, num_regs, ptx_version,
  // binary_version, cache_mode_ca, max_dynamic_shared_size_bytes,
  // preferred_shared_memory_carveout, ...
  std::map<std::string, int> attributes() const;
  int attribute(const std::string& name) const;  // ValueError for an unknown name
  // Lets a launch use more than 48 KiB of dynamic shared memory (up to the GPU's limit).
  void set_max_dynamic_shared_size_bytes(int bytes) const;
  void set_preferred_shared_memory_carveout(int percent) const;

 private:
  friend class RawModule;
  explicit RawKernel(std::shared_ptr<detail::RawKernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::RawKernelState> state_;
};

// A whole CUDA C++ translation unit, possibly with several kernels, templates and
// __device__ / __constant__ variables. Templated kernels are reached through name
// expressions: RawModule(code, {}, {"scale<float, 4>"}).get_function("scale<float, 4>").
class RawModule {
 public:
  RawModule(std::string code, std::vector<std::string> options = {}, std::vector<std::string> name_expressions = {},
            bool enable_cooperative_groups = false);
  // A module from a compiled image (cubin, PTX text or fatbin), as CuPy's path=.
  static RawModule from_image(std::vector<char> image, bool enable_cooperative_groups = false);

  // The kernel `name`: one of the name expressions, or a symbol of the module
  // (an extern "C" name). RuntimeError at first use when the module has no such kernel.
  RawKernel get_function(const std::string& name) const;
  // A __device__ or __constant__ variable as a 1-d array of `dtype` over its bytes, on
  // the current device; writes to the array change the variable.
  ndarray get_global(const std::string& name, DType dtype = DType::uint8) const;
  void compile() const;  // as RawKernel::compile

  const std::string& code() const;
  const std::vector<std::string>& options() const;
  const std::vector<std::string>& name_expressions() const;

 private:
  std::shared_ptr<detail::RawModuleState> state_;
};

}  // namespace copper
