// copper._core._ElementwiseKernel / _ReductionKernel: the C++ user kernels; the Python
// classes in copper/_kernels.py shape CuPy's call signatures around them.
#include <nanobind/stl/pair.h>

#include "bindings.h"
#include "copper/kernels.hpp"

namespace copper::python {
namespace {

// Kernel arguments as CuPy takes them: copper arrays, Python and NumPy scalars.
std::vector<operand> kernel_args(const nb::list& args) {
  std::vector<operand> ops;
  ops.reserve(args.size());
  for (nb::handle a : args) {
    if (nb::isinstance<ndarray>(a)) {
      ops.emplace_back(nb::cast<const ndarray&>(a));  // the list keeps the array alive
      continue;
    }
    try {
      ops.emplace_back(scalar_from_py(a));
    } catch (const TypeError&) {
      throw TypeError("Unsupported type " + std::string(nb::str(nb::type_name(a.type())).c_str()) +
                      " (kernel arguments are copper arrays and scalars)");
    }
  }
  return ops;
}

std::vector<std::string> string_list(nb::handle options) {
  std::vector<std::string> out;
  if (options.is_none()) return out;
  if (nb::isinstance<nb::str>(options)) return {nb::cast<std::string>(options)};
  for (nb::handle o : options) out.push_back(nb::cast<std::string>(o));
  return out;
}

}  // namespace

void bind_user_kernels(nb::module_& m) {
  nb::class_<ElementwiseKernel>(m, "_ElementwiseKernel")
      .def("__init__",
           [](ElementwiseKernel* self, const std::string& in_params, const std::string& out_params,
              const std::string& operation, const std::string& name, bool reduce_dims, const std::string& preamble,
              const std::string& loop_prep, const std::string& after_loop, nb::handle options) {
             ElementwiseKernelOptions o;
             o.reduce_dims = reduce_dims;
             o.preamble = preamble;
             o.loop_prep = loop_prep;
             o.after_loop = after_loop;
             o.options = string_list(options);
             new (self) ElementwiseKernel(in_params, out_params, operation, name, o);
           },
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("operation"), nb::arg("name"), nb::arg("reduce_dims"),
           nb::arg("preamble"), nb::arg("loop_prep"), nb::arg("after_loop"), nb::arg("options").none())
      .def("_call",
           [](const ElementwiseKernel& k, const nb::list& args, std::optional<std::int64_t> size) {
             return k.call(kernel_args(args), size);
           },
           nb::arg("args"), nb::arg("size").none())
      .def_prop_ro("nin", &ElementwiseKernel::nin)
      .def_prop_ro("nout", &ElementwiseKernel::nout);

  nb::class_<ReductionKernel>(m, "_ReductionKernel")
      .def("__init__",
           [](ReductionKernel* self, const std::string& in_params, const std::string& out_params,
              const std::string& map_expr, const std::string& reduce_expr, const std::string& post_map_expr,
              std::optional<std::string> identity, const std::string& name, std::optional<std::string> reduce_type,
              bool reduce_dims, const std::string& preamble, nb::handle options) {
             ReductionKernelOptions o;
             o.reduce_type = std::move(reduce_type);
             o.reduce_dims = reduce_dims;
             o.preamble = preamble;
             o.options = string_list(options);
             new (self) ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, o);
           },
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("map_expr"), nb::arg("reduce_expr"),
           nb::arg("post_map_expr"), nb::arg("identity").none(), nb::arg("name"), nb::arg("reduce_type").none(),
           nb::arg("reduce_dims"), nb::arg("preamble"), nb::arg("options").none())
      .def("_call",
           [](const ReductionKernel& k, const nb::list& args, std::optional<std::vector<int>> axis, bool keepdims) {
             return k.call(kernel_args(args), axis, keepdims);
           },
           nb::arg("args"), nb::arg("axis").none(), nb::arg("keepdims"))
      .def_prop_ro("nin", &ReductionKernel::nin)
      .def_prop_ro("nout", &ReductionKernel::nout);

  m.def(
      "_kernel_compile_stats",
      [](nb::handle device) {
        const KernelCompileStats s = kernel_compile_stats(device_from_py(device));
        nb::dict d;
        d["memory_hits"] = s.memory_hits;
        d["disk_hits"] = s.disk_hits;
        d["compiles"] = s.compiles;
        return d;
      },
      nb::arg("device").none() = nb::none(),
      "How often kernels for `device` came from memory, from the disk cache, or were compiled.");
}

}  // namespace copper::python
