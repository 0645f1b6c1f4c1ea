// copper.ufunc: NumPy's ufunc type. One instance per op of the catalogue (made at import,
// so new ops need no code here), called through vectorcall with NumPy's keywords; the
// attributes read the catalogue and the methods (reduce, accumulate, reduceat, outer,
// at) are nanobind functions bound to the type. A plain CPython type rather than a
// nanobind class: vectorcall keeps `copper.add(x, y)` as cheap as a bound function.
#include <Python.h>
#include <structmember.h>

#include <string>

#include "api/ufunc.h"
#include "bindings.h"
#include "fusion_hook.h"
#include "ufunc_type.h"

namespace copper::python {

namespace {

struct PyUfunc {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  UfuncId id;
};

PyTypeObject* ufunc_type = nullptr;

// Work on big arrays runs without the GIL; for small ones releasing it costs more than it saves.
constexpr std::int64_t release_gil_above = 1 << 16;

const ops::UfuncInfo& info_of(PyObject* self) { return ops::info(reinterpret_cast<PyUfunc*>(self)->id); }

// One output argument: None or a copper array.
nb::handle out_arg(nb::handle h) {
  if (!h.is_valid() || h.is_none()) return nb::handle();
  if (!nb::isinstance<ndarray>(h)) throw TypeError("return arrays must be of ArrayType");
  return h;
}

char order_from_py(nb::handle h) {
  if (!h.is_valid() || h.is_none()) return 'K';
  const std::string s = nb::cast<std::string>(h);
  if (s.size() == 1 && (s[0] == 'K' || s[0] == 'A' || s[0] == 'C' || s[0] == 'F')) return s[0];
  if (s.size() == 1 && (s[0] == 'k' || s[0] == 'a' || s[0] == 'c' || s[0] == 'f')) return static_cast<char>(s[0] - 32);
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
}

// signature=: "ii->i", or a tuple with a dtype or None per operand.
std::vector<std::optional<DType>> signature_from_py(nb::handle h, const ops::UfuncInfo& info, const std::string& name) {
  const int nargs = info.nin + info.nout;
  std::vector<std::optional<DType>> sig;
  if (nb::isinstance<nb::str>(h)) {
    std::string s = nb::cast<std::string>(h);
    std::string ins = s, outs;
    if (auto arrow = s.find("->"); arrow != std::string::npos) {
      ins = s.substr(0, arrow);
      outs = s.substr(arrow + 2);
    }
    if (static_cast<int>(ins.size()) != info.nin || static_cast<int>(outs.size()) != info.nout) {
      if (s.size() == 1) throw TypeError("Use `dtype` or  fill the tuple with more than one 'None'.");
      throw ValueError("a type-string for " + name + ", " + std::to_string(info.nin) + " typecode(s) before and " +
                       std::to_string(info.nout) + " after the -> sign");
    }
    for (char c : ins + outs) sig.push_back(dtype_from_char(c));
    return sig;
  }
  if (!nb::isinstance<nb::tuple>(h) && !nb::isinstance<nb::list>(h))
    throw TypeError("the signature object to ufunc must be a string or a tuple.");
  nb::sequence seq = nb::borrow<nb::sequence>(h);
  if (static_cast<int>(nb::len(seq)) != nargs)
    throw ValueError("a type-tuple must be specified of length " + std::to_string(nargs) + " for ufunc '" + name + "'");
  for (nb::handle x : seq) sig.push_back(optional_dtype(x));
  return sig;
}

nb::object call_ufunc(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const UfuncId id = reinterpret_cast<PyUfunc*>(self)->id;
  const ops::UfuncInfo& info = ops::info(id);
  auto name = [id] { return api::ufunc_name(id); };  // for messages only
  if (nargs < info.nin || nargs > info.nin + info.nout) {
    throw TypeError(name() + "() takes from " + std::to_string(info.nin) + " to " + std::to_string(info.nin + info.nout) +
                    " positional arguments but " + std::to_string(nargs) + (nargs == 1 ? " was" : " were") + " given");
  }
  nb::handle outs[2];
  bool positional_out = false;
  for (Py_ssize_t k = info.nin; k < nargs; ++k) {
    outs[k - info.nin] = out_arg(args[k]);
    positional_out = true;
  }
  UfuncOptions opts;
  nb::handle where, dtype, casting, order, signature;
  if (kwnames) {
    const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; ++i) {
      const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
      nb::handle value = args[nargs + i];
      const std::string_view k = key ? key : "";
      if (k == "out") {
        if (positional_out) throw TypeError("cannot specify 'out' as both a positional and keyword argument");
        if (nb::isinstance<nb::tuple>(value)) {
          nb::tuple t = nb::borrow<nb::tuple>(value);
          if (static_cast<int>(t.size()) != info.nout)
            throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
          for (int j = 0; j < info.nout; ++j) outs[j] = out_arg(t[j]);
        } else {
          if (info.nout != 1 && !value.is_none())
            throw TypeError("'out' must be a tuple of arrays for ufuncs with several outputs");
          outs[0] = out_arg(value);
        }
      } else if (k == "where") {
        where = value;
      } else if (k == "dtype") {
        dtype = value;
      } else if (k == "casting") {
        casting = value;
      } else if (k == "order") {
        order = value;
      } else if (k == "signature") {
        signature = value;
      } else if (k == "subok") {
        nb::cast<bool>(value);  // copper has no array subclasses: either value behaves alike
      } else {
        throw TypeError(name() + "() got an unexpected keyword argument '" + std::string(k) + "'");
      }
    }
  }
  if (casting.is_valid() && !casting.is_none()) {
    const std::string c = nb::cast<std::string>(casting);
    if (c != "no" && c != "equiv" && c != "safe" && c != "same_kind" && c != "unsafe")
      throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '" + c + "')");
    opts.casting = casting_from_py(casting);
  }
  opts.dtype = dtype.is_valid() ? optional_dtype(dtype) : std::nullopt;
  opts.order = order_from_py(order);
  if (signature.is_valid() && !signature.is_none()) opts.signature = signature_from_py(signature, info, name());
  if (outs[0].is_valid()) opts.out = nb::cast<const ndarray&>(outs[0]);
  if (outs[1].is_valid()) opts.out2 = nb::cast<const ndarray&>(outs[1]);

  nb::handle handles[6] = {info.nin > 0 ? args[0] : nullptr, info.nin > 1 ? args[1] : nullptr,
                           info.nin > 2 ? args[2] : nullptr, outs[0], outs[1], nb::handle()};
  const Device device = device_of(std::span<const nb::handle>(handles, 5));
  if (where.is_valid() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) {
    opts.where = array_from_py(where, std::nullopt, device);
  }
  operand operands[3] = {Scalar(0), Scalar(0), Scalar(0)};
  const operand* in[3];
  bool big = false;
  for (int k = 0; k < info.nin; ++k) {
    operands[k] = operand_from_py(args[k], device);
    in[k] = &operands[k];
    if (operands[k].is_array()) big = big || operands[k].array().size() > release_gil_above;
  }
  ndarray results[2];
  if (big) {
    nb::gil_scoped_release release;
    api::apply_ufunc(id, std::span<const operand* const>(in, info.nin), opts, results);
  } else {
    api::apply_ufunc(id, std::span<const operand* const>(in, info.nin), opts, results);
  }
  auto wrap = [&](int j) { return outs[j].is_valid() ? nb::borrow(outs[j]) : nb::cast(std::move(results[j])); };
  if (info.nout == 1) return wrap(0);
  return nb::make_tuple(wrap(0), wrap(1));
}

PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  try {
    if (nb::object traced = fusion_dispatch(self, args, PyVectorcall_NARGS(nargsf), kwnames); traced.is_valid())
      return traced.release().ptr();
    return call_ufunc(self, args, PyVectorcall_NARGS(nargsf), kwnames).release().ptr();
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}

PyObject* ufunc_repr(PyObject* self) {
  return PyUnicode_FromFormat("<ufunc '%s'>", api::ufunc_name(reinterpret_cast<PyUfunc*>(self)->id).c_str());
}

// Attributes, all read-only, as NumPy's.
PyObject* get_int(PyObject* self, void* which) {
  const auto& info = info_of(self);
  const auto w = reinterpret_cast<std::intptr_t>(which);
  if (w == 3) return PyLong_FromSsize_t(static_cast<Py_ssize_t>(ops::loop_signatures(reinterpret_cast<PyUfunc*>(self)->id).size()));
  return PyLong_FromLong(w == 0 ? info.nin : w == 1 ? info.nout : info.nin + info.nout);
}
PyObject* get_types(PyObject* self, void*) {
  try {
    nb::list types;
    for (const std::string& t : ops::loop_signatures(reinterpret_cast<PyUfunc*>(self)->id)) types.append(nb::str(t.c_str()));
    return types.release().ptr();
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}
PyObject* get_identity(PyObject* self, void*) {
  try {
    const auto identity = ufunc(reinterpret_cast<PyUfunc*>(self)->id).identity();
    if (!identity) Py_RETURN_NONE;
    return scalar_to_py(*identity).release().ptr();
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}
PyObject* get_none(PyObject*, void*) { Py_RETURN_NONE; }
PyObject* get_name(PyObject* self, void*) {
  return PyUnicode_FromString(api::ufunc_name(reinterpret_cast<PyUfunc*>(self)->id).c_str());
}
// Written here rather than copied from NumPy: the call signature and what it computes.
PyObject* get_doc(PyObject* self, void*) {
  const auto& info = info_of(self);
  const std::string name = api::ufunc_name(reinterpret_cast<PyUfunc*>(self)->id);
  std::string args;
  for (int k = 0; k < info.nin; ++k) args += (info.nin == 1 ? "x" : "x" + std::to_string(k + 1)) + ", ";
  std::string outs = info.nout == 1 ? "out=None" : "out1=None, out2=None";
  const std::string text = name + "(" + args + "/, " + outs +
                           ", *, where=True, casting='same_kind', order='K', dtype=None, subok=True[, signature])\n\n"
                           "numpy." + name + " on copper arrays, elementwise, on the arrays' device (CPU or GPU). "
                           "A copper.ufunc: it also has reduce, accumulate, reduceat, outer and at.";
  return PyUnicode_FromString(text.c_str());
}

PyGetSetDef ufunc_getset[] = {
    {"nin", get_int, nullptr, "number of inputs", reinterpret_cast<void*>(0)},
    {"nout", get_int, nullptr, "number of outputs", reinterpret_cast<void*>(1)},
    {"nargs", get_int, nullptr, "number of arguments (nin + nout)", reinterpret_cast<void*>(2)},
    {"ntypes", get_int, nullptr, "number of loops", reinterpret_cast<void*>(3)},
    {"types", get_types, nullptr, "the loops, as 'ii->i' strings", nullptr},
    {"identity", get_identity, nullptr, "the value a reduction starts from, or None", nullptr},
    {"signature", get_none, nullptr, "the core signature of a generalized ufunc (None: an elementwise ufunc)", nullptr},
    {"__name__", get_name, nullptr, nullptr, nullptr},
    {"__qualname__", get_name, nullptr, nullptr, nullptr},
    {"__doc__", get_doc, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMemberDef ufunc_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, static_cast<Py_ssize_t>(offsetof(PyUfunc, vectorcall)), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyObject* ufunc_new(PyTypeObject*, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError, "cannot create 'copper.ufunc' instances");
  return nullptr;
}

PyType_Slot ufunc_slots[] = {{Py_tp_repr, reinterpret_cast<void*>(ufunc_repr)},
                             {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                             {Py_tp_getset, ufunc_getset},
                             {Py_tp_members, ufunc_members},
                             {Py_tp_new, reinterpret_cast<void*>(ufunc_new)},
                             // No Py_tp_doc: PyType_FromSpec would store it in the type's dict over
                             // the per-instance __doc__ getter above.
                             {0, nullptr}};

PyType_Spec ufunc_spec = {"copper.ufunc", sizeof(PyUfunc), 0,
                          Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL, ufunc_slots};

}  // namespace

bool is_ufunc(nb::handle h) { return ufunc_type && PyObject_TypeCheck(h.ptr(), ufunc_type); }

UfuncId ufunc_id(nb::handle h) {
  if (!is_ufunc(h)) throw TypeError("expected a copper.ufunc");
  return reinterpret_cast<PyUfunc*>(h.ptr())->id;
}

nb::object make_ufunc_type(nb::module_& m) {
  nb::object type = nb::steal(PyType_FromSpec(&ufunc_spec));
  if (!type.is_valid()) throw nb::python_error();
  ufunc_type = reinterpret_cast<PyTypeObject*>(type.ptr());
  type.attr("__module__") = "copper";
  m.attr("ufunc") = type;
  return type;
}

nb::object make_ufunc(UfuncId id) {
  PyUfunc* u = PyObject_New(PyUfunc, ufunc_type);
  if (!u) throw nb::python_error();
  u->vectorcall = ufunc_vectorcall;
  u->id = id;
  return nb::steal(reinterpret_cast<PyObject*>(u));
}

}  // namespace copper::python
