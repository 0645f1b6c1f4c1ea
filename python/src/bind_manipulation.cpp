// Python bindings for shape manipulation, joining and splitting, with NumPy's
// signatures; module functions accept any array-like, methods mirror ndarray's.
#include <Python.h>

#include "api/joining.h"
#include "bindings.h"

namespace copper::python {

namespace {

ndarray as_array(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<const ndarray&>(obj);
  return array_from_py(obj, std::nullopt, default_device());
}

}  // namespace

std::vector<ndarray> arrays_from_py(nb::handle seq, Device device) {
  std::vector<ndarray> out;
  if (nb::isinstance<ndarray>(seq)) {
    const ndarray& a = nb::cast<const ndarray&>(seq);
    if (a.ndim() == 0) throw TypeError("iteration over a 0-d array");
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) out.push_back(a[i]);
    return out;
  }
  for (nb::handle item : seq)
    out.push_back(nb::isinstance<ndarray>(item) ? nb::cast<ndarray>(item) : array_from_py(item, std::nullopt, device));
  return out;
}

namespace {

// An int, a sequence of ints, or an integer array (copper or NumPy) as a list of ints.
std::vector<std::int64_t> ints_from_py(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) return nb::cast<const ndarray&>(obj).astype(int64).to_vector<std::int64_t>();
  if (!nb::hasattr(obj, "__len__") && !nb::hasattr(obj, "__iter__")) return shape_from_py(obj);
  nb::object flat = numpy().attr("asarray")(obj, "int64").attr("ravel")().attr("tolist")();
  return nb::cast<std::vector<std::int64_t>>(flat);
}

// np.repeat's repeats: at most one dimension, safely castable to intp.
std::vector<std::int64_t> repeats_from_py(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) {
    const ndarray& r = nb::cast<const ndarray&>(obj);
    if (r.ndim() > 1) throw ValueError("object too deep for desired array");
    if (!can_cast(r.dtype(), int64, Casting::safe))
      throw TypeError("Cannot cast array data from dtype('" + std::string(name(r.dtype())) +
                      "') to dtype('int64') according to the rule 'safe'");
  } else if (nb::hasattr(obj, "__len__") && nb::cast<int>(numpy().attr("ndim")(obj)) > 1) {
    throw ValueError("object too deep for desired array");
  }
  return ints_from_py(obj);
}

// NumPy lets axis=0 or -1 through for a 0-d array (an int, not a tuple): squeezing nothing.
std::optional<std::vector<int>> squeeze_axes(const ndarray& a, nb::handle axis) {
  if (a.ndim() == 0 && nb::isinstance<nb::int_>(axis)) {
    const int ax = nb::cast<int>(axis);
    if (ax == 0 || ax == -1) return std::vector<int>{};
  }
  return axes_from_py(axis);
}

std::vector<int> axis_list(nb::handle obj) { return axes_from_py(obj).value_or(std::vector<int>{}); }

// newshape given as f(a, 2, 3) or f(a, (2, 3)).
Shape shape_from_args(const nb::args& args) {
  if (args.size() == 1) return shape_from_py(args[0]);
  Shape s;
  for (nb::handle item : args) s.push_back(shape_from_py(item).at(0));
  return s;
}

ndarray reshape_py(const ndarray& a, const Shape& shape, nb::handle order, nb::handle copy) {
  Order o = order_from_py(order, Order::C);
  const std::optional<bool> copy_flag = copy_flag_from_py(copy);
  if (copy_flag == true) return reshape(copper::copy(a, o == Order::K ? Order::C : o), shape, o);
  ndarray r = reshape(a, shape, o);
  if (copy_flag && r.buffer() != a.buffer())
    throw ValueError("Unable to avoid creating a copy while reshaping.");
  return r;
}

api::JoinOptions join_options(nb::handle out, nb::handle dtype, nb::handle casting) {
  api::JoinOptions opts;
  if (!out.is_none()) opts.out = nb::cast<const ndarray&>(out);
  opts.dtype = optional_dtype(dtype);
  opts.casting = casting_from_py(casting);
  return opts;
}

nb::object split_py(nb::handle ary, nb::handle sections, int axis, bool equal) {
  ndarray a = as_array(ary);
  std::vector<ndarray> pieces;
  if (PyLong_Check(sections.ptr()) || (nb::hasattr(sections, "__index__") && !nb::hasattr(sections, "__len__"))) {
    std::int64_t n = nb::cast<std::int64_t>(sections.attr("__index__")());
    if (equal && n == 0) {
      PyErr_SetString(PyExc_ZeroDivisionError, "integer modulo by zero");
      throw nb::python_error();
    }
    pieces = equal ? split(a, n, axis) : array_split(a, n, axis);
  } else {
    pieces = split(a, ints_from_py(sections), axis);
  }
  nb::list out;
  for (auto& p : pieces) out.append(nb::cast(std::move(p)));
  return out;
}

nb::object tuple_or_single(std::vector<ndarray> arrays) {
  if (arrays.size() == 1) return nb::cast(std::move(arrays[0]));
  nb::list out;
  for (auto& a : arrays) out.append(nb::cast(std::move(a)));
  return nb::tuple(out);
}

// NumPy words shape-broadcasting failures of broadcast_shapes/broadcast_arrays by argument.
Shape broadcast_shapes_py(const std::vector<Shape>& shapes) {
  std::size_t nd = 0;
  for (const auto& s : shapes) nd = std::max(nd, s.size());
  for (std::size_t k = 0; k < nd; ++k) {
    int owner = -1;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& s = shapes[i];
      if (k >= s.size()) continue;
      std::int64_t d = s[s.size() - 1 - k];
      if (d == 1) continue;
      if (owner < 0) {
        owner = static_cast<int>(i);
      } else if (shapes[owner][shapes[owner].size() - 1 - k] != d) {
        throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                         std::to_string(owner) + " with shape " + shape_str(shapes[owner]) + " and arg " +
                         std::to_string(i) + " with shape " + shape_str(s) + ".");
      }
    }
  }
  return broadcast_shapes(shapes);
}

nb::tuple shape_tuple(const Shape& s) { return nb::tuple(nb::cast(s)); }

// numpy.broadcast: the broadcast shape of its arguments (arrays or array-likes) and its
// size; iteration over the broadcast elements is not offered (use broadcast_arrays).
struct Broadcast {
  Shape shape;
  int numiter = 0;
  std::int64_t index = 0;
};

}  // namespace

void bind_manipulation(nb::module_& m, ArrayClass& cls) {
  // ---- module functions ----
  m.def(
      "reshape",
      [](nb::handle a, nb::handle shape, nb::handle order, nb::handle newshape, nb::handle copy) {
        if (shape.is_none() && newshape.is_none())
          throw TypeError("reshape() missing 1 required positional argument: 'shape'");
        if (!shape.is_none() && !newshape.is_none())
          throw TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.");
        return reshape_py(as_array(a), shape_from_py(shape.is_none() ? newshape : shape), order, copy);
      },
      nb::arg("a"), nb::arg("shape") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
      nb::arg("newshape") = nb::none(), nb::arg("copy") = nb::none());
  m.def("ravel", [](nb::handle a, nb::handle order) { ndarray x = as_array(a); return ravel(x, order_from_py(order, Order::C)); },
        nb::arg("a"), nb::arg("order").none() = "C");
  m.def("transpose", [](nb::handle a, nb::handle axes) { return transpose(as_array(a), axes_from_py(axes)); },
        nb::arg("a"), nb::arg("axes") = nb::none());
  m.def("permute_dims", [](nb::handle a, nb::handle axes) { return transpose(as_array(a), axes_from_py(axes)); },
        nb::arg("a"), nb::arg("axes") = nb::none());
  m.def("swapaxes", [](nb::handle a, int axis1, int axis2) { return swapaxes(as_array(a), axis1, axis2); },
        nb::arg("a"), nb::arg("axis1"), nb::arg("axis2"));
  m.def(
      "moveaxis",
      [](nb::handle a, nb::handle source, nb::handle destination) {
        return moveaxis(as_array(a), axis_list(source), axis_list(destination));
      },
      nb::arg("a"), nb::arg("source"), nb::arg("destination"));
  m.def("squeeze", [](nb::handle a, nb::handle axis) { ndarray x = as_array(a); return squeeze(x, squeeze_axes(x, axis)); },
        nb::arg("a"), nb::arg("axis") = nb::none());
  m.def("expand_dims", [](nb::handle a, nb::handle axis) { return expand_dims(as_array(a), axis_list(axis)); },
        nb::arg("a"), nb::arg("axis"));
  m.def("broadcast_to", [](nb::handle a, nb::handle shape) { return broadcast_to(as_array(a), shape_from_py(shape)); },
        nb::arg("array"), nb::arg("shape"));
  // numpy.lib.stride_tricks (python/copper/lib/stride_tricks.py gives NumPy's signatures).
  // shape_from_py reads strides too (byte counts, any sign; an int or a sequence).
  m.def(
      "_as_strided",
      [](nb::handle x, nb::handle shape, nb::handle strides) {
        auto ints = [](nb::handle v) { return v.is_none() ? std::nullopt : std::optional<Shape>(shape_from_py(v)); };
        return as_strided(as_array(x), ints(shape), ints(strides));
      },
      nb::arg("x"), nb::arg("shape") = nb::none(), nb::arg("strides") = nb::none());
  m.def(
      "_sliding_window_view",
      [](nb::handle x, nb::handle window_shape, nb::handle axis) {
        return sliding_window_view(as_array(x), shape_from_py(window_shape), axes_from_py(axis));
      },
      nb::arg("x"), nb::arg("window_shape"), nb::arg("axis") = nb::none());
  m.def("broadcast_arrays", [](nb::args args) {
    std::vector<ndarray> arrays;
    std::vector<Shape> shapes;
    for (nb::handle a : args) {
      arrays.push_back(as_array(a));
      shapes.push_back(arrays.back().shape());
    }
    Shape shape = broadcast_shapes_py(shapes);
    nb::list out;
    for (const auto& a : arrays) out.append(nb::cast(broadcast_to(a, shape)));
    return nb::tuple(out);  // a tuple, as NumPy 2 and CuPy 14 give (the array API asks a list)
  });
  nb::class_<Broadcast>(m, "broadcast")
      .def("__init__",
           [](Broadcast* self, nb::args args) {
             if (args.size() > 64) throw ValueError("Need at least 0 and at most 64 array objects.");
             std::vector<Shape> shapes;
             for (nb::handle a : args)
               shapes.push_back(nb::isinstance<ndarray>(a) ? nb::cast<const ndarray&>(a).shape()
                                                           : shape_from_py(numpy().attr("shape")(a)));
             new (self) Broadcast{broadcast_shapes_py(shapes), static_cast<int>(args.size()), 0};
           })
      .def_prop_ro("shape", [](const Broadcast& b) { return shape_tuple(b.shape); })
      .def_prop_ro("size", [](const Broadcast& b) { return shape_size(b.shape); })
      .def_prop_ro("nd", [](const Broadcast& b) { return b.shape.size(); })
      .def_prop_ro("ndim", [](const Broadcast& b) { return b.shape.size(); })
      .def_prop_ro("numiter", [](const Broadcast& b) { return b.numiter; })
      .def_prop_ro("index", [](const Broadcast& b) { return b.index; })
      .def("reset", [](Broadcast& b) { b.index = 0; });
  m.def("broadcast_shapes", [](nb::args args) {
    std::vector<Shape> shapes;
    for (nb::handle s : args) shapes.push_back(shape_from_py(s));
    return shape_tuple(broadcast_shapes_py(shapes));
  });
  m.def(
      "concatenate",
      [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
        std::optional<int> ax = axis.is_none() ? std::nullopt : std::optional<int>(nb::cast<int>(axis));
        return api::concatenate(arrays_from_py(arrays), ax, join_options(out, dtype, casting));
      },
      nb::arg("arrays"), nb::arg("axis").none() = 0, nb::arg("out") = nb::none(), nb::kw_only(),
      nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "stack",
      [](nb::handle arrays, int axis, nb::handle out, nb::handle dtype, nb::handle casting) {
        return api::stack(arrays_from_py(arrays), axis, join_options(out, dtype, casting));
      },
      nb::arg("arrays"), nb::arg("axis") = 0, nb::arg("out") = nb::none(), nb::kw_only(),
      nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "hstack",
      [](nb::handle tup, nb::handle dtype, nb::handle casting) {
        return api::hstack(arrays_from_py(tup), join_options(nb::none(), dtype, casting));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "vstack",
      [](nb::handle tup, nb::handle dtype, nb::handle casting) {
        return api::vstack(arrays_from_py(tup), join_options(nb::none(), dtype, casting));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def("split", [](nb::handle a, nb::handle s, int axis) { return split_py(a, s, axis, true); }, nb::arg("ary"),
        nb::arg("indices_or_sections"), nb::arg("axis") = 0);
  m.def("array_split", [](nb::handle a, nb::handle s, int axis) { return split_py(a, s, axis, false); },
        nb::arg("ary"), nb::arg("indices_or_sections"), nb::arg("axis") = 0);
  m.def("flip", [](nb::handle a, nb::handle axis) { return flip(as_array(a), axes_from_py(axis)); }, nb::arg("m"),
        nb::arg("axis") = nb::none());
  m.def("fliplr", [](nb::handle a) { return fliplr(as_array(a)); }, nb::arg("m"));
  m.def("flipud", [](nb::handle a) { return flipud(as_array(a)); }, nb::arg("m"));
  m.def(
      "roll",
      [](nb::handle a, nb::handle shift, nb::handle axis) {
        return roll(as_array(a), ints_from_py(shift), axes_from_py(axis));
      },
      nb::arg("a"), nb::arg("shift"), nb::arg("axis") = nb::none());
  m.def(
      "repeat",
      [](nb::handle a, nb::handle repeats, nb::handle axis) {
        std::optional<int> ax = axis.is_none() ? std::nullopt : std::optional<int>(nb::cast<int>(axis));
        return repeat(as_array(a), repeats_from_py(repeats), ax);
      },
      nb::arg("a"), nb::arg("repeats"), nb::arg("axis") = nb::none());
  m.def("tile", [](nb::handle a, nb::handle reps) { return tile(as_array(a), ints_from_py(reps)); }, nb::arg("A"),
        nb::arg("reps"));
  m.def(
      "copyto",
      [](const ndarray& dst, nb::handle src, nb::handle casting, nb::handle where) {
        if (PyBool_Check(where.ptr()) && where.ptr() == Py_True)
          return copyto(dst, operand_from_py(src, dst.device()), casting_from_py(casting));
        copyto(dst, operand_from_py(src, dst.device()), casting_from_py(casting), operand_from_py(where, dst.device()));
      },
      nb::arg("dst"), nb::arg("src"), nb::arg("casting") = "same_kind", nb::arg("where") = true);
  auto atleast = [](ndarray (*fn)(const ndarray&)) {
    return [fn](nb::args args) {
      std::vector<ndarray> out;
      for (nb::handle a : args) out.push_back(fn(as_array(a)));
      return tuple_or_single(std::move(out));
    };
  };
  m.def("atleast_1d", atleast(&atleast_1d));
  m.def("atleast_2d", atleast(&atleast_2d));
  m.def("atleast_3d", atleast(&atleast_3d));

  // ---- ndarray methods ----
  cls.def(
         "reshape",
         [](const ndarray& a, nb::args shape, nb::handle order, nb::handle copy) {
           if (shape.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
           return reshape_py(a, shape_from_args(shape), order, copy);
         },
         nb::arg("shape"), nb::arg("order").none() = "C", nb::arg("copy") = nb::none())
      .def("ravel", [](const ndarray& a, nb::handle order) { return ravel(a, order_from_py(order, Order::C)); },
           nb::arg("order").none() = "C")
      .def("flatten", [](const ndarray& a, nb::handle order) { return flatten(a, order_from_py(order, Order::C)); },
           nb::arg("order").none() = "C")
      .def("transpose",
           [](const ndarray& a, nb::args axes) {
             if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) return transpose(a);
             if (axes.size() == 1) return transpose(a, axes_from_py(axes[0]));
             return transpose(a, axes_from_py(axes));
           })
      .def_prop_ro("T", [](const ndarray& a) { return transpose(a); })
      .def("swapaxes", [](const ndarray& a, int axis1, int axis2) { return swapaxes(a, axis1, axis2); },
           nb::arg("axis1"), nb::arg("axis2"))
      .def("squeeze", [](const ndarray& a, nb::handle axis) { return squeeze(a, squeeze_axes(a, axis)); },
           nb::arg("axis") = nb::none())
      .def(
          "repeat",
          [](const ndarray& a, nb::handle repeats, nb::handle axis) {
            std::optional<int> ax = axis.is_none() ? std::nullopt : std::optional<int>(nb::cast<int>(axis));
            return repeat(a, repeats_from_py(repeats), ax);
          },
          nb::arg("repeats"), nb::arg("axis") = nb::none())
      .def(
          "fill",
          [](ndarray& a, nb::handle value) {
            // NumPy 2 fills with one value: arrays of one or more dimensions (even of one
            // element) and sequences are refused.
            operand v = operand_from_py(value, a.device());
            if (v.is_array() && v.array().ndim() != 0) throw ValueError("setting an array element with a sequence.");
            a.assign(v);
          },
          nb::arg("value"))
      .def(
          "byteswap",
          [](nb::handle self, bool inplace) -> nb::object {
            const ndarray& a = nb::cast<const ndarray&>(self);
            if (inplace) {
              byteswap(a, true);
              return nb::borrow(self);  // the array itself, as NumPy returns it
            }
            return nb::cast(byteswap(a, false));
          },
          nb::arg("inplace") = false)
      .def(
          "view",
          [](const ndarray& a, nb::handle dtype) { return a.view(dtype.is_none() ? a.dtype() : native_dtype_from_py(dtype)); },
          nb::arg("dtype") = nb::none());
}

}  // namespace copper::python
