// Python bindings for the order statistics: median, quantile, percentile and their nan
// forms, with NumPy 2's signatures. q as a Python int or float is "weak" (NumPy's
// weak_q: a float input keeps its dtype); anything else becomes an array.
#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

namespace {

operand q_arg(nb::handle q, Device device) {
  if (PyFloat_CheckExact(q.ptr()) || PyLong_CheckExact(q.ptr())) return scalar_from_py(q);
  if (nb::isinstance<ndarray>(q)) return nb::cast<ndarray>(q);
  return array_from_py(q, std::nullopt, device);
}

using QuantileFn = ndarray (*)(const ndarray&, const operand&, const Axes&, const QuantileOptions&);
using MedianFn = ndarray (*)(const ndarray&, const Axes&, const std::optional<ndarray>&, bool, bool);

void def_quantile(nb::module_& m, const char* name, QuantileFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle q, nb::handle axis, nb::handle out, bool overwrite_input, nb::handle method,
           bool keepdims, nb::handle weights) {
        ndarray arr = array_arg(a);
        QuantileOptions o;
        o.method = quantile_method_from_name(nb::cast<std::string>(nb::str(method)));
        o.out = out_arg(out);
        o.overwrite_input = overwrite_input;
        o.keepdims = keepdims;
        o.weights = optional_array_arg(weights, arr.device());
        return fn(arr, q_arg(q, arr.device()), axes_arg(axis, arr.ndim()), o);
      },
      nb::arg("a"), nb::arg("q"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("overwrite_input") = false, nb::arg("method") = "linear", nb::arg("keepdims") = false, nb::kw_only(),
      nb::arg("weights") = nb::none());
}

void def_median(nb::module_& m, const char* name, MedianFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle out, bool overwrite_input, bool keepdims) {
        ndarray arr = array_arg(a);
        return fn(arr, axes_arg(axis, arr.ndim()), out_arg(out), overwrite_input, keepdims);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("overwrite_input") = false,
      nb::arg("keepdims") = false);
}

}  // namespace

void bind_order_statistics(nb::module_& m) {
  def_median(m, "median", &copper::median);
  def_median(m, "nanmedian", &copper::nanmedian);
  def_quantile(m, "quantile", &copper::quantile);
  def_quantile(m, "percentile", &copper::percentile);
  def_quantile(m, "nanquantile", &copper::nanquantile);
  def_quantile(m, "nanpercentile", &copper::nanpercentile);
}

}  // namespace copper::python
