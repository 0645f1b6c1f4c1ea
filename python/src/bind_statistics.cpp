// Python bindings for numpy's statistics that are not plain reductions: average, cov,
// corrcoef (and the order statistics, bind_order_statistics.cpp), with NumPy's signatures.
#include <Python.h>

#include <cmath>

#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

void bind_statistics(nb::module_& m) {
  m.def(
      "average",
      [](nb::handle a, nb::handle axis, nb::handle weights, bool returned, bool keepdims) -> nb::object {
        ndarray arr = array_arg(a);
        Axes axes = axes_arg(axis, arr.ndim());
        std::optional<ndarray> w = optional_array_arg(weights, arr.device());
        if (!returned) return nb::cast(copper::average(arr, axes, w, keepdims));
        auto [avg, scale] = copper::average_returned(arr, axes, w, keepdims);
        return nb::make_tuple(avg, scale);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("weights") = nb::none(), nb::arg("returned") = false,
      nb::kw_only(), nb::arg("keepdims") = false);

  m.def(
      "cov",
      [](nb::handle m_, nb::handle y, bool rowvar, bool bias, nb::handle ddof, nb::handle fweights,
         nb::handle aweights, nb::handle dtype) {
        ndarray x = array_arg(m_);
        CovOptions o;
        o.rowvar = rowvar;
        o.bias = bias;
        if (!ddof.is_none()) {
          const double d = nb::cast<double>(ddof);
          if (d != std::trunc(d)) throw ValueError("ddof must be integer");
          o.ddof = static_cast<int>(d);
        }
        o.fweights = optional_array_arg(fweights, x.device());
        o.aweights = optional_array_arg(aweights, x.device());
        o.dtype = optional_dtype(dtype);
        return copper::cov(x, optional_array_arg(y, x.device()), o);
      },
      nb::arg("m"), nb::arg("y") = nb::none(), nb::arg("rowvar") = true, nb::arg("bias") = false,
      nb::arg("ddof") = nb::none(), nb::arg("fweights") = nb::none(), nb::arg("aweights") = nb::none(),
      nb::kw_only(), nb::arg("dtype") = nb::none());

  m.def(
      "corrcoef",
      [](nb::handle x, nb::handle y, bool rowvar, nb::handle bias, nb::handle ddof, nb::handle dtype) {
        if (!bias.is_none() || !ddof.is_none()) {
          if (PyErr_WarnEx(PyExc_DeprecationWarning, "bias and ddof have no effect and are deprecated", 1) < 0)
            throw nb::python_error();
        }
        ndarray arr = array_arg(x);
        return copper::corrcoef(arr, optional_array_arg(y, arr.device()), rowvar, optional_dtype(dtype));
      },
      nb::arg("x"), nb::arg("y") = nb::none(), nb::arg("rowvar") = true, nb::arg("bias") = nb::none(),
      nb::arg("ddof") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none());
}

}  // namespace copper::python
