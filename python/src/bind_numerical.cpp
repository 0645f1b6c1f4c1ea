// Python bindings for the numerical routines, window functions, legacy polynomials
// (top level) and numpy.linalg's eig/eigvals/multi_dot/tensorinv/tensorsolve (in
// copper._core._linalg), with NumPy's signatures. polyfit's optional outputs and
// RankWarning are shaped in python/copper/_numerical.py.
#include <Python.h>

#include "bindings.h"
#include "copper/linalg_extra.hpp"
#include "copper/numerical.hpp"
#include "copper/polynomial.hpp"
#include "copper/windows.hpp"
#include "reduction_args.h"

namespace copper::python {
namespace {

std::optional<Scalar> opt_scalar(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return scalar_from_py(obj);
}

// convolve/correlate's mode: a name, or NumPy's integer codes 0 (valid), 1 (same), 2 (full).
std::string mode_from_py(nb::handle mode) {
  if (PyUnicode_Check(mode.ptr())) return nb::cast<std::string>(mode);
  const std::int64_t code = nb::cast<std::int64_t>(mode.attr("__index__")());
  if (code < 0 || code > 2) throw ValueError("integer convolve/correlate mode must be 0, 1, or 2");
  static const char* names[] = {"valid", "same", "full"};
  return names[code];
}

nb::object one_or_tuple(std::vector<ndarray> arrays) {
  if (arrays.size() == 1) return nb::cast(std::move(arrays[0]));
  nb::list out;
  for (auto& a : arrays) out.append(nb::cast(std::move(a)));
  return nb::tuple(out);
}

}  // namespace

void bind_numerical(nb::module_& m) {
  m.def(
      "ediff1d",
      [](nb::handle ary, nb::handle to_end, nb::handle to_begin) {
        return ediff1d(array_arg(ary), optional_array_arg(to_end), optional_array_arg(to_begin));
      },
      nb::arg("ary"), nb::arg("to_end") = nb::none(), nb::arg("to_begin") = nb::none());
  m.def(
      "gradient",
      [](nb::handle f, nb::args varargs, nb::handle axis, int edge_order) {
        std::vector<Spacing> spacing;  // Python numbers stay weak, as in NumPy's arithmetic
        for (nb::handle v : varargs)
          spacing.push_back(is_python_scalar(v) ? Spacing(scalar_from_py(v)) : Spacing(array_arg(v)));
        return one_or_tuple(gradient(array_arg(f), spacing, axes_from_py(axis), edge_order));
      },
      nb::arg("f"), nb::arg("varargs"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("edge_order") = 1);
  m.def(
      "convolve",
      [](nb::handle a, nb::handle v, nb::handle mode) {
        return convolve(array_arg(a), array_arg(v), mode_from_py(mode));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("mode") = "full");
  m.def(
      "correlate",
      [](nb::handle a, nb::handle v, nb::handle mode) {
        return correlate(array_arg(a), array_arg(v), mode_from_py(mode));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("mode") = "valid");
  m.def(
      "interp",
      [](nb::handle x, nb::handle xp, nb::handle fp, nb::handle left, nb::handle right, nb::handle period) {
        std::optional<double> per;
        if (!period.is_none()) per = nb::cast<double>(nb::float_(period));
        return interp(array_arg(x), array_arg(xp), array_arg(fp), opt_scalar(left), opt_scalar(right), per);
      },
      nb::arg("x"), nb::arg("xp"), nb::arg("fp"), nb::arg("left") = nb::none(), nb::arg("right") = nb::none(),
      nb::arg("period") = nb::none());
  m.def(
      "trapezoid",
      [](nb::handle y, nb::handle x, nb::handle dx, int axis) {
        return trapezoid(array_arg(y), optional_array_arg(x), scalar_from_py(dx), axis);
      },
      nb::arg("y"), nb::arg("x") = nb::none(), nb::arg("dx") = 1.0, nb::arg("axis") = -1);
  m.def(
      "unwrap",
      [](nb::handle p, nb::handle discont, int axis, nb::handle period) {
        return unwrap(array_arg(p), opt_scalar(discont), axis, scalar_from_py(period));
      },
      nb::arg("p"), nb::arg("discont") = nb::none(), nb::arg("axis") = -1, nb::kw_only(),
      nb::arg("period") = 6.283185307179586);
  m.def("_matvec", [](nb::handle a, nb::handle b) { return matvec(array_arg(a), array_arg(b)); });
  m.def("_vecmat", [](nb::handle a, nb::handle b) { return vecmat(array_arg(a), array_arg(b)); });
  // Windows: NumPy takes any number for M (int(M) points, empty below 1).
  auto window = [&](const char* name, ndarray (*fn)(std::int64_t, Device)) {
    m.def(
        name,
        [fn](nb::handle M, nb::handle device) {
          const double v = nb::cast<double>(nb::float_(M));
          return fn(v < 1 ? 0 : static_cast<std::int64_t>(v), device_from_py(device));
        },
        nb::arg("M"), nb::kw_only(), nb::arg("device") = nb::none());
  };
  window("bartlett", &bartlett);
  window("blackman", &blackman);
  window("hamming", &hamming);
  window("hanning", &hanning);
  m.def(
      "kaiser",
      [](nb::handle M, double beta, nb::handle device) {
        const double v = nb::cast<double>(nb::float_(M));
        return kaiser(v < 1 ? 0 : static_cast<std::int64_t>(v), beta, device_from_py(device));
      },
      nb::arg("M"), nb::arg("beta"), nb::kw_only(), nb::arg("device") = nb::none());
  // ---- polynomials ----
  m.def(
      "poly",
      [](nb::handle seq) -> nb::object {
        ndarray r = poly(array_arg(seq));
        if (r.ndim() == 0) return nb::float_(1.0);  // NumPy returns the Python float 1.0
        return nb::cast(std::move(r));
      },
      nb::arg("seq_of_zeros"));
  m.def(
      "polyadd", [](nb::handle a, nb::handle b) { return polyadd(array_arg(a), array_arg(b)); }, nb::arg("a1"),
      nb::arg("a2"));
  m.def(
      "polysub", [](nb::handle a, nb::handle b) { return polysub(array_arg(a), array_arg(b)); }, nb::arg("a1"),
      nb::arg("a2"));
  m.def(
      "polymul", [](nb::handle a, nb::handle b) { return polymul(array_arg(a), array_arg(b)); }, nb::arg("a1"),
      nb::arg("a2"));
  m.def(
      "polyder", [](nb::handle p, nb::handle mm) { return polyder(array_arg(p), nb::cast<int>(nb::int_(mm))); },
      nb::arg("p"), nb::arg("m") = 1);
  m.def(
      "polyint",
      [](nb::handle p, nb::handle mm, nb::handle k) {
        return polyint(array_arg(p), nb::cast<int>(nb::int_(mm)), optional_array_arg(k));
      },
      nb::arg("p"), nb::arg("m") = 1, nb::arg("k") = nb::none());
  m.def(
      "polyval", [](nb::handle p, nb::handle x) { return polyval(array_arg(p), array_arg(x)); }, nb::arg("p"),
      nb::arg("x"));
  m.def(
      "polydiv",
      [](nb::handle u, nb::handle v) {
        auto [q, r] = polydiv(array_arg(u), array_arg(v));
        return nb::make_tuple(q, r);
      },
      nb::arg("u"), nb::arg("v"));
  m.def(
      "roots", [](nb::handle p) { return roots(array_arg(p)); }, nb::arg("p"));
  m.def(
      "_polyfit",
      [](nb::handle x, nb::handle y, std::int64_t deg, nb::handle rcond, nb::handle w, const std::string& cov) {
        std::optional<double> rc;
        if (!rcond.is_none()) rc = nb::cast<double>(nb::float_(rcond));
        PolyfitResult r = polyfit(array_arg(x), array_arg(y), deg, rc, optional_array_arg(w), cov);
        nb::object covariance = r.covariance.valid() ? nb::cast(r.covariance) : nb::none();
        return nb::make_tuple(r.coefficients, r.residuals, r.rank, r.singular_values, r.rcond, covariance);
      },
      nb::arg("x"), nb::arg("y"), nb::arg("deg"), nb::arg("rcond").none(), nb::arg("w").none(), nb::arg("cov"));
  // ---- numpy.linalg ----
  nb::module_ l = nb::borrow<nb::module_>(m.attr("_linalg"));
  l.def(
      "eig",
      [](nb::handle a) {
        linalg::EigResult r = linalg::eig(array_arg(a));
        return nb::make_tuple(r.eigenvalues, r.eigenvectors);
      },
      nb::arg("a"));
  l.def(
      "eigvals", [](nb::handle a) { return linalg::eigvals(array_arg(a)); }, nb::arg("a"));
  l.def(
      "multi_dot",
      [](nb::handle arrays, nb::handle out) {
        std::vector<ndarray> in;
        for (nb::handle a : arrays) in.push_back(array_arg(a));
        std::optional<ndarray> o;
        if (!out.is_none()) o = nb::cast<ndarray>(out);
        return linalg::multi_dot(in, o);
      },
      nb::arg("arrays"), nb::kw_only(), nb::arg("out") = nb::none());
  l.def(
      "tensorinv", [](nb::handle a, int ind) { return linalg::tensorinv(array_arg(a), ind); }, nb::arg("a"),
      nb::arg("ind") = 2);
  l.def(
      "tensorsolve",
      [](nb::handle a, nb::handle b, nb::handle axes) {
        return linalg::tensorsolve(array_arg(a), array_arg(b), axes_from_py(axes));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axes") = nb::none());
}

}  // namespace copper::python
