// The array API standard's functions that copper adds under the standard's names and
// signatures (include/copper/array_api.hpp); the namespace object itself is the copper
// package (python/copper/_array_api.py).
#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {
namespace {

ndarray to_array(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<ndarray>(a);
  return array_from_py(a, std::nullopt, default_device());
}

std::optional<int> optional_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return nb::cast<int>(axis.attr("__index__")());
}

nb::tuple as_tuple(const std::vector<ndarray>& arrays) {
  nb::list out;
  for (const ndarray& a : arrays) out.append(nb::cast(a));
  return nb::tuple(out);
}

// out= of cumulative_sum/prod: the result written there (same shape; cast unsafely, as NumPy's
// accumulate writes its out).
nb::object scan_out(ndarray result, nb::handle out) {
  const std::optional<ndarray> out_array = out_arg(out);
  if (!out_array) return nb::cast(std::move(result));
  const ndarray& o = *out_array;
  if (o.shape() != result.shape())
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_str(o.shape()) + "->" + shape_str(o.shape()) + " " + shape_str(result.shape()) + "->" +
                     shape_str(result.shape()));
  copyto(o, result, Casting::unsafe);
  return nb::borrow(out);
}

}  // namespace

void bind_array_api(nb::module_& m) {
  m.def(
      "cumulative_sum",
      [](const ndarray& x, nb::handle axis, nb::handle dtype, nb::handle out, bool include_initial) {
        return scan_out(cumulative_sum(x, optional_axis(axis), optional_dtype(dtype), include_initial), out);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none(), nb::arg("include_initial") = false);
  m.def(
      "cumulative_prod",
      [](const ndarray& x, nb::handle axis, nb::handle dtype, nb::handle out, bool include_initial) {
        return scan_out(cumulative_prod(x, optional_axis(axis), optional_dtype(dtype), include_initial), out);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none(), nb::arg("include_initial") = false);
  m.def("matrix_transpose", &matrix_transpose, nb::arg("x"));
  m.def("vecdot", &vecdot, nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1);
  m.def(
      "unstack", [](const ndarray& x, int axis) { return as_tuple(unstack(x, axis)); }, nb::arg("x"), nb::kw_only(),
      nb::arg("axis") = 0);
  m.def(
      "diff",
      [](nb::handle a, int n, int axis, nb::handle prepend, nb::handle append) {
        auto optional_array = [](nb::handle v) -> std::optional<ndarray> {
          if (v.is_none()) return std::nullopt;
          return to_array(v);
        };
        return diff(to_array(a), n, axis, optional_array(prepend), optional_array(append));
      },
      nb::arg("a"), nb::arg("n") = 1, nb::arg("axis") = -1, nb::arg("prepend") = nb::none(),
      nb::arg("append") = nb::none());
  m.def(
      "meshgrid",
      [](nb::args xi, bool copy, bool sparse, const std::string& indexing) {
        std::vector<ndarray> in;
        for (nb::handle x : xi) in.push_back(to_array(x));
        return as_tuple(meshgrid(in, indexing, sparse, copy));  // a tuple, as NumPy 2 and CuPy 14 give
      },
      nb::arg("xi"), nb::kw_only(), nb::arg("copy") = true, nb::arg("sparse") = false, nb::arg("indexing") = "xy");
  m.def("_isdtype_kind", [](nb::handle dtype, const std::string& kind) { return isdtype(dtype_from_py(dtype), kind); });
  m.def(
      "_vector_norm",
      [](const ndarray& x, nb::handle axis, bool keepdims, double ord) {
        std::optional<std::vector<int>> axes = axes_from_py(axis);
        return linalg::vector_norm(x, axes ? Axes(*axes) : Axes(), keepdims, ord);
      },
      nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"), nb::arg("ord"));
}

}  // namespace copper::python
