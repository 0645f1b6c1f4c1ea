// Python bindings for reductions, statistics and scans: module functions with
// NumPy's signatures and the matching ndarray methods. Results are copper arrays
// (0-d for full reductions, as CuPy's), except count_nonzero(axis=None) -> int.
#include <Python.h>

#include "bindings.h"

namespace copper::python {

namespace {

// operator.index(obj), raising NumPy's TypeError for floats, tuples, ...
int index_from_py(nb::handle obj) {
  PyObject* i = PyNumber_Index(obj.ptr());
  if (!i) throw nb::python_error();
  return nb::cast<int>(nb::steal(i));
}

// A tuple is never the 0-d array's lone "axis 0" that NumPy tolerates for an int.
Axes axes_arg(nb::handle axis, int ndim) {
  if (axis.is_none()) return Axes();
  if (nb::isinstance<nb::tuple>(axis) || nb::isinstance<nb::list>(axis)) {
    std::vector<int> axes;
    for (nb::handle item : axis) axes.push_back(index_from_py(item));
    if (ndim == 0)
      for (int ax : axes) normalize_axis(ax, 0);
    return Axes(std::move(axes));
  }
  return Axes(index_from_py(axis));
}

std::optional<int> single_axis_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return index_from_py(axis);
}

std::optional<ndarray> out_arg(nb::handle out) {
  if (out.is_none()) return std::nullopt;
  if (!nb::isinstance<ndarray>(out)) throw TypeError("out must be a copper.ndarray");
  return nb::cast<ndarray>(out);
}

ndarray array_arg(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<ndarray>(a);
  return array_from_py(a, std::nullopt, default_device());
}

ReduceOptions options(nb::handle dtype, nb::handle out, bool keepdims, int ddof = 0) {
  ReduceOptions o;
  o.dtype = optional_dtype(dtype);
  o.out = out_arg(out);
  o.keepdims = keepdims;
  o.ddof = ddof;
  return o;
}

using ReduceFn = ndarray (*)(const ndarray&, const Axes&, const ReduceOptions&);
using ArgFn = ndarray (*)(const ndarray&, std::optional<int>, bool, const std::optional<ndarray>&);
using ScanFn = ndarray (*)(const ndarray&, std::optional<int>, std::optional<DType>, const std::optional<ndarray>&);

// sum-like: (a, axis=None, dtype=None, out=None, keepdims=False)
void def_with_dtype(nb::module_& m, ArrayClass& cls, const char* name, ReduceFn fn, bool method) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
        ndarray arr = array_arg(a);
        return fn(arr, axes_arg(axis, arr.ndim()), options(dtype, out, keepdims));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("keepdims") = false);
  if (method)
    cls.def(
        name,
        [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
          return fn(a, axes_arg(axis, a.ndim()), options(dtype, out, keepdims));
        },
        nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
        nb::arg("keepdims") = false);
}

// min-like: (a, axis=None, out=None, keepdims=False)
void def_without_dtype(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
        ndarray arr = array_arg(a);
        return fn(arr, axes_arg(axis, arr.ndim()), options(nb::none(), out, keepdims));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false);
  if (cls)
    cls->def(
        name,
        [fn](const ndarray& a, nb::handle axis, nb::handle out, bool keepdims) {
          return fn(a, axes_arg(axis, a.ndim()), options(nb::none(), out, keepdims));
        },
        nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false);
}

// var-like: (a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)
void def_with_ddof(nb::module_& m, ArrayClass& cls, const char* name, ReduceFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, int ddof, bool keepdims) {
        ndarray arr = array_arg(a);
        return fn(arr, axes_arg(axis, arr.ndim()), options(dtype, out, keepdims, ddof));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("ddof") = 0, nb::arg("keepdims") = false);
  cls.def(
      name,
      [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out, int ddof, bool keepdims) {
        return fn(a, axes_arg(axis, a.ndim()), options(dtype, out, keepdims, ddof));
      },
      nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(), nb::arg("ddof") = 0,
      nb::arg("keepdims") = false);
}

// argmin-like: (a, axis=None, out=None, *, keepdims=False)
void def_arg(nb::module_& m, ArrayClass& cls, const char* name, ArgFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
        return fn(array_arg(a), single_axis_arg(axis), keepdims, out_arg(out));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::kw_only(),
      nb::arg("keepdims") = false);
  cls.def(
      name,
      [fn](const ndarray& a, nb::handle axis, nb::handle out, bool keepdims) {
        return fn(a, single_axis_arg(axis), keepdims, out_arg(out));
      },
      nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::kw_only(), nb::arg("keepdims") = false);
}

// cumsum-like: (a, axis=None, dtype=None, out=None)
void def_scan(nb::module_& m, ArrayClass& cls, const char* name, ScanFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
        return fn(array_arg(a), single_axis_arg(axis), optional_dtype(dtype), out_arg(out));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out) {
        return fn(a, single_axis_arg(axis), optional_dtype(dtype), out_arg(out));
      },
      nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());
}

}  // namespace

void bind_reductions(nb::module_& m, ArrayClass& cls) {
  def_with_dtype(m, cls, "sum", &copper::sum, true);
  def_with_dtype(m, cls, "prod", &copper::prod, true);
  def_with_dtype(m, cls, "mean", &copper::mean, true);
  def_with_dtype(m, cls, "nansum", &copper::nansum, false);
  def_with_dtype(m, cls, "nanprod", &copper::nanprod, false);
  def_with_dtype(m, cls, "nanmean", &copper::nanmean, false);
  def_with_ddof(m, cls, "var", &copper::var);
  def_with_ddof(m, cls, "std", &copper::std);
  def_without_dtype(m, &cls, "min", &copper::amin);
  def_without_dtype(m, &cls, "max", &copper::amax);
  def_without_dtype(m, nullptr, "amin", &copper::amin);
  def_without_dtype(m, nullptr, "amax", &copper::amax);
  def_without_dtype(m, nullptr, "nanmin", &copper::nanmin);
  def_without_dtype(m, nullptr, "nanmax", &copper::nanmax);
  def_without_dtype(m, &cls, "all", &copper::all);
  def_without_dtype(m, &cls, "any", &copper::any);
  def_arg(m, cls, "argmin", &copper::argmin);
  def_arg(m, cls, "argmax", &copper::argmax);
  def_scan(m, cls, "cumsum", &copper::cumsum);
  def_scan(m, cls, "cumprod", &copper::cumprod);
  m.def(
      "count_nonzero",
      [](nb::handle a, nb::handle axis, bool keepdims) -> nb::object {
        ndarray arr = array_arg(a);
        ndarray r = copper::count_nonzero(arr, axes_arg(axis, arr.ndim()), keepdims);
        // NumPy gives a plain integer for a full count.
        if (axis.is_none() && !keepdims) return scalar_to_py(r.item());
        return nb::cast(r);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::kw_only(), nb::arg("keepdims") = false);
}

}  // namespace copper::python
