// User kernels from C++ source strings, as CuPy's ElementwiseKernel and ReductionKernel:
// the same parameter strings ("T x, raw T y, float32 z"), type placeholders resolved from
// the arguments, broadcasting, `i` and `_ind.size()`, raw arrays, output allocation or
// out arguments. Compiled at the first call for each argument signature, by NVRTC on a
// GPU and by the system C++ compiler on the CPU, and cached in memory and on disk.
//
//   copper::ElementwiseKernel squared_diff("float32 x, float32 y", "float32 z",
//                                          "z = (x - y) * (x - y)", "squared_diff");
//   copper::ndarray z = squared_diff(x, y);
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {
namespace api {
struct ElementwiseKernelDef;
struct ReductionKernelDef;
}  // namespace api

struct ElementwiseKernelOptions {
  bool reduce_dims = true;  // accepted for CuPy's sake: loops are always collapsed
  std::string preamble;     // code before the kernel (helper functions, constants)
  std::string loop_prep;    // code inside the kernel, before the loop
  std::string after_loop;   // code inside the kernel, after the loop
  // Compile options: -DNAME[=VALUE] become #defines; others are accepted and ignored.
  std::vector<std::string> options;
};

class ElementwiseKernel {
 public:
  // TypeError/ValueError for malformed parameter lists or names (checked here, not at call).
  ElementwiseKernel(const std::string& in_params, const std::string& out_params, const std::string& operation,
                    const std::string& name = "kernel", const ElementwiseKernelOptions& options = {});
  // Inputs, then optionally every output; returns the outputs (allocated, or those given).
  // `size` sets the loop length when no argument is a non-raw array.
  std::vector<ndarray> call(const std::vector<operand>& args, std::optional<std::int64_t> size = std::nullopt) const;
  // The first output: squared_diff(x, y), squared_diff(x, y, z).
  template <class... Args> ndarray operator()(const Args&... args) const {
    std::vector<ndarray> out = call(std::vector<operand>{operand(args)...});
    return out.empty() ? ndarray() : out.front();
  }
  const std::string& name() const;
  int nin() const;
  int nout() const;

 private:
  std::shared_ptr<const api::ElementwiseKernelDef> def_;
};

struct ReductionKernelOptions {
  std::optional<std::string> reduce_type;  // type of `a` and `b`; default: the first output's
  bool reduce_dims = true;                 // accepted for CuPy's sake
  std::string preamble;
  std::vector<std::string> options;  // as ElementwiseKernelOptions::options
};

class ReductionKernel {
 public:
  // identity: the reduction's starting value as code ("0"); nullopt or "" for none (an
  // empty reduction is then a ValueError, as in NumPy).
  ReductionKernel(const std::string& in_params, const std::string& out_params, const std::string& map_expr,
                  const std::string& reduce_expr, const std::string& post_map_expr,
                  const std::optional<std::string>& identity, const std::string& name = "reduce_kernel",
                  const ReductionKernelOptions& options = {});
  // Inputs, then optionally every output; reduces over `axis` (nullopt: all axes).
  std::vector<ndarray> call(const std::vector<operand>& args, const std::optional<std::vector<int>>& axis = std::nullopt,
                            bool keepdims = false) const;
  template <class... Args> ndarray operator()(const Args&... args) const {
    std::vector<ndarray> out = call(std::vector<operand>{operand(args)...});
    return out.empty() ? ndarray() : out.front();
  }
  const std::string& name() const;
  int nin() const;
  int nout() const;

 private:
  std::shared_ptr<const api::ReductionKernelDef> def_;
};

// How often kernels for `device` were found in memory, loaded from the disk cache, or
// compiled (user kernels on the CPU; every generated kernel on a GPU).
struct KernelCompileStats {
  std::uint64_t memory_hits = 0, disk_hits = 0, compiles = 0;
};
KernelCompileStats kernel_compile_stats(Device device);

}  // namespace copper
