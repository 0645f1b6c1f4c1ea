// Front end of user kernels (include/copper/kernels.hpp): parameter strings, CuPy's type
// rules, and the hand-off to a backend.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backend/user_kernel_job.h"
#include "copper/kernels.hpp"

namespace copper::api {

struct KernelParam {
  std::string name;
  std::optional<DType> dtype;  // typed ("float32 x"); else a placeholder
  std::string placeholder;     // "T"
  std::string ctype;           // the spelling in kernel code: the placeholder or "float", ...
  bool raw = false;
  bool is_const = true;
};

// "T x, raw T y, float32 z" -> parameters (ValueError/TypeError for malformed text).
std::vector<KernelParam> parse_kernel_params(const std::string& text, bool is_const);
// A dtype named in kernel code: NumPy's names and aliases ("float32", "f4", "float" = float64).
std::optional<DType> kernel_dtype_from_name(const std::string& name);
// ValueError 'Invalid kernel name: "..."' unless a C identifier.
void check_kernel_name(const std::string& name);
// "#define NAME VALUE" lines from -D options (NVRTC's and the host compiler's spelling).
std::string defines_from_options(const std::vector<std::string>& options);

struct ResolvedTypes {
  std::vector<DType> in, out;
  backend::UserTypedefs typedefs;
};
// CuPy's rules: outputs (when given) fix placeholders first, then array inputs (raw ones
// too); a typed parameter's array must have exactly that dtype and one placeholder one
// dtype (TypeError "Type is mismatched. ..."). Scalars take the resolved types; a
// placeholder only scalars name takes the first such scalar's dtype.
ResolvedTypes resolve_param_types(const std::vector<KernelParam>& in_params, const std::vector<KernelParam>& out_params,
                                  const std::vector<operand>& in_args, const std::vector<const ndarray*>& out_args);

// One argument as the backend sees it; `array` views broadcast to `loop_shape`.
backend::UserKernelArg make_kernel_arg(const KernelParam& p, const operand& v, DType t, const Shape& loop_shape);

// A call's array arguments: outputs, when given, must be arrays (TypeError); the device
// is the one every array argument is on.
struct CallArrays {
  bool outs_given = false;
  std::vector<const ndarray*> outs;  // the given outputs
  Device device;
};
CallArrays call_arrays(const std::vector<operand>& args, std::size_t nin, std::size_t nout);
// The outputs: the given ones (non-raw ones must have `shape`: "Out shape is mismatched"),
// or new arrays of `shape` and the resolved dtypes. A raw output is allocated only when
// raw_shape_known (ElementwiseKernel's size=), else "Output array size is Undecided".
std::vector<ndarray> make_outputs(const std::vector<KernelParam>& params, const CallArrays& call, const Shape& shape,
                                  const std::vector<DType>& dtypes, bool raw_shape_known);

struct ElementwiseKernelDef {
  std::vector<KernelParam> in, out;
  backend::UserKernelCode code;
};
struct ReductionKernelDef {
  std::vector<KernelParam> in, out;
  backend::UserKernelCode code;
};

std::vector<ndarray> call_elementwise(const ElementwiseKernelDef& def, const std::vector<operand>& args,
                                      std::optional<std::int64_t> size);
std::vector<ndarray> call_reduction(const ReductionKernelDef& def, const std::vector<operand>& args,
                                    const std::optional<std::vector<int>>& axis, bool keepdims);

// The backend of `device` runs the job.
void run_user_elementwise(Device device, const backend::UserElementwiseJob& job);
void run_user_reduction(Device device, const backend::UserReductionJob& job);

}  // namespace copper::api
