// Python bindings for reductions, statistics and scans: module functions with
// NumPy's signatures and the matching ndarray methods. Results are copper arrays
// (0-d for full reductions, as CuPy's); count_nonzero(axis=None) too.
#include <Python.h>

#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

namespace {

ReduceOptions options(nb::handle dtype, nb::handle out, bool keepdims, double ddof = 0) {
  ReduceOptions o;
  o.dtype = optional_dtype(dtype);
  o.out = out_arg(out);
  o.keepdims = keepdims;
  o.ddof = ddof;
  return o;
}

// NumPy's initial= and where= (either may be absent: nb::handle() stands for not taken).
ReduceOptions with_extras(ReduceOptions o, const ndarray& a, nb::handle initial, nb::handle where) {
  if (initial.is_valid()) set_initial(o, initial);
  if (where.is_valid()) o.where = where_arg(where, a.device());
  return o;
}

using ReduceFn = ndarray (*)(const ndarray&, const Axes&, const ReduceOptions&);
using ArgFn = ndarray (*)(const ndarray&, std::optional<int>, bool, const std::optional<ndarray>&);
using ScanFn = ndarray (*)(const ndarray&, std::optional<int>, std::optional<DType>, const std::optional<ndarray>&);

// sum-like: (a, axis=None, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)
void def_sum_like(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  auto call = [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,
                   nb::handle initial, nb::handle where) {
    return with_out(fn(a, axes_arg(axis, a.ndim()), with_extras(options(dtype, out, keepdims), a, initial, where)), out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims, nb::handle initial,
             nb::handle where) { return call(array_arg(a), axis, dtype, out, keepdims, initial, where); },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("keepdims") = false, nb::arg("initial").none() = no_value(), nb::arg("where").none() = true);
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
             nb::arg("keepdims") = false, nb::arg("initial").none() = no_value(), nb::arg("where").none() = true);
}

// mean-like: (a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)
void def_mean_like(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  auto call = [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,
                   nb::handle where) {
    return with_out(fn(a, axes_arg(axis, a.ndim()), with_extras(options(dtype, out, keepdims), a, {}, where)), out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims, nb::handle where) {
        return call(array_arg(a), axis, dtype, out, keepdims, where);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true);
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
             nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true);
}

// min-like: (a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)
void def_min_like(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  auto call = [fn](const ndarray& a, nb::handle axis, nb::handle out, bool keepdims, nb::handle initial,
                   nb::handle where) {
    return with_out(
        fn(a, axes_arg(axis, a.ndim()), with_extras(options(nb::none(), out, keepdims), a, initial, where)), out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle initial, nb::handle where) {
        return call(array_arg(a), axis, out, keepdims, initial, where);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false,
      nb::arg("initial").none() = no_value(), nb::arg("where").none() = true);
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false,
             nb::arg("initial").none() = no_value(), nb::arg("where").none() = true);
}

// all-like: (a, axis=None, out=None, keepdims=False, *, where=True)
void def_logical(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  auto call = [fn](const ndarray& a, nb::handle axis, nb::handle out, bool keepdims, nb::handle where) {
    return with_out(fn(a, axes_arg(axis, a.ndim()), with_extras(options(nb::none(), out, keepdims), a, {}, where)),
                    out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle where) {
        return call(array_arg(a), axis, out, keepdims, where);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false,
      nb::kw_only(), nb::arg("where").none() = true);
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false,
             nb::kw_only(), nb::arg("where").none() = true);
}

// ptp: (a, axis=None, out=None, keepdims=False)
void def_ptp(nb::module_& m) {
  m.def(
      "ptp",
      [](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
        ndarray arr = array_arg(a);
        return with_out(copper::ptp(arr, axes_arg(axis, arr.ndim()), out_arg(out), keepdims), out);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false);
}

// ddof, or NumPy 2's correction (its array API name): one or the other, never both.
// Floats are taken as they are (NumPy divides by n - ddof for any real ddof).
double ddof_value(nb::handle v) {
  if (PyFloat_Check(v.ptr())) return PyFloat_AsDouble(v.ptr());
  return static_cast<double>(index_from_py(v));
}

double ddof_arg(nb::handle ddof, nb::handle correction) {
  if (correction.is_none()) return ddof.is_none() ? 0 : ddof_value(ddof);
  if (!ddof.is_none() && ddof_value(ddof) != 0)
    throw ValueError("ddof and correction can't be provided simultaneously.");
  return ddof_value(correction);
}

// var-like: (a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
// correction=None)
void def_with_ddof(nb::module_& m, ArrayClass* cls, const char* name, ReduceFn fn) {
  auto call = [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof,
                   bool keepdims, nb::handle where, nb::handle mean, nb::handle correction) {
    ReduceOptions o = with_extras(options(dtype, out, keepdims, ddof_arg(ddof, correction)), a, {}, where);
    o.mean = optional_array_arg(mean, a.device());
    return with_out(fn(a, axes_arg(axis, a.ndim()), o), out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof, bool keepdims,
             nb::handle where, nb::handle mean, nb::handle correction) {
        return call(array_arg(a), axis, dtype, out, ddof, keepdims, where, mean, correction);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
      nb::arg("ddof") = 0, nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true,
      nb::arg("mean") = nb::none(), nb::arg("correction") = nb::none());
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
             nb::arg("ddof") = 0, nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true,
             nb::arg("mean") = nb::none(), nb::arg("correction") = nb::none());
}

// argmin-like: (a, axis=None, out=None, *, keepdims=False)
void def_arg(nb::module_& m, ArrayClass* cls, const char* name, ArgFn fn) {
  // dtype= (keyword-only here) is CuPy's: the index dtype of the result.
  auto call = [fn, name](const ndarray& a, nb::handle axis, nb::handle out, bool keepdims,
                         nb::handle dtype) -> nb::object {
    std::optional<DType> t = optional_dtype(dtype);
    if (!t) return with_out(fn(a, single_axis_arg(axis), keepdims, out_arg(out)), out);
    if (!is_integer(*t)) throw TypeError(std::string(name) + "() dtype= must be an integer dtype");
    ndarray r = fn(a, single_axis_arg(axis), keepdims, std::nullopt).astype(*t, Casting::unsafe, false);
    if (std::optional<ndarray> o = out_arg(out)) copyto(*o, r, Casting::same_kind);
    return with_out(std::move(r), out);
  };
  m.def(
      name,
      [call](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle dtype) {
        return call(array_arg(a), axis, out, keepdims, dtype);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::kw_only(),
      nb::arg("keepdims") = false, nb::arg("dtype") = nb::none());
  if (cls)
    cls->def(name, call, nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(), nb::kw_only(),
             nb::arg("keepdims") = false, nb::arg("dtype") = nb::none());
}

// cumsum-like: (a, axis=None, dtype=None, out=None)
void def_scan(nb::module_& m, ArrayClass* cls, const char* name, ScanFn fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
        return with_out(fn(array_arg(a), single_axis_arg(axis), optional_dtype(dtype), out_arg(out)), out);
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());
  if (cls)
    cls->def(
        name,
        [fn](const ndarray& a, nb::handle axis, nb::handle dtype, nb::handle out) {
          return with_out(fn(a, single_axis_arg(axis), optional_dtype(dtype), out_arg(out)), out);
        },
        nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());
}

}  // namespace

void bind_reductions(nb::module_& m, ArrayClass& cls) {
  def_sum_like(m, &cls, "sum", &copper::sum);
  def_sum_like(m, &cls, "prod", &copper::prod);
  def_sum_like(m, nullptr, "nansum", &copper::nansum);
  def_sum_like(m, nullptr, "nanprod", &copper::nanprod);
  def_mean_like(m, &cls, "mean", &copper::mean);
  def_mean_like(m, nullptr, "nanmean", &copper::nanmean);
  def_with_ddof(m, &cls, "var", &copper::var);
  def_with_ddof(m, &cls, "std", &copper::std);
  def_min_like(m, &cls, "min", &copper::amin);
  def_min_like(m, &cls, "max", &copper::amax);
  def_min_like(m, nullptr, "amin", &copper::amin);
  def_min_like(m, nullptr, "amax", &copper::amax);
  def_min_like(m, nullptr, "nanmin", &copper::nanmin);
  def_min_like(m, nullptr, "nanmax", &copper::nanmax);
  def_logical(m, &cls, "all", &copper::all);
  def_logical(m, &cls, "any", &copper::any);
  def_arg(m, &cls, "argmin", &copper::argmin);
  def_arg(m, &cls, "argmax", &copper::argmax);
  def_scan(m, &cls, "cumsum", &copper::cumsum);
  def_scan(m, &cls, "cumprod", &copper::cumprod);
  // NaN-skipping statistics (module functions only, as NumPy's).
  def_with_ddof(m, nullptr, "nanvar", &copper::nanvar);
  def_with_ddof(m, nullptr, "nanstd", &copper::nanstd);
  def_arg(m, nullptr, "nanargmin", &copper::nanargmin);
  def_arg(m, nullptr, "nanargmax", &copper::nanargmax);
  def_scan(m, nullptr, "nancumsum", &copper::nancumsum);
  def_scan(m, nullptr, "nancumprod", &copper::nancumprod);
  def_ptp(m);
  m.def(
      "count_nonzero",
      [](nb::handle a, nb::handle axis, bool keepdims) -> nb::object {
        ndarray arr = array_arg(a);
        // A full count stays a 0-d array (CuPy and the array API standard; NumPy gives a
        // Python int, which would cost a device synchronization here).
        return nb::cast(copper::count_nonzero(arr, axes_arg(axis, arr.ndim()), keepdims));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::kw_only(), nb::arg("keepdims") = false);
}

}  // namespace copper::python
