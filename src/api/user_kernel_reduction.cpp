// ReductionKernel: CuPy's argument rules (inputs broadcast together, outputs given or
// allocated with the reduced shape), axis/keepdims as NumPy's, then the reduced axes
// moved last (inputs copied C-contiguous where that makes the rows contiguous) and one
// backend call.
#include <algorithm>
#include <set>

#include "api/array_factory.h"
#include "api/user_kernel.h"
#include "backend/user_kernel_source.h"
#include "copper/manipulation.hpp"

namespace copper {

namespace api {
namespace {

// The reduce_type as C++: C spellings and placeholders verbatim, NumPy names translated.
std::string reduce_type_spelling(const std::string& t) {
  static const std::set<std::string> c_names = {"bool",  "char",      "signed char", "unsigned char", "short",
                                                "int",   "unsigned",  "long",        "long long",     "float",
                                                "double", "float16", "unsigned int", "unsigned short", "unsigned long",
                                                "unsigned long long"};
  if (c_names.count(t) || t.size() <= 1) return t;
  if (auto d = kernel_dtype_from_name(t)) return backend::user_type_name(*d);
  return t;
}

}  // namespace

std::vector<ndarray> call_reduction(const ReductionKernelDef& def, const std::vector<operand>& args,
                                    const std::optional<std::vector<int>>& axis, bool keepdims) {
  const std::size_t nin = def.in.size(), nout = def.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw TypeError("Wrong number of arguments for " + def.code.name + ": it takes " + std::to_string(nin) + " or " +
                    std::to_string(nin + nout) + " (with outputs), but " + std::to_string(args.size()) + " were given");
  const CallArrays call = call_arrays(args, nin, nout);

  std::vector<Shape> shapes;
  bool any_raw = false;
  for (std::size_t k = 0; k < nin; ++k) {
    any_raw = any_raw || def.in[k].raw;
    if (args[k].is_array() && !def.in[k].raw) shapes.push_back(args[k].array().shape());
  }
  for (const auto& p : def.out) any_raw = any_raw || p.raw;
  if (shapes.empty()) throw ValueError("Loop size is undecided.");
  const Shape in_shape = broadcast_shapes(shapes);
  const std::vector<operand> in_args(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(nin));
  const ResolvedTypes types = resolve_param_types(def.in, def.out, in_args, call.outs);

  // Axes: None reduces all; AxisError out of range; ValueError on repeats.
  const int ndim = static_cast<int>(in_shape.size());
  std::vector<bool> reduced(in_shape.size(), !axis.has_value());
  if (axis) {
    for (int a : *axis) {
      const int n = normalize_axis(a, ndim);
      if (reduced[n]) throw ValueError("duplicate value in 'axis'");
      reduced[n] = true;
    }
  }
  Shape kept, red, out_shape;
  std::vector<int> perm;
  for (int d = 0; d < ndim; ++d)
    if (!reduced[d]) {
      kept.push_back(in_shape[d]);
      perm.push_back(d);
    }
  for (int d = 0; d < ndim; ++d)
    if (reduced[d]) {
      red.push_back(in_shape[d]);
      perm.push_back(d);
    }
  for (int d = 0; d < ndim; ++d)
    if (!reduced[d] || keepdims) out_shape.push_back(reduced[d] ? 1 : in_shape[d]);

  std::vector<ndarray> outs = make_outputs(def.out, call, out_shape, types.out, false);
  if (shape_size(out_shape) == 0) return outs;
  if (def.code.identity.empty() && shape_size(in_shape) == 0)
    throw ValueError("zero-size array to reduction operation " + def.code.name + " which has no identity");
  bool permuted = false;
  for (int d = 0; d < ndim; ++d) permuted = permuted || perm[d] != d;
  if (permuted && any_raw)
    throw NotImplementedError("ReductionKernel with raw parameters reduces only trailing axes (as CuPy's)");

  backend::UserReductionJob job;
  job.code = &def.code;
  job.typedefs = types.typedefs;
  job.nin = static_cast<int>(nin);
  job.kept = kept;
  job.reduced = red;
  Shape kept_red = kept;
  kept_red.insert(kept_red.end(), red.begin(), red.end());
  std::vector<ndarray> copies;  // keeps contiguous copies alive through the call
  for (std::size_t k = 0; k < nin; ++k) {
    backend::UserKernelArg a = make_kernel_arg(def.in[k], args[k], types.in[k], in_shape);
    if (a.kind == backend::UserArgKind::array) {
      Strides s(ndim);
      for (int d = 0; d < ndim; ++d) s[d] = a.view.strides[perm[d]];
      a.view.shape = kept_red;
      a.view.strides = s;
      // Rows read with a stride are copied once, C-contiguous (broadcast inputs are not
      // expanded): the kernel then reads every row in order.
      const bool broadcast = std::any_of(s.begin(), s.end(), [](std::int64_t v) { return v == 0; });
      if (!backend::c_contiguous(a.view) && !broadcast) {
        const ndarray& src = args[k].array();
        const std::int64_t offset = static_cast<const char*>(a.view.data) - static_cast<const char*>(src.buffer()->data());
        copies.push_back(src.view_as(src.dtype(), kept_red, s, offset).copy());
        a.view = backend::view_of(copies.back());
      }
    }
    job.args.push_back(std::move(a));
  }
  for (std::size_t k = 0; k < nout; ++k) {
    backend::UserKernelArg a = make_kernel_arg(def.out[k], outs[k], types.out[k], out_shape);
    if (a.kind == backend::UserArgKind::array && keepdims) {
      Shape sh;
      Strides st;
      for (int d = 0; d < ndim; ++d)
        if (!reduced[d]) {
          sh.push_back(a.view.shape[d]);
          st.push_back(a.view.strides[d]);
        }
      a.view.shape = sh;
      a.view.strides = st;
    }
    job.args.push_back(std::move(a));
  }
  run_user_reduction(call.device, job);
  return outs;
}

}  // namespace api

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 const std::string& map_expr, const std::string& reduce_expr,
                                 const std::string& post_map_expr, const std::optional<std::string>& identity,
                                 const std::string& name, const ReductionKernelOptions& options) {
  api::check_kernel_name(name);
  auto def = std::make_shared<api::ReductionKernelDef>();
  def->in = api::parse_kernel_params(in_params, true);
  def->out = api::parse_kernel_params(out_params, false);
  if (def->out.empty() && !options.reduce_type)
    throw ValueError("ReductionKernel needs an output parameter (or a reduce_type)");
  def->code.id = backend::next_user_kernel_id();
  def->code.name = name;
  def->code.map_expr = map_expr;
  def->code.reduce_expr = reduce_expr;
  def->code.post_map_expr = post_map_expr;
  def->code.identity = identity.value_or("");
  def->code.reduce_type = api::reduce_type_spelling(options.reduce_type.value_or(def->out.empty() ? "" : def->out[0].ctype));
  def->code.preamble = options.preamble;
  def->code.defines = api::defines_from_options(options.options);
  def_ = std::move(def);
}

std::vector<ndarray> ReductionKernel::call(const std::vector<operand>& args, const std::optional<std::vector<int>>& axis,
                                           bool keepdims) const {
  return api::call_reduction(*def_, args, axis, keepdims);
}
const std::string& ReductionKernel::name() const { return def_->code.name; }
int ReductionKernel::nin() const { return static_cast<int>(def_->in.size()); }
int ReductionKernel::nout() const { return static_cast<int>(def_->out.size()); }

}  // namespace copper
