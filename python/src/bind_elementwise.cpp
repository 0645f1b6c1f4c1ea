// Python bindings for NumPy's non-ufunc elementwise functions (include/copper/elementwise.hpp):
// sinc, i0, fix, nan_to_num, real_if_close, isneginf/isposinf, iscomplex/isreal,
// iscomplexobj/isrealobj, isclose, allclose, array_equal, array_equiv.
#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

namespace {

// The dtype NumPy's iscomplexobj looks at: x.dtype when x has one, else numpy.asarray(x)'s.
DType dtype_of(nb::handle x) {
  if (nb::isinstance<ndarray>(x)) return nb::cast<const ndarray&>(x).dtype();
  if (nb::hasattr(x, "dtype")) return dtype_from_py(x.attr("dtype"));
  return dtype_from_py(numpy().attr("asarray")(x).attr("dtype"));
}

}  // namespace

void bind_elementwise(nb::module_& m) {
  m.def("sinc", [](nb::handle x) { return sinc(operand_from_py(x, device_of({x}))); }, nb::arg("x"));
  m.def("i0", [](nb::handle x) { return i0(operand_from_py(x, device_of({x}))); }, nb::arg("x"));
  m.def(
      "fix", [](nb::handle x, nb::handle out) {
        return with_out(fix(operand_from_py(x, device_of({x, out})), out_arg(out)), out);
      },
      nb::arg("x"), nb::arg("out") = nb::none());
  m.def(
      "nan_to_num",
      [](nb::handle x, bool copy, nb::handle nan, nb::handle posinf, nb::handle neginf) {
        // The replacements may be scalars or arrays (broadcast to x's shape).
        const Device device = device_of({x});
        auto replacement = [&](nb::handle v) {
          return v.is_none() ? std::nullopt : std::optional<operand>(operand_from_py(v, device));
        };
        ndarray r = nan_to_num(operand_from_py(x, device), copy, operand_from_py(nan, device), replacement(posinf),
                               replacement(neginf));
        // copy=False on a copper array works in place and hands back the array itself (NumPy).
        if (!copy && nb::isinstance<ndarray>(x)) return nb::borrow(x);
        return nb::cast(std::move(r));
      },
      nb::arg("x"), nb::arg("copy") = true, nb::arg("nan") = 0.0, nb::arg("posinf") = nb::none(),
      nb::arg("neginf") = nb::none());
  m.def(
      "real_if_close", [](nb::handle a, double tol) { return real_if_close(operand_from_py(a, device_of({a})), tol); },
      nb::arg("a"), nb::arg("tol") = 100);
  m.def(
      "isneginf", [](nb::handle x, nb::handle out) {
        return with_out(isneginf(operand_from_py(x, device_of({x, out})), out_arg(out)), out);
      },
      nb::arg("x"), nb::arg("out") = nb::none());
  m.def(
      "isposinf", [](nb::handle x, nb::handle out) {
        return with_out(isposinf(operand_from_py(x, device_of({x, out})), out_arg(out)), out);
      },
      nb::arg("x"), nb::arg("out") = nb::none());
  m.def("iscomplex", [](nb::handle x) { return iscomplex(operand_from_py(x, device_of({x}))); }, nb::arg("x"));
  m.def("isreal", [](nb::handle x) { return isreal(operand_from_py(x, device_of({x}))); }, nb::arg("x"));
  m.def("iscomplexobj", [](nb::handle x) { return is_complex(dtype_of(x)); }, nb::arg("x"));
  m.def("isrealobj", [](nb::handle x) { return !is_complex(dtype_of(x)); }, nb::arg("x"));
  auto closeness_args = [](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol) {
    const Device d = device_of({a, b, rtol, atol});
    return std::array<operand, 4>{operand_from_py(a, d), operand_from_py(b, d), operand_from_py(rtol, d),
                                  operand_from_py(atol, d)};
  };
  m.def(
      "isclose",
      [closeness_args](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
        auto x = closeness_args(a, b, rtol, atol);
        return isclose(x[0], x[1], x[2], x[3], equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false);
  m.def(
      "allclose",
      [closeness_args](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
        auto x = closeness_args(a, b, rtol, atol);
        return allclose(x[0], x[1], x[2], x[3], equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false);
  m.def(
      "array_equal",
      [](nb::handle a1, nb::handle a2, bool equal_nan) {
        const Device d = device_of({a1, a2});
        return array_equal(operand_from_py(a1, d), operand_from_py(a2, d), equal_nan);
      },
      nb::arg("a1"), nb::arg("a2"), nb::arg("equal_nan") = false);
  m.def(
      "array_equiv",
      [](nb::handle a1, nb::handle a2) {
        const Device d = device_of({a1, a2});
        return array_equiv(operand_from_py(a1, d), operand_from_py(a2, d));
      },
      nb::arg("a1"), nb::arg("a2"));
}

}  // namespace copper::python
