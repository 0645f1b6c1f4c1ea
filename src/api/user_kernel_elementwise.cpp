// ElementwiseKernel: argument checks, broadcasting, type resolution and output
// allocation with CuPy's rules and messages, then one backend call.
#include "api/array_factory.h"
#include "api/user_kernel.h"
#include "backend/user_kernel_source.h"
#include "copper/manipulation.hpp"

namespace copper {

namespace api {

std::vector<ndarray> call_elementwise(const ElementwiseKernelDef& def, const std::vector<operand>& args,
                                      std::optional<std::int64_t> size) {
  const std::size_t nin = def.in.size(), nout = def.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw TypeError("Wrong number of arguments for '" + def.code.name + "'. It must be either " + std::to_string(nin) +
                    " or " + std::to_string(nin + nout) + " (with outputs), but given " + std::to_string(args.size()) +
                    ".");
  const CallArrays call = call_arrays(args, nin, nout);

  // The loop shape: non-raw arrays (outputs included) broadcast together, or `size`.
  std::vector<Shape> shapes;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const KernelParam& p = k < nin ? def.in[k] : def.out[k - nin];
    if (args[k].is_array() && !p.raw) shapes.push_back(args[k].array().shape());
  }
  Shape shape;
  if (size) {
    if (!shapes.empty()) throw ValueError("Specified 'size' can be used only if all of the ndarray are 'raw'.");
    if (*size < 0) throw ValueError("size must be non-negative, got " + std::to_string(*size));
    shape = {*size};
  } else {
    if (shapes.empty()) throw ValueError("Loop size is undecided.");
    shape = broadcast_shapes(shapes);
  }
  const std::vector<operand> in_args(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(nin));
  const ResolvedTypes types = resolve_param_types(def.in, def.out, in_args, call.outs);
  std::vector<ndarray> outs = make_outputs(def.out, call, shape, types.out, size.has_value());
  if (shape_size(shape) == 0) return outs;

  backend::UserElementwiseJob job;
  job.code = &def.code;
  job.typedefs = types.typedefs;
  job.shape = shape;
  for (std::size_t k = 0; k < nin; ++k) job.args.push_back(make_kernel_arg(def.in[k], args[k], types.in[k], shape));
  for (std::size_t k = 0; k < nout; ++k) job.args.push_back(make_kernel_arg(def.out[k], outs[k], types.out[k], shape));
  run_user_elementwise(call.device, job);
  return outs;
}

}  // namespace api

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     const std::string& operation, const std::string& name,
                                     const ElementwiseKernelOptions& options) {
  api::check_kernel_name(name);
  auto def = std::make_shared<api::ElementwiseKernelDef>();
  def->in = api::parse_kernel_params(in_params, true);
  def->out = api::parse_kernel_params(out_params, false);
  def->code.id = backend::next_user_kernel_id();
  def->code.name = name;
  def->code.operation = operation;
  def->code.preamble = options.preamble;
  def->code.loop_prep = options.loop_prep;
  def->code.after_loop = options.after_loop;
  def->code.defines = api::defines_from_options(options.options);
  def_ = std::move(def);
}

std::vector<ndarray> ElementwiseKernel::call(const std::vector<operand>& args, std::optional<std::int64_t> size) const {
  return api::call_elementwise(*def_, args, size);
}
const std::string& ElementwiseKernel::name() const { return def_->code.name; }
int ElementwiseKernel::nin() const { return static_cast<int>(def_->in.size()); }
int ElementwiseKernel::nout() const { return static_cast<int>(def_->out.size()); }

}  // namespace copper
