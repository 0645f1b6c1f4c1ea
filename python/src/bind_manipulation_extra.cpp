// Python bindings for the editing, stacking, structured-creation, padding and bit-packing
// functions (include/copper/manipulation_editing.hpp, creation_matrices.hpp, padding.hpp,
// bit_packing.hpp), with NumPy's signatures. pad's argument shaping (pad_width forms, the
// callable mode) is python/copper/_padding.py; it calls _pad here.
#include <Python.h>

#include "bindings.h"
#include "copper/bit_packing.hpp"
#include "copper/creation_matrices.hpp"
#include "copper/manipulation_editing.hpp"
#include "copper/padding.hpp"
#include "reduction_args.h"

namespace copper::python {
namespace {

std::optional<int> opt_int(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return nb::cast<int>(obj.attr("__index__")());
}

nb::list to_list(std::vector<ndarray> arrays) {
  nb::list out;
  for (auto& a : arrays) out.append(nb::cast(std::move(a)));
  return out;
}

// A bitorder that is not a string is a TypeError, as in NumPy (CuPy raises ValueError;
// docs/cupy_tests.md lists the two tests that expect it).
std::string bitorder_from_py(nb::handle obj) {
  if (!PyUnicode_Check(obj.ptr()))
    throw TypeError(std::string("bitorder must be str, not ") + Py_TYPE(obj.ptr())->tp_name);
  return nb::cast<std::string>(obj);
}

Slice slice_from_py(nb::handle obj) {
  auto part = [&](const char* name) -> std::optional<std::int64_t> {
    nb::object v = obj.attr(name);
    if (v.is_none()) return std::nullopt;
    return nb::cast<std::int64_t>(v.attr("__index__")());
  };
  return Slice(part("start"), part("stop"), part("step"));
}

bool is_int_like(nb::handle obj) {
  return PyLong_Check(obj.ptr()) || (nb::hasattr(obj, "__index__") && !nb::hasattr(obj, "__len__"));
}

// h/v/dsplit's indices_or_sections: an integer count or a sequence of split points.
template <class Fn>
nb::list split_py(nb::handle ary, nb::handle sections, Fn fn) {
  const ndarray a = array_arg(ary);
  if (is_int_like(sections) && !nb::isinstance<ndarray>(sections))
    return to_list(fn(a, nb::cast<std::int64_t>(sections.attr("__index__")())));
  nb::object flat = numpy().attr("asarray")(sections, "int64").attr("ravel")().attr("tolist")();
  return to_list(fn(a, nb::cast<std::vector<std::int64_t>>(flat)));
}

Block block_from_py(nb::handle obj, const std::string& path) {
  if (PyTuple_Check(obj.ptr()))
    throw TypeError(path + " is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                           "implicit conversion from tuple to ndarray.");
  if (!PyList_Check(obj.ptr())) return Block(array_arg(obj));
  std::vector<Block> items;
  std::size_t i = 0;
  for (nb::handle item : obj) items.push_back(block_from_py(item, path + "[" + std::to_string(i++) + "]"));
  return Block(std::move(items));
}

template <class T, class Convert>
AxisPairs<T> pairs_from_py(nb::handle obj, Convert convert) {
  AxisPairs<T> out;
  for (nb::handle p : obj) {
    nb::sequence s = nb::borrow<nb::sequence>(p);
    out.emplace_back(convert(s[0]), convert(s[1]));
  }
  return out;
}

}  // namespace

void bind_manipulation_extra(nb::module_& m) {
  m.def(
      "append",
      [](nb::handle a, nb::handle values, nb::handle axis) {
        return append(array_arg(a), array_arg(values), opt_int(axis));
      },
      nb::arg("arr"), nb::arg("values"), nb::arg("axis") = nb::none());
  m.def(
      "insert",
      [](nb::handle a, nb::handle obj, nb::handle values, nb::handle axis) {
        if (PySlice_Check(obj.ptr())) return insert(array_arg(a), slice_from_py(obj), array_arg(values), opt_int(axis));
        return insert(array_arg(a), array_arg(obj), array_arg(values), opt_int(axis));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("values"), nb::arg("axis") = nb::none());
  m.def(
      "delete",
      [](nb::handle a, nb::handle obj, nb::handle axis) {
        if (PySlice_Check(obj.ptr())) return delete_(array_arg(a), slice_from_py(obj), opt_int(axis));
        return delete_(array_arg(a), array_arg(obj), opt_int(axis));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("axis") = nb::none());
  m.def(
      "resize", [](nb::handle a, nb::handle shape) { return resize(array_arg(a), shape_from_py(shape)); }, nb::arg("a"),
      nb::arg("new_shape"));
  m.def(
      "trim_zeros",
      [](nb::handle filt, const std::string& trim, nb::handle axis) {
        return trim_zeros(array_arg(filt), trim, opt_int(axis));
      },
      nb::arg("filt"), nb::arg("trim") = "fb", nb::arg("axis") = nb::none());
  m.def(
      "rot90",
      [](nb::handle a, int k, nb::handle axes) {
        return rot90(array_arg(a), k, nb::cast<std::vector<int>>(nb::module_::import_("builtins").attr("list")(axes)));
      },
      nb::arg("m"), nb::arg("k") = 1, nb::arg("axes") = nb::make_tuple(0, 1));
  m.def(
      "rollaxis", [](nb::handle a, int axis, int start) { return rollaxis(array_arg(a), axis, start); }, nb::arg("a"),
      nb::arg("axis"), nb::arg("start") = 0);
  m.def("column_stack", [](nb::handle tup) { return column_stack(arrays_from_py(tup)); }, nb::arg("tup"));
  m.def("dstack", [](nb::handle tup) { return dstack(arrays_from_py(tup)); }, nb::arg("tup"));
  m.def(
      "hsplit",
      [](nb::handle a, nb::handle s) {
        return split_py(a, s, [](const ndarray& x, const auto& v) { return hsplit(x, v); });
      },
      nb::arg("ary"), nb::arg("indices_or_sections"));
  m.def(
      "vsplit",
      [](nb::handle a, nb::handle s) {
        return split_py(a, s, [](const ndarray& x, const auto& v) { return vsplit(x, v); });
      },
      nb::arg("ary"), nb::arg("indices_or_sections"));
  m.def(
      "dsplit",
      [](nb::handle a, nb::handle s) {
        return split_py(a, s, [](const ndarray& x, const auto& v) { return dsplit(x, v); });
      },
      nb::arg("ary"), nb::arg("indices_or_sections"));
  m.def("block", [](nb::handle arrays) { return block(block_from_py(arrays, "arrays")); }, nb::arg("arrays"));
  m.def(
      "tri",
      [](std::int64_t N, nb::handle M, std::int64_t k, nb::handle dtype, nb::handle like, nb::handle device) {
        check_like(like);
        std::optional<std::int64_t> cols;
        if (!M.is_none()) cols = nb::cast<std::int64_t>(M.attr("__index__")());
        return tri(N, cols, k, dtype.is_none() ? float64 : native_dtype_from_py(dtype), device_from_py(device));
      },
      nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(), nb::kw_only(),
      nb::arg("like") = nb::none(), nb::arg("device") = nb::none());
  m.def(
      "diagflat", [](nb::handle v, std::int64_t k) { return diagflat(array_arg(v), k); }, nb::arg("v"),
      nb::arg("k") = 0);
  m.def(
      "vander",
      [](nb::handle x, nb::handle N, bool increasing) {
        std::optional<std::int64_t> n;
        if (!N.is_none()) n = nb::cast<std::int64_t>(N.attr("__index__")());
        return vander(array_arg(x), n, increasing);
      },
      nb::arg("x"), nb::arg("N") = nb::none(), nb::arg("increasing") = false);
  m.def(
      "geomspace",
      [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle dtype, int axis,
         nb::handle device) {
        const Device dev = device.is_none() ? device_of({start, stop}) : device_from_py(device);
        return geomspace(operand_from_py(start, dev), operand_from_py(stop, dev), num, endpoint,
                         optional_native_dtype(dtype), axis, dev);
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
      nb::arg("dtype") = nb::none(), nb::arg("axis") = 0, nb::kw_only(), nb::arg("device") = nb::none());
  // pad's C++ core; python/copper/_padding.py turns NumPy's arguments into per-axis pairs.
  m.def(
      "_pad",
      [](nb::handle a, nb::handle widths, const std::string& mode, nb::handle constant_values, nb::handle end_values,
         nb::handle stat_length, const std::string& reflect_type) {
        PadOptions o;
        auto scalar = [](nb::handle v) { return scalar_from_py(v); };
        auto length = [](nb::handle v) -> std::optional<std::int64_t> {
          if (v.is_none()) return std::nullopt;
          return nb::cast<std::int64_t>(v);
        };
        o.constant_values = pairs_from_py<Scalar>(constant_values, scalar);
        o.end_values = pairs_from_py<Scalar>(end_values, scalar);
        o.stat_length = pairs_from_py<std::optional<std::int64_t>>(stat_length, length);
        o.reflect_type = reflect_type;
        return pad(array_arg(a),
                   pairs_from_py<std::int64_t>(widths, [](nb::handle v) { return nb::cast<std::int64_t>(v); }), mode,
                   o);
      },
      nb::arg("array"), nb::arg("widths"), nb::arg("mode"), nb::arg("constant_values"), nb::arg("end_values"),
      nb::arg("stat_length"), nb::arg("reflect_type"));
  m.def(
      "packbits",
      [](nb::handle a, nb::handle axis, nb::handle bitorder) {
        return packbits(array_arg(a), opt_int(axis), bitorder_from_py(bitorder));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("bitorder") = "big");
  m.def(
      "unpackbits",
      [](nb::handle a, nb::handle axis, nb::handle count, nb::handle bitorder) {
        std::optional<std::int64_t> c;
        if (!count.is_none()) c = nb::cast<std::int64_t>(count.attr("__index__")());
        return unpackbits(array_arg(a), opt_int(axis), c, bitorder_from_py(bitorder));
      },
      nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("count") = nb::none(), nb::arg("bitorder") = "big");
}

}  // namespace copper::python
