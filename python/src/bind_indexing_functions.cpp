// Python bindings for NumPy's indexing routines (take, put, compress, nonzero, ix_,
// unravel_index, tril_indices, fill_diagonal, ...) with NumPy's signatures, and the
// ndarray methods nonzero, take, put, compress and choose.
#include <Python.h>

#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

namespace {

// Array-likes go to `device` (the indexed array's), copper arrays stay where they are.
ndarray on_device(nb::handle obj, Device device) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<ndarray>(obj);
  return array_from_py(obj, std::nullopt, device);
}
ndarray as_array(nb::handle obj) { return on_device(obj, default_device()); }

// NumPy's index arrays: an empty list indexes as an integer array, not float64.
ndarray index_like(nb::handle obj, Device device) {
  if (!nb::isinstance<ndarray>(obj) && (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) &&
      PySequence_Size(obj.ptr()) == 0)
    return array_from_py(obj, int64, device);
  return on_device(obj, device);
}

IndexMode mode_from_py(nb::handle obj) {
  const std::string m = nb::cast<std::string>(obj);
  if (m == "raise") return IndexMode::raise;
  if (m == "wrap") return IndexMode::wrap;
  if (m == "clip") return IndexMode::clip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap'");
}

std::optional<int> axis_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return nb::cast<int>(axis);
}

// The *_from functions read arr.ndim and arr.shape, as NumPy's do: other objects raise
// AttributeError there.
ndarray array_with_shape(nb::handle obj) {
  if (!nb::isinstance<ndarray>(obj) && !nb::hasattr(obj, "ndim")) {
    PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute 'ndim'", Py_TYPE(obj.ptr())->tp_name);
    throw nb::python_error();
  }
  return as_array(obj);
}

ndarray& target_arg(nb::handle a, const char* fn) {
  if (!nb::isinstance<ndarray>(a)) throw TypeError(std::string(fn) + "() argument 1 must be copper.ndarray");
  return nb::cast<ndarray&>(a);
}

nb::tuple tuple_of(const std::vector<ndarray>& arrays) {
  nb::list out;
  for (const ndarray& a : arrays) out.append(nb::cast(a));
  return nb::tuple(out);
}

Order order_arg(nb::handle order) {
  if (order.is_none()) return Order::C;
  const std::string o = nb::cast<std::string>(order);
  if (o == "C" || o == "c") return Order::C;
  if (o == "F" || o == "f") return Order::F;
  throw ValueError("only 'C' or 'F' order is permitted");
}

// take(out=)'s dtype check as the installed NumPy makes it. NumPy 2.5 casts the result into
// out and warns (DeprecationWarning) where that changes the kind; earlier versions required
// out to convert safely to a's dtype (the wrong direction) and raised TypeError.
void check_take_out(const ndarray& a, nb::handle out) {
  if (out.is_none() || !nb::isinstance<ndarray>(out)) return;
  const DType to = nb::cast<const ndarray&>(out).dtype();
  static const bool numpy_2_5 = [] {
    nb::module_ np = nb::module_::import_("numpy");
    nb::object v = np.attr("lib").attr("NumpyVersion")(np.attr("__version__"));
    const int at_least = PyObject_RichCompareBool(v.ptr(), nb::str("2.5.0").ptr(), Py_GE);
    if (at_least < 0) throw nb::python_error();
    return at_least == 1;
  }();
  if (!numpy_2_5) {
    if (!can_cast(to, a.dtype(), Casting::safe))
      throw TypeError("Cannot cast array data from dtype('" + std::string(name(to)) + "') to dtype('" +
                      std::string(name(a.dtype())) + "') according to the rule 'safe'");
    return;
  }
  if (!can_cast(a.dtype(), to, Casting::same_kind) &&
      PyErr_WarnEx(PyExc_DeprecationWarning,
                   "Implicit casting of output to a different kind is deprecated. In a future version, this will "
                   "result in an error. (Deprecated NumPy 2.5)",
                   1) < 0)
    throw nb::python_error();
}

// take(..., out=o) hands back o itself (NumPy).
nb::object take_py(nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
  ndarray x = as_array(a);
  check_take_out(x, out);
  ndarray r = take(x, index_like(indices, x.device()), axis_arg(axis), mode_from_py(mode),
                   out_arg(out, "output must be an array"));
  if (!out.is_none()) return nb::borrow(out);
  return nb::cast(std::move(r));
}

ndarray compress_py(nb::handle condition, nb::handle a, nb::handle axis, nb::handle out) {
  ndarray x = as_array(a);
  ndarray c = on_device(condition, x.device());
  return compress(c, x, axis_arg(axis), out_arg(out, "output must be an array"));
}

ndarray choose_py(nb::handle a, nb::handle choices, nb::handle out, nb::handle mode) {
  ndarray x = as_array(a);
  return choose(x, arrays_from_py(choices, x.device()), out_arg(out, "output must be an array"), mode_from_py(mode));
}

void put_py(ndarray& a, nb::handle ind, nb::handle v, nb::handle mode) {
  put(a, index_like(ind, a.device()), operand_from_py(v, a.device()), mode_from_py(mode));
}

}  // namespace

void bind_indexing_functions(nb::module_& m, ArrayClass& cls) {
  m.def("take", &take_py, nb::arg("a"), nb::arg("indices"), nb::arg("axis").none() = nb::none(),
        nb::arg("out").none() = nb::none(), nb::arg("mode") = "raise");
  m.def("put", [](nb::handle a, nb::handle ind, nb::handle v, nb::handle mode) { put_py(target_arg(a, "put"), ind, v, mode); },
        nb::arg("a"), nb::arg("ind"), nb::arg("v"), nb::arg("mode") = "raise");
  m.def(
      "take_along_axis",
      [](nb::handle arr, nb::handle indices, nb::handle axis) {
        ndarray x = as_array(arr);
        return take_along_axis(x, on_device(indices, x.device()), axis_arg(axis));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("axis").none() = -1);
  m.def(
      "put_along_axis",
      [](nb::handle arr, nb::handle indices, nb::handle values, nb::handle axis) {
        ndarray& x = target_arg(arr, "put_along_axis");
        put_along_axis(x, on_device(indices, x.device()), operand_from_py(values, x.device()), axis_arg(axis));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("values"), nb::arg("axis").none());
  m.def("compress", &compress_py, nb::arg("condition"), nb::arg("a"), nb::arg("axis").none() = nb::none(),
        nb::arg("out").none() = nb::none());
  m.def(
      "extract",
      [](nb::handle condition, nb::handle arr) {
        ndarray x = as_array(arr);
        return extract(on_device(condition, x.device()), x);
      },
      nb::arg("condition"), nb::arg("arr"));
  m.def(
      "place",
      [](nb::handle arr, nb::handle mask, nb::handle vals) {
        ndarray& x = target_arg(arr, "place");
        place(x, on_device(mask, x.device()), on_device(vals, x.device()));
      },
      nb::arg("arr"), nb::arg("mask"), nb::arg("vals"));
  m.def(
      "putmask",
      [](nb::handle a, nb::handle mask, nb::handle values) {
        ndarray& x = target_arg(a, "putmask");
        // Sequences become arrays of x's dtype, as NumPy converts them; arrays must cast safely.
        const bool typed = nb::isinstance<ndarray>(values) || nb::hasattr(values, "dtype") || is_python_scalar(values);
        putmask(x, on_device(mask, x.device()),
                typed ? operand_from_py(values, x.device()) : operand(array_from_py(values, x.dtype(), x.device())));
      },
      nb::arg("a"), nb::arg("mask"), nb::arg("values"));
  m.def("choose", &choose_py, nb::arg("a"), nb::arg("choices"), nb::arg("out").none() = nb::none(),
        nb::arg("mode") = "raise");
  m.def(
      "select",
      [](nb::handle condlist, nb::handle choicelist, nb::handle default_) {
        if (!is_python_scalar(default_) && !(nb::hasattr(default_, "ndim") && nb::cast<int>(default_.attr("ndim")) == 0))
          throw TypeError("default only accepts scalar values");
        std::vector<ndarray> conds = arrays_from_py(condlist, default_device());
        Device device = conds.empty() ? default_device() : conds[0].device();
        return select(conds, arrays_from_py(choicelist, device), operand_from_py(default_, device));
      },
      nb::arg("condlist"), nb::arg("choicelist"), nb::arg("default") = 0);
  m.def("nonzero", [](nb::handle a) { return tuple_of(nonzero(as_array(a))); }, nb::arg("a"));
  m.def("flatnonzero", [](nb::handle a) { return flatnonzero(as_array(a)); }, nb::arg("a"));
  m.def("argwhere", [](nb::handle a) { return argwhere(as_array(a)); }, nb::arg("a"));
  m.def("ix_", [](nb::args args) {
    std::vector<ndarray> arrays;
    for (nb::handle a : args) arrays.push_back(index_like(a, default_device()));
    return tuple_of(ix_(arrays));
  });
  m.def(
      "indices",
      [](nb::handle dimensions, nb::handle dtype, bool sparse) -> nb::object {
        Shape dims = shape_from_py(dimensions);
        DType t = dtype_from_py(dtype);
        if (sparse) return tuple_of(indices_sparse(dims, t));
        return nb::cast(indices(dims, t));
      },
      nb::arg("dimensions"), nb::arg("dtype") = nb::module_::import_("builtins").attr("int"),
      nb::arg("sparse") = false);
  m.def(
      "unravel_index",
      [](nb::handle idx, nb::handle shape, nb::handle order) {
        return tuple_of(unravel_index(as_array(idx), shape_from_py(shape), order_arg(order)));
      },
      nb::arg("indices"), nb::arg("shape"), nb::arg("order").none() = "C");
  m.def(
      "ravel_multi_index",
      [](nb::handle multi_index, nb::handle dims, nb::handle mode, nb::handle order) {
        std::vector<IndexMode> modes;
        if (PyUnicode_Check(mode.ptr())) modes.push_back(mode_from_py(mode));
        else
          for (nb::handle m : mode) modes.push_back(mode_from_py(m));
        std::vector<ndarray> coords;
        for (nb::handle c : multi_index) coords.push_back(index_like(c, default_device()));
        return ravel_multi_index(coords, shape_from_py(dims), modes, order_arg(order));
      },
      nb::arg("multi_index"), nb::arg("dims"), nb::arg("mode") = "raise", nb::arg("order").none() = "C");
  m.def("diag_indices", [](std::int64_t n, int ndim) { return tuple_of(diag_indices(n, ndim)); }, nb::arg("n"),
        nb::arg("ndim") = 2);
  m.def("diag_indices_from", [](nb::handle arr) { return tuple_of(diag_indices_from(array_with_shape(arr))); },
        nb::arg("arr"));
  m.def(
      "tril_indices",
      [](std::int64_t n, std::int64_t k, std::optional<std::int64_t> mm) { return tuple_of(tril_indices(n, k, mm)); },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none());
  m.def(
      "triu_indices",
      [](std::int64_t n, std::int64_t k, std::optional<std::int64_t> mm) { return tuple_of(triu_indices(n, k, mm)); },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none());
  m.def("tril_indices_from", [](nb::handle arr, std::int64_t k) { return tuple_of(tril_indices_from(array_with_shape(arr), k)); },
        nb::arg("arr"), nb::arg("k") = 0);
  m.def("triu_indices_from", [](nb::handle arr, std::int64_t k) { return tuple_of(triu_indices_from(array_with_shape(arr), k)); },
        nb::arg("arr"), nb::arg("k") = 0);
  m.def(
      "mask_indices",
      [](std::int64_t n, nb::object mask_func, std::int64_t k) {
        auto fn = [&](const ndarray& a, std::int64_t kk) { return as_array(mask_func(a, kk)); };
        return tuple_of(mask_indices(n, fn, k));
      },
      nb::arg("n"), nb::arg("mask_func"), nb::arg("k") = 0);
  m.def(
      "fill_diagonal",
      [](nb::handle a, nb::handle val, bool wrap) {
        ndarray& x = target_arg(a, "fill_diagonal");
        fill_diagonal(x, operand_from_py(val, x.device()), wrap);
      },
      nb::arg("a"), nb::arg("val"), nb::arg("wrap") = false);

  // ---- ndarray methods ----
  cls.def("nonzero", [](const ndarray& a) { return tuple_of(nonzero(a)); });
  cls.def(
      "take",
      [](nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
        return take_py(a, indices, axis, out, mode);
      },
      nb::arg("indices"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),
      nb::arg("mode") = "raise");
  cls.def("put", &put_py, nb::arg("indices"), nb::arg("values"), nb::arg("mode") = "raise");
  cls.def(
      "compress",
      [](const ndarray& a, nb::handle condition, nb::handle axis, nb::handle out) {
        return compress(on_device(condition, a.device()), a, axis_arg(axis), out_arg(out, "output must be an array"));
      },
      nb::arg("condition"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none());
  cls.def(
      "choose",
      [](const ndarray& a, nb::handle choices, nb::handle out, nb::handle mode) {
        return choose(a, arrays_from_py(choices, a.device()), out_arg(out, "output must be an array"), mode_from_py(mode));
      },
      nb::arg("choices"), nb::arg("out").none() = nb::none(), nb::arg("mode") = "raise");
}

}  // namespace copper::python
