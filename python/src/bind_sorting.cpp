// Python bindings for sorting, searching and sets (include/copper/sorting.hpp) with
// NumPy's signatures, plus the ndarray methods sort, argsort, partition, argpartition
// and searchsorted. unique and intersect1d return their optional parts to
// python/copper/_sorting.py, which builds NumPy's tuples and named results.
#include <Python.h>

#include "bindings.h"

namespace copper::python {

namespace {

ndarray array_arg(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<ndarray>(a);
  return array_from_py(a, std::nullopt, default_device());
}

std::optional<int> axis_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  PyObject* i = PyNumber_Index(axis.ptr());
  if (!i) throw nb::python_error();
  return nb::cast<int>(nb::steal(i));
}

std::optional<std::string> kind_arg(nb::handle kind) {
  if (kind.is_none()) return std::nullopt;
  if (!nb::isinstance<nb::str>(kind))
    throw TypeError(std::string("sort kind must be str, not ") + nb::type_name(kind.type()).c_str());
  return nb::cast<std::string>(kind);
}

std::optional<bool> stable_arg(nb::handle stable) {
  if (stable.is_none()) return std::nullopt;
  return PyObject_IsTrue(stable.ptr()) == 1;
}

void check_order(nb::handle order) {
  if (!order.is_none()) throw ValueError("Cannot specify order when the array has no fields.");
}

// kth: an integer or a 1-d sequence of integers (NumPy refuses booleans and floats).
std::vector<std::int64_t> kth_arg(nb::handle kth) {
  if (PyBool_Check(kth.ptr())) throw ValueError("Booleans unacceptable as partition index");
  if (PyIndex_Check(kth.ptr())) {
    PyObject* i = PyNumber_Index(kth.ptr());
    if (!i) throw nb::python_error();
    return {nb::cast<std::int64_t>(nb::steal(i))};
  }
  nb::object arr = numpy().attr("asarray")(nb::isinstance<ndarray>(kth) ? to_numpy(nb::cast<ndarray>(kth)) : nb::borrow(kth));
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind == "b") throw ValueError("Booleans unacceptable as partition index");
  if (kind != "i" && kind != "u") throw TypeError("Partition index must be integer");
  if (nb::cast<int>(arr.attr("ndim")) > 1) throw ValueError("object too deep for desired array");
  std::vector<std::int64_t> out;
  for (nb::handle k : arr.attr("ravel")()) out.push_back(nb::cast<std::int64_t>(nb::int_(k)));
  return out;
}

std::optional<ndarray> sorter_arg(nb::handle sorter) {
  if (sorter.is_none()) return std::nullopt;
  return array_arg(sorter);
}

std::vector<ndarray> lexsort_keys(nb::handle keys) {
  std::vector<ndarray> out;
  if (nb::isinstance<nb::tuple>(keys) || nb::isinstance<nb::list>(keys)) {
    for (nb::handle k : keys) out.push_back(array_arg(k));
    return out;
  }
  // An array: its first axis enumerates the keys.
  const ndarray a = array_arg(keys);
  if (a.ndim() == 0) throw TypeError("need sequence of keys with len > 0 in lexsort");
  for (std::int64_t i = 0; i < a.shape()[0]; ++i) out.push_back(a[i]);
  return out;
}

nb::object optional_py(const std::optional<ndarray>& a) { return a ? nb::cast(*a) : nb::none(); }

}  // namespace

void bind_sorting(nb::module_& m, ArrayClass& cls) {
  m.def(
      "sort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable, bool descending) {
        check_order(order);
        return sort(array_arg(a), axis_arg(axis), kind_arg(kind), stable_arg(stable), descending);
      },
      nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
      nb::arg("stable") = nb::none(), nb::arg("descending") = false);
  m.def(
      "argsort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable, bool descending) {
        check_order(order);
        return argsort(array_arg(a), axis_arg(axis), kind_arg(kind), stable_arg(stable), descending);
      },
      nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
      nb::arg("stable") = nb::none(), nb::arg("descending") = false);
  cls.def(
      "sort",
      [](const ndarray& a, int axis, nb::handle kind, nb::handle order, nb::handle stable) {
        check_order(order);
        sort_inplace(a, axis, kind_arg(kind), stable_arg(stable));
      },
      nb::arg("axis") = -1, nb::arg("kind") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
      nb::arg("stable") = nb::none());
  cls.def(
      "argsort",
      [](const ndarray& a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        check_order(order);
        return argsort(a, axis_arg(axis), kind_arg(kind), stable_arg(stable));
      },
      nb::arg("axis").none() = -1, nb::arg("kind") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
      nb::arg("stable") = nb::none());
  m.def(
      "lexsort", [](nb::handle keys, int axis) { return lexsort(lexsort_keys(keys), axis); }, nb::arg("keys"),
      nb::arg("axis") = -1);

  m.def(
      "partition",
      [](nb::handle a, nb::handle kth, nb::handle axis, const std::string& kind, nb::handle order) {
        check_order(order);
        return partition(array_arg(a), kth_arg(kth), axis_arg(axis), kind);
      },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis").none() = -1, nb::arg("kind") = "introselect", nb::arg("order") = nb::none());
  m.def(
      "argpartition",
      [](nb::handle a, nb::handle kth, nb::handle axis, const std::string& kind, nb::handle order) {
        check_order(order);
        return argpartition(array_arg(a), kth_arg(kth), axis_arg(axis), kind);
      },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis").none() = -1, nb::arg("kind") = "introselect", nb::arg("order") = nb::none());
  cls.def(
      "partition",
      [](const ndarray& a, nb::handle kth, int axis, const std::string& kind, nb::handle order) {
        check_order(order);
        partition_inplace(a, kth_arg(kth), axis, kind);
      },
      nb::arg("kth"), nb::arg("axis") = -1, nb::arg("kind") = "introselect", nb::arg("order") = nb::none());
  cls.def(
      "argpartition",
      [](const ndarray& a, nb::handle kth, nb::handle axis, const std::string& kind, nb::handle order) {
        check_order(order);
        return argpartition(a, kth_arg(kth), axis_arg(axis), kind);
      },
      nb::arg("kth"), nb::arg("axis").none() = -1, nb::arg("kind") = "introselect", nb::arg("order") = nb::none());
  m.def("sort_complex", [](nb::handle a) { return sort_complex(array_arg(a)); }, nb::arg("a"));

  m.def(
      "searchsorted",
      [](nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
        const ndarray arr = array_arg(a);
        return searchsorted(arr, operand_from_py(v, arr.device()), side, sorter_arg(sorter));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("side") = "left", nb::arg("sorter").none() = nb::none());
  cls.def(
      "searchsorted",
      [](const ndarray& a, nb::handle v, const std::string& side, nb::handle sorter) {
        return searchsorted(a, operand_from_py(v, a.device()), side, sorter_arg(sorter));
      },
      nb::arg("v"), nb::arg("side") = "left", nb::arg("sorter").none() = nb::none());
  m.def(
      "digitize",
      [](nb::handle x, nb::handle bins, bool right) {
        const ndarray b = array_arg(bins);
        return digitize(operand_from_py(x, b.device()), b, right);
      },
      nb::arg("x"), nb::arg("bins"), nb::arg("right") = false);

  // (values, indices or None, inverse or None, counts or None); python/copper/_sorting.py
  // shapes NumPy's result.
  m.def(
      "_unique",
      [](nb::handle ar, bool return_index, bool return_inverse, bool return_counts, nb::handle axis, bool equal_nan) {
        const UniqueResult r =
            unique(array_arg(ar), return_index, return_inverse, return_counts, axis_arg(axis), equal_nan);
        return nb::make_tuple(r.values, optional_py(r.indices), optional_py(r.inverse), optional_py(r.counts));
      },
      nb::arg("ar"), nb::arg("return_index"), nb::arg("return_inverse"), nb::arg("return_counts"), nb::arg("axis").none(),
      nb::arg("equal_nan"));
  m.def(
      "_intersect1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool return_indices) {
        const Intersect1dResult r = intersect1d(operand_from_py(ar1, default_device()),
                                                operand_from_py(ar2, default_device()), assume_unique, return_indices);
        return nb::make_tuple(r.values, optional_py(r.indices1), optional_py(r.indices2));
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique"), nb::arg("return_indices"));
  m.def(
      "isin",
      [](nb::handle element, nb::handle test_elements, bool assume_unique, bool invert, nb::handle kind) {
        std::optional<std::string> k;
        if (!kind.is_none()) k = nb::cast<std::string>(nb::str(kind));
        return isin(operand_from_py(element, default_device()), operand_from_py(test_elements, default_device()),
                    assume_unique, invert, k);
      },
      nb::arg("element"), nb::arg("test_elements"), nb::arg("assume_unique") = false, nb::arg("invert") = false,
      nb::kw_only(), nb::arg("kind") = nb::none());
  m.def(
      "union1d",
      [](nb::handle ar1, nb::handle ar2) {
        return union1d(operand_from_py(ar1, default_device()), operand_from_py(ar2, default_device()));
      },
      nb::arg("ar1"), nb::arg("ar2"));
  m.def(
      "setdiff1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
        return setdiff1d(operand_from_py(ar1, default_device()), operand_from_py(ar2, default_device()), assume_unique);
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false);
  m.def(
      "setxor1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
        return setxor1d(operand_from_py(ar1, default_device()), operand_from_py(ar2, default_device()), assume_unique);
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false);
}

}  // namespace copper::python
