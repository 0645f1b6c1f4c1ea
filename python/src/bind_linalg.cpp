// Python bindings for matrix and tensor products, diagonals and triangles, and the
// @ operator (__matmul__, __rmatmul__, __imatmul__).
#include <Python.h>

#include "bindings.h"
#include "ndarray_owner.h"
#include "reduction_args.h"

namespace copper::python {
namespace {

// Products of big operands run without the GIL.
constexpr std::int64_t release_gil_above = 1 << 14;

ndarray to_array(nb::handle x, Device device) {
  return nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : array_from_py(x, std::nullopt, device);
}

// Runs a two-array product; hands back the out= object itself when one was given.
template <class F>
nb::object product(nb::handle x, nb::handle y, nb::handle out, F&& fn) {
  const Device device = device_of({x, y, out});
  const ndarray a = to_array(x, device), b = to_array(y, device);
  const std::optional<ndarray> o = out_arg(out);
  ndarray result;
  if (a.size() + b.size() > release_gil_above) {
    nb::gil_scoped_release release;
    result = fn(a, b, o);
  } else {
    result = fn(a, b, o);
  }
  if (o) return nb::borrow(out);
  return nb::cast(std::move(result));
}

// The other operand of `@`, or nothing when copper cannot take it.
std::optional<ndarray> other_array(nb::handle other, Device device) {
  if (nb::isinstance<ndarray>(other)) return nb::cast<const ndarray&>(other);
  try {
    return array_from_py(other, std::nullopt, device);
  } catch (const TypeError&) {
    return std::nullopt;
  } catch (const ValueError&) {
    return std::nullopt;
  }
}

std::vector<int> int_list(nb::handle h) {
  std::vector<int> v;
  if (nb::isinstance<nb::int_>(h)) v.push_back(nb::cast<int>(h));
  else
    for (nb::handle x : h) v.push_back(nb::cast<int>(x));
  return v;
}

// numpy.matmul's keywords past out=: dtype, casting and axes (axis has no meaning for
// matmul's three distinct core dimensions; order and subok change nothing in copper).
nb::object matmul_py(nb::handle x1, nb::handle x2, nb::handle out, nb::handle casting, nb::handle /*order*/,
                     nb::handle dtype, nb::handle /*subok*/, nb::handle axes, nb::handle axis, bool keepdims) {
  if (!axis.is_none())
    throw TypeError("matmul: axis can only be used with a single shared core dimension, not with the 3 distinct ones "
                    "implied by signature (n?,k),(k,m?)->(n?,m?).");
  if (keepdims)
    throw TypeError("matmul does not support keepdims: its signature (n?,k),(k,m?)->(n?,m?) requires output 0 to have "
                    "2 core dimensions, but keepdims can only be used when all inputs have the same number of core "
                    "dimensions and all outputs have no core dimensions.");
  MatmulOptions options;
  options.dtype = optional_dtype(dtype);
  options.casting = casting_from_py(casting);
  if (!axes.is_none()) {
    std::vector<std::vector<int>> entries;
    for (nb::handle entry : axes) entries.push_back(int_list(entry));
    options.axes = std::move(entries);
  }
  return product(x1, x2, out, [&](const ndarray& a, const ndarray& b, const std::optional<ndarray>& o) {
    return matmul(a, b, o, options);
  });
}

nb::object tensordot_py(nb::handle x, nb::handle y, nb::handle axes) {
  const Device device = device_of({x, y});
  const ndarray a = to_array(x, device), b = to_array(y, device);
  if (nb::isinstance<nb::int_>(axes)) return nb::cast(tensordot(a, b, nb::cast<int>(axes)));
  nb::sequence pair = nb::borrow<nb::sequence>(axes);
  if (nb::len(pair) != 2) throw ValueError("axes must be an integer or a pair of sequences of axes");
  return nb::cast(tensordot(a, b, int_list(pair[0]), int_list(pair[1])));
}

// One operand's subscripts list (ints and Ellipsis) for the sublist form.
std::vector<int> einsum_sublist(nb::handle h) {
  if (nb::isinstance<nb::str>(h) || !PySequence_Check(h.ptr()))
    throw TypeError("the subscripts for each operand must be a list or a tuple");
  std::vector<int> labels;
  for (nb::handle x : h) {
    if (x.ptr() == Py_Ellipsis) {
      labels.push_back(kEinsumEllipsis);
      continue;
    }
    if (!PyIndex_Check(x.ptr())) throw TypeError("each subscript must be either an integer or an ellipsis");
    nb::object index = nb::steal(PyNumber_Index(x.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    labels.push_back(overflow || v < 0 || v >= 52 ? 52 : static_cast<int>(v));  // 52: out of range (ValueError)
  }
  return labels;
}

nb::object einsum_py(nb::args args, nb::kwargs kwargs) {
  if (args.size() == 0)
    throw ValueError("must specify the einstein sum subscripts string and at least one operand, or at least one "
                     "operand and its corresponding subscripts list");
  nb::handle out, dtype;
  for (auto [key, value] : kwargs) {
    const std::string k = nb::cast<std::string>(key);
    if (k == "out") out = value;
    else if (k == "dtype") dtype = value;
    else if (k == "optimize" || k == "order" || k == "casting") continue;  // accepted: one contraction order
    else throw TypeError("einsum() got an unexpected keyword argument '" + k + "'");
  }
  // The subscripts string, or NumPy's sublist form: operand, labels, operand, labels, ..., [output].
  std::vector<nb::handle> handles;
  std::string subscripts;
  if (nb::isinstance<nb::str>(args[0])) {
    subscripts = nb::cast<std::string>(args[0]);
    for (std::size_t i = 1; i < args.size(); ++i) handles.push_back(args[i]);
  } else {
    std::vector<std::vector<int>> inputs;
    std::size_t i = 0;
    for (; i + 1 < args.size(); i += 2) {
      handles.push_back(args[i]);
      inputs.push_back(einsum_sublist(args[i + 1]));
    }
    if (inputs.empty())
      throw ValueError("must specify the einstein sum subscripts string and at least one operand, or at least one "
                       "operand and its corresponding subscripts list");
    std::optional<std::vector<int>> output;
    if (i < args.size()) output = einsum_sublist(args[i]);
    subscripts = einsum_subscripts(inputs, output);
  }
  Device device = default_device();
  for (nb::handle h : handles)
    if (nb::isinstance<ndarray>(h)) {
      device = nb::cast<const ndarray&>(h).device();
      break;
    }
  std::vector<ndarray> operands;
  const std::optional<DType> as = dtype.is_valid() ? optional_dtype(dtype) : std::nullopt;
  for (nb::handle h : handles) operands.push_back(to_array(h, device));
  const std::optional<ndarray> o = out_arg(out);
  // With out=, NumPy computes in dtype and writes there (no view of a lone operand).
  if (o && as)
    for (ndarray& a : operands)
      if (a.dtype() != *as) a = astype(a, *as);
  ndarray result = einsum(subscripts, operands, as);
  if (o) {
    copyto(*o, result, Casting::safe);
    return nb::borrow(out);
  }
  // A view of a lone operand names that operand as its base (NumPy's `b.base is a`).
  if (handles.size() == 1 && nb::isinstance<ndarray>(handles[0])) return view_result(handles[0], std::move(result));
  return nb::cast(std::move(result));
}

ndarray trace_of(const ndarray& a, int offset, int axis1, int axis2, nb::handle dtype, nb::handle out) {
  return trace(a, offset, axis1, axis2, optional_dtype(dtype), out_arg(out));
}

}  // namespace

void bind_linalg(nb::module_& m, ArrayClass& cls) {
  auto matmul_fn = [](const ndarray& a, const ndarray& b, const std::optional<ndarray>& o) { return matmul(a, b, o); };
  auto dot_fn = [](const ndarray& a, const ndarray& b, const std::optional<ndarray>& o) { return dot(a, b, o); };
  auto outer_fn = [](const ndarray& a, const ndarray& b, const std::optional<ndarray>& o) { return outer(a, b, o); };
  m.def("matmul", &matmul_py, nb::arg("x1"), nb::arg("x2"), nb::arg("out") = nb::none(), nb::kw_only(),
        nb::arg("casting") = "same_kind", nb::arg("order") = "K", nb::arg("dtype") = nb::none(),
        nb::arg("subok") = true, nb::arg("axes") = nb::none(), nb::arg("axis") = nb::none(),
        nb::arg("keepdims") = false);
  m.def("dot", [=](nb::handle a, nb::handle b, nb::handle out) { return product(a, b, out, dot_fn); }, nb::arg("a"),
        nb::arg("b"), nb::arg("out") = nb::none());
  m.def("outer", [=](nb::handle a, nb::handle b, nb::handle out) { return product(a, b, out, outer_fn); },
        nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none());
  m.def("vdot", [](nb::handle a, nb::handle b) {
    return product(a, b, nb::none(), [](const ndarray& x, const ndarray& y, const auto&) { return vdot(x, y); });
  }, nb::arg("a"), nb::arg("b"));
  m.def("inner", [](nb::handle a, nb::handle b) {
    return product(a, b, nb::none(), [](const ndarray& x, const ndarray& y, const auto&) { return inner(x, y); });
  }, nb::arg("a"), nb::arg("b"));
  m.def("kron", [](nb::handle a, nb::handle b) {
    return product(a, b, nb::none(), [](const ndarray& x, const ndarray& y, const auto&) { return kron(x, y); });
  }, nb::arg("a"), nb::arg("b"));
  m.def("tensordot", &tensordot_py, nb::arg("a"), nb::arg("b"), nb::arg("axes") = 2);
  m.def("einsum", &einsum_py);
  m.def(
      "cross",
      [](nb::handle a, nb::handle b, int axisa, int axisb, int axisc, std::optional<int> axis) {
        const Device device = device_of({a, b});
        return cross(to_array(a, device), to_array(b, device), axisa, axisb, axisc, axis);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axisa") = -1, nb::arg("axisb") = -1, nb::arg("axisc") = -1,
      nb::arg("axis") = nb::none());
  m.def(
      "diagonal",
      [](nb::handle a, int offset, int axis1, int axis2) {
        return diagonal(to_array(a, default_device()), offset, axis1, axis2);
      },
      nb::arg("a"), nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1);
  m.def(
      "trace",
      [](nb::handle a, int offset, int axis1, int axis2, nb::handle dtype, nb::handle out) -> nb::object {
        ndarray r = trace_of(to_array(a, device_of({a, out})), offset, axis1, axis2, dtype, out);
        if (out_arg(out)) return nb::borrow(out);
        return nb::cast(std::move(r));
      },
      nb::arg("a"), nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1, nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none());
  m.def("diag", [](nb::handle v, int k) { return diag(to_array(v, default_device()), k); }, nb::arg("v"),
        nb::arg("k") = 0);
  m.def("tril", [](nb::handle x, int k) { return tril(to_array(x, default_device()), k); }, nb::arg("m"),
        nb::arg("k") = 0);
  m.def("triu", [](nb::handle x, int k) { return triu(to_array(x, default_device()), k); }, nb::arg("m"),
        nb::arg("k") = 0);
  m.def("set_matmul_precision", &set_matmul_precision, nb::arg("precision"));
  m.def("get_matmul_precision", &get_matmul_precision);

  // Methods.
  cls.def("dot", [=](nb::handle self, nb::handle b, nb::handle out) { return product(self, b, out, dot_fn); },
          nb::arg("b"), nb::arg("out") = nb::none());
  cls.def("diagonal", [](const ndarray& a, int offset, int axis1, int axis2) { return diagonal(a, offset, axis1, axis2); },
          nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1);
  cls.def(
      "trace",
      [](nb::handle self, int offset, int axis1, int axis2, nb::handle dtype, nb::handle out) -> nb::object {
        ndarray r = trace_of(nb::cast<const ndarray&>(self), offset, axis1, axis2, dtype, out);
        if (out_arg(out)) return nb::borrow(out);
        return nb::cast(std::move(r));
      },
      nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1, nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none());

  // a @ b, b @ a, a @= b (NumPy computes the last into a, which must keep its shape).
  cls.def("__matmul__", [=](nb::handle self, nb::handle other) -> nb::object {
    auto b = other_array(other, nb::cast<const ndarray&>(self).device());
    if (!b) return nb::borrow(Py_NotImplemented);
    return product(self, nb::cast(*b), nb::none(), matmul_fn);
  });
  cls.def("__rmatmul__", [=](nb::handle self, nb::handle other) -> nb::object {
    auto a = other_array(other, nb::cast<const ndarray&>(self).device());
    if (!a) return nb::borrow(Py_NotImplemented);
    return product(nb::cast(*a), self, nb::none(), matmul_fn);
  });
  cls.def("__imatmul__", [=](nb::handle self, nb::handle other) -> nb::object {
    auto b = other_array(other, nb::cast<const ndarray&>(self).device());
    if (!b) return nb::borrow(Py_NotImplemented);
    return product(self, nb::cast(*b), self, matmul_fn);
  });

  // cupyx.errstate(linalg=...) (copper.x): the calling thread's mode for LAPACK / cuSOLVER failures.
  m.def("_get_linalg_errstate", [] { return std::string(linalg::error_mode_name(linalg::get_error_mode())); });
  m.def(
      "_set_linalg_errstate",
      [](const std::string& mode) {
        return std::string(linalg::error_mode_name(linalg::set_error_mode(linalg::error_mode_from_name(mode))));
      },
      nb::arg("mode"));
}

}  // namespace copper::python
