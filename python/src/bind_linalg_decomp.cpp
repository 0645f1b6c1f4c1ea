// copper._core._linalg: numpy.linalg's functions (decompositions, solvers, norms). The
// Python module copper.linalg wraps the tuples into NumPy's named result tuples.
#include <cmath>

#include "bindings.h"
#include "copper/linalg.hpp"

namespace copper::python {
namespace {

ndarray as_array(nb::handle x, Device device = default_device()) {
  return nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : array_from_py(x, std::nullopt, device);
}

Device device_of(nb::handle a) {
  return nb::isinstance<ndarray>(a) ? nb::cast<const ndarray&>(a).device() : default_device();
}

linalg::NormOrder order_from_py(nb::handle ord) {
  if (ord.is_none()) return {};
  if (nb::isinstance<nb::str>(ord)) return nb::cast<std::string>(ord);
  const double value = PyFloat_AsDouble(ord.ptr());
  if (value == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw ValueError("Invalid norm order");
  }
  return value;
}

// Runs fn without the GIL: factorizations of big stacks take a while.
template <class F>
auto released(F&& fn) {
  nb::gil_scoped_release release;
  return fn();
}

std::optional<double> optional_double(nb::handle h) {
  if (!h.is_valid() || h.is_none()) return std::nullopt;
  return nb::cast<double>(h);
}

}  // namespace

void bind_linalg_decomp(nb::module_& m) {
  nb::module_ l = m.def_submodule("_linalg", "numpy.linalg (see copper.linalg)");
  l.def(
      "norm",
      [](nb::handle x, nb::handle ord, nb::handle axis, bool keepdims) {
        const ndarray a = as_array(x);
        const auto order = order_from_py(ord);
        const auto axes = axes_from_py(axis);
        return released([&] { return linalg::norm(a, order, axes, keepdims); });
      },
      nb::arg("x"), nb::arg("ord") = nb::none(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
  l.def(
      "cond", [](nb::handle x, nb::handle p) { return linalg::cond(as_array(x), order_from_py(p)); }, nb::arg("x"),
      nb::arg("p") = nb::none());
  l.def("det", [](nb::handle a) {
    const ndarray x = as_array(a);
    return released([&] { return linalg::det(x); });
  });
  l.def("slogdet", [](nb::handle a) {
    auto r = linalg::slogdet(as_array(a));
    return nb::make_tuple(r.sign, r.logabsdet);
  });
  l.def("inv", [](nb::handle a) {
    const ndarray x = as_array(a);
    return released([&] { return linalg::inv(x); });
  });
  l.def("solve", [](nb::handle a, nb::handle b) {
    const Device device = nb::isinstance<ndarray>(a) ? device_of(a) : device_of(b);
    const ndarray x = as_array(a, device), y = as_array(b, device);
    return released([&] { return linalg::solve(x, y); });
  });
  l.def(
      "cholesky", [](nb::handle a, bool upper) { return linalg::cholesky(as_array(a), upper); }, nb::arg("a"),
      nb::arg("upper") = false);
  l.def(
      "eigh",
      [](nb::handle a, const std::string& uplo) {
        const ndarray x = as_array(a);
        auto r = released([&] { return linalg::eigh(x, uplo); });
        return nb::make_tuple(r.eigenvalues, r.eigenvectors);
      },
      nb::arg("a"), nb::arg("UPLO") = "L");
  l.def(
      "eigvalsh", [](nb::handle a, const std::string& uplo) { return linalg::eigvalsh(as_array(a), uplo); },
      nb::arg("a"), nb::arg("UPLO") = "L");
  l.def(
      "svd",
      [](nb::handle a, bool full_matrices, bool compute_uv, bool hermitian) -> nb::object {
        if (!compute_uv) return nb::cast(linalg::svdvals(as_array(a), hermitian));
        const ndarray x = as_array(a);
        auto r = released([&] { return linalg::svd(x, full_matrices, hermitian); });
        return nb::make_tuple(r.U, r.S, r.Vh);
      },
      nb::arg("a"), nb::arg("full_matrices") = true, nb::arg("compute_uv") = true, nb::arg("hermitian") = false);
  l.def(
      "qr",
      [](nb::handle a, const std::string& mode) -> nb::object {
        const ndarray x = as_array(a);
        auto r = released([&] { return linalg::qr(x, mode); });
        if (mode == "r") return nb::cast(r.R);
        return nb::make_tuple(r.Q, r.R);
      },
      nb::arg("a"), nb::arg("mode") = "reduced");
  l.def(
      "lstsq",
      [](nb::handle a, nb::handle b, nb::handle rcond) {
        const Device device = nb::isinstance<ndarray>(a) ? device_of(a) : device_of(b);
        auto r = linalg::lstsq(as_array(a, device), as_array(b, device), optional_double(rcond));
        // The rank as NumPy gives it: a numpy.int32 (LAPACK's integer).
        nb::object rank = nb::module_::import_("numpy").attr("int32")(r.rank);
        return nb::make_tuple(r.x, r.residuals, rank, r.s);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rcond") = nb::none());
  l.def(
      "pinv", [](nb::handle a, double rcond, bool hermitian) { return linalg::pinv(as_array(a), rcond, hermitian); },
      nb::arg("a"), nb::arg("rcond") = 1e-15, nb::arg("hermitian") = false);
  l.def(
      "matrix_rank",
      [](nb::handle a, nb::handle tol, bool hermitian, nb::handle rtol) {
        return linalg::matrix_rank(as_array(a), optional_double(tol), hermitian, optional_double(rtol));
      },
      nb::arg("A"), nb::arg("tol") = nb::none(), nb::arg("hermitian") = false, nb::arg("rtol") = nb::none());
  l.def(
      "matrix_power",
      [](nb::handle a, nb::handle n) {
        if (!PyIndex_Check(n.ptr())) throw TypeError("exponent must be an integer");
        return linalg::matrix_power(as_array(a), nb::cast<std::int64_t>(nb::int_(n)));
      },
      nb::arg("a"), nb::arg("n"));
}

}  // namespace copper::python
