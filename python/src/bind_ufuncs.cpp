// Python bindings for the elementwise ops: every ufunc (and NumPy 2's aliases) as a
// copper.ufunc object (bind_ufunc_type.cpp), where/clip/around/real/imag/angle, and
// ndarray's operators.
#include <Python.h>

#include <numbers>

#include "bindings.h"
#include "ndarray_owner.h"
#include "ops/catalogue.h"
#include "ufunc_type.h"

namespace copper::python {

namespace {

using Binary = binary_ufunc;

// Work on big arrays runs without the GIL; for small ones releasing it costs more than it saves.
constexpr std::int64_t release_gil_above = 1 << 16;

// out= as NumPy takes it: an array, a 1-tuple holding one, or None.
nb::handle out_handle(nb::handle out) {
  if (!out.is_valid() || out.is_none()) return nb::handle();
  if (nb::isinstance<nb::tuple>(out)) {
    nb::tuple t = nb::borrow<nb::tuple>(out);
    if (t.size() != 1) throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
    return out_handle(t[0]);
  }
  if (!nb::isinstance<ndarray>(out)) throw TypeError("return arrays must be of ArrayType");
  return out;
}

// Converts the arguments of one clip call; keeps the out object to hand it back as is.
struct UfuncCall {
  nb::handle out;
  UfuncOptions opts;
  std::vector<operand> operands;
  bool big = false;

  UfuncCall(std::initializer_list<nb::handle> inputs, nb::handle out_arg, nb::handle dtype, nb::handle casting)
      : out(out_handle(out_arg)) {
    if (out.is_valid()) opts.out = nb::cast<const ndarray&>(out);
    opts.dtype = optional_dtype(dtype);
    opts.casting = casting_from_py(casting);
    Device device = device_of({inputs.begin()[0], inputs.size() > 1 ? inputs.begin()[1] : nb::handle(),
                               inputs.size() > 2 ? inputs.begin()[2] : nb::handle(), out});
    operands.reserve(inputs.size());
    for (nb::handle h : inputs) {
      operands.push_back(operand_from_py(h, device));
      if (operands.back().is_array()) big = big || operands.back().array().size() > release_gil_above;
    }
  }

  template <class F>
  nb::object run(F&& compute) {
    ndarray result;
    if (big) {
      nb::gil_scoped_release release;
      result = compute();
    } else {
      result = compute();
    }
    if (out.is_valid()) return nb::borrow(out);
    return nb::cast(std::move(result));
  }
};

// The other operand of a Python operator, or nothing when copper cannot take it
// (Python then tries the other object's reflected method, as NumPy arranges).
std::optional<operand> other_operand(nb::handle other, Device device) {
  if (nb::isinstance<ndarray>(other)) return operand(nb::cast<const ndarray&>(other));
  try {
    return operand_from_py(other, device);
  } catch (const TypeError&) {
    return std::nullopt;
  } catch (const ValueError&) {
    return std::nullopt;
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
    return std::nullopt;
  }
}

// a + b, b + a (reflected) and a += b (in place, returning the same object).
void def_operator(ArrayClass& cls, const char* name, const char* rname, const char* iname, const Binary& op) {
  const Binary* fn = &op;
  if (name) {
    cls.def(name, [fn](const ndarray& self, nb::handle other) -> nb::object {
      auto o = other_operand(other, self.device());
      if (!o) return nb::borrow(Py_NotImplemented);
      return nb::cast((*fn)(self, *o, {}));
    });
  }
  if (rname) {
    cls.def(rname, [fn](const ndarray& self, nb::handle other) -> nb::object {
      auto o = other_operand(other, self.device());
      if (!o) return nb::borrow(Py_NotImplemented);
      return nb::cast((*fn)(*o, self, {}));
    });
  }
  if (iname) {
    cls.def(iname, [fn](nb::handle self, nb::handle other) -> nb::object {
      const ndarray& a = nb::cast<const ndarray&>(self);
      auto o = other_operand(other, a.device());
      if (!o) return nb::borrow(Py_NotImplemented);
      UfuncOptions opts;
      opts.out = a;
      (*fn)(a, *o, opts);
      return nb::borrow(self);
    });
  }
}

// a == other, a != other. An object copper cannot convert (None, Ellipsis, object()) that has
// no __eq__/__ne__ of its own compares unequal to every element, as in NumPy; one with its
// own method gets its turn (NotImplemented).
void def_comparison(ArrayClass& cls, const char* name, const Binary& op, bool unequal) {
  const Binary* fn = &op;
  cls.def(
      name,
      [fn, name, unequal](const ndarray& self, nb::handle other) -> nb::object {
        if (auto o = other_operand(other, self.device())) return nb::cast((*fn)(self, *o, {}));
        nb::handle base = reinterpret_cast<PyObject*>(&PyBaseObject_Type);
        // (None counts as having none: NoneType's own comparison, where a Python version has
        // one, only knows None.)
        if (!other.is_none() && !nb::getattr(other.type(), name).is(nb::getattr(base, name)))
          return nb::borrow(Py_NotImplemented);
        // x != obj where obj has only __eq__: NumPy asks each element, and Python's default
        // __ne__ answers `not obj.__eq__(x)`; an __eq__ that takes the whole array does it at once.
        if (unequal && !nb::getattr(other.type(), "__eq__").is(nb::getattr(base, "__eq__"))) {
          nb::object eq = other.attr("__eq__")(nb::cast(self));
          if (!eq.is(Py_NotImplemented))
            return nb::cast(logical_not(operand_from_py(eq, self.device()), {}));
        }
        return nb::cast(full(self.shape(), unequal, bool_, self.device()));
      },
      nb::arg("other").none());
}

// clip with bounds lo and hi: a missing (None) bound makes it minimum/maximum; none at all, positive.
nb::object clip_bounds(nb::handle a, nb::handle lo, nb::handle hi, nb::handle out, nb::handle dtype,
                       nb::handle casting) {
  if (lo.is_none() && hi.is_none()) {
    UfuncCall call({a}, out, dtype, casting);
    return call.run([&] { return positive(call.operands[0], call.opts); });
  }
  if (lo.is_none()) {
    UfuncCall call({a, hi}, out, dtype, casting);
    return call.run([&] { return minimum(call.operands[0], call.operands[1], call.opts); });
  }
  if (hi.is_none()) {
    UfuncCall call({a, lo}, out, dtype, casting);
    return call.run([&] { return maximum(call.operands[0], call.operands[1], call.opts); });
  }
  UfuncCall call({a, lo, hi}, out, dtype, casting);
  return call.run([&] { return clip(call.operands[0], call.operands[1], call.operands[2], call.opts); });
}

// numpy.clip's arguments: both bounds positionally (None for "no bound"), or neither and
// min=/max= by keyword.
nb::object clip_py(nb::handle a, nb::handle a_min, nb::handle a_max, nb::handle out, nb::handle min,
                   nb::handle max, nb::handle dtype, nb::handle casting) {
  const nb::handle none = nb::none();
  auto given = [](nb::handle v) { return !v.is(no_value()); };
  if (!given(a_min) && !given(a_max))
    return clip_bounds(a, given(min) ? min : none, given(max) ? max : none, out, dtype, casting);
  if (!given(a_min)) throw TypeError("clip() missing 1 required positional argument: 'a_min'");
  if (!given(a_max)) throw TypeError("clip() missing 1 required positional argument: 'a_max'");
  if (given(min) || given(max))
    throw ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is forbidden.");
  return clip_bounds(a, a_min, a_max, out, dtype, casting);
}

nb::object around_py(nb::handle a, int decimals, nb::handle out) {
  nb::handle o = out_handle(out);
  operand x = operand_from_py(a, device_of({a, o}));
  std::optional<ndarray> out_array;
  if (o.is_valid()) out_array = nb::cast<const ndarray&>(o);
  ndarray r = around(x, decimals, out_array);
  if (o.is_valid()) return nb::borrow(o);
  return nb::cast(std::move(r));
}

ndarray as_array(nb::handle x) {
  return nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : array_from_py(x, std::nullopt, default_device());
}

// real(x)/imag(x) for Python: x itself for real(non-complex array), else linked views.
nb::object complex_part(nb::handle x, ndarray (*part)(const ndarray&)) {
  if (!nb::isinstance<ndarray>(x)) return nb::cast(part(as_array(x)));
  const ndarray& a = nb::cast<const ndarray&>(x);
  if (part == static_cast<ndarray (*)(const ndarray&)>(&real) && !is_complex(a.dtype())) return nb::borrow(x);
  return view_result(x, part(a));
}

}  // namespace

void bind_ufuncs(nb::module_& m, ArrayClass& cls) {
  // Every op of the catalogue is a copper.ufunc, but for the two NumPy has as plain
  // functions (defined below with NumPy's own signatures).
  nb::object type = make_ufunc_type(m);
  bind_ufunc_methods(type);
  for (int i = 0; i < num_ufuncs; ++i) {
    const auto id = static_cast<UfuncId>(i);
    const std::string name(ops::info(id).name);
    if (name == "clip" || name == "angle") continue;
    m.attr(name.c_str()) = make_ufunc(id);
  }
  // NumPy 2's aliases (the array API names among them): the same objects.
  const std::pair<const char*, const char*> aliases[] = {
      {"abs", "absolute"},      {"conj", "conjugate"},   {"bitwise_not", "invert"}, {"bitwise_invert", "invert"},
      {"acos", "arccos"},       {"asin", "arcsin"},      {"atan", "arctan"},        {"acosh", "arccosh"},
      {"asinh", "arcsinh"},     {"atanh", "arctanh"},    {"divide", "true_divide"}, {"mod", "remainder"},
      {"pow", "power"},         {"atan2", "arctan2"},    {"bitwise_left_shift", "left_shift"},
      {"bitwise_right_shift", "right_shift"}};
  for (auto [alias, name] : aliases) m.attr(alias) = m.attr(name);

  m.def(
      "where",
      [](nb::handle condition, nb::handle x, nb::handle y) -> nb::object {
        if (x.is_none() && y.is_none()) return nb::module_::import_("copper").attr("nonzero")(condition);
        if (x.is_none() || y.is_none()) throw ValueError("either both or neither of x and y should be given");
        Device device = device_of({condition, x, y});
        return nb::cast(where(operand_from_py(condition, device), operand_from_py(x, device),
                              operand_from_py(y, device)));
      },
      nb::arg("condition"), nb::arg("x") = nb::none(), nb::arg("y") = nb::none());
  m.def("clip", &clip_py, nb::arg("a"), nb::arg("a_min").none() = no_value(), nb::arg("a_max").none() = no_value(),
        nb::arg("out") = nb::none(), nb::kw_only(), nb::arg("min").none() = no_value(),
        nb::arg("max").none() = no_value(),
        nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def("around", &around_py, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out") = nb::none());
  m.def("round", &around_py, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out") = nb::none());
  // NumPy's real of a real array is the array itself; real/imag of a complex one are views
  // whose base is the argument.
  m.def("real", [](nb::handle x) { return complex_part(x, real); }, nb::arg("val"));
  m.def("imag", [](nb::handle x) { return complex_part(x, imag); }, nb::arg("val"));
  // NumPy's angle takes deg= and treats real input apart.
  m.def(
      "angle",
      [](nb::handle z, bool deg) {
        // NumPy's angle is arctan2(imag, real), with a weak 0 for real input (bool -> float64).
        ndarray x = as_array(z);
        ndarray a = is_complex(x.dtype()) ? angle(x) : arctan2(0, x);
        return deg ? multiply(a, 180.0 / std::numbers::pi) : a;
      },
      nb::arg("z"), nb::arg("deg") = false);

  // Operators: a + b, b + a, a += b, and the unary ones. The priority makes NumPy
  // arrays and scalars step back (numpy.float64(2) - x calls x.__rsub__).
  cls.attr("__array_priority__") = 100;
  def_operator(cls, "__add__", "__radd__", "__iadd__", add);
  def_operator(cls, "__sub__", "__rsub__", "__isub__", subtract);
  def_operator(cls, "__mul__", "__rmul__", "__imul__", multiply);
  def_operator(cls, "__truediv__", "__rtruediv__", "__itruediv__", true_divide);
  def_operator(cls, "__floordiv__", "__rfloordiv__", "__ifloordiv__", floor_divide);
  def_operator(cls, "__mod__", "__rmod__", "__imod__", remainder);
  def_operator(cls, "__and__", "__rand__", "__iand__", bitwise_and);
  def_operator(cls, "__or__", "__ror__", "__ior__", bitwise_or);
  def_operator(cls, "__xor__", "__rxor__", "__ixor__", bitwise_xor);
  def_operator(cls, "__lshift__", "__rlshift__", "__ilshift__", left_shift);
  def_operator(cls, "__rshift__", "__rrshift__", "__irshift__", right_shift);
  def_operator(cls, "__lt__", nullptr, nullptr, less);
  def_operator(cls, "__le__", nullptr, nullptr, less_equal);
  def_operator(cls, "__gt__", nullptr, nullptr, greater);
  def_operator(cls, "__ge__", nullptr, nullptr, greater_equal);
  def_comparison(cls, "__eq__", equal, false);
  def_comparison(cls, "__ne__", not_equal, true);
  def_operator(cls, nullptr, nullptr, "__ipow__", power);
  // pow(a, b, mod) has a third argument; only the two-argument form is NumPy's ufunc.
  cls.def(
      "__pow__",
      [](const ndarray& self, nb::handle other, nb::handle mod) -> nb::object {
        if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
        // NumPy's `**` turns a Python-scalar exponent of 2 on a float array into
        // square(): one multiply instead of pow() per element, same result as NumPy.
        // (Complex powers keep NumPy's own complex algorithm.)
        if (is_floating(self.dtype()) && (PyFloat_CheckExact(other.ptr()) || PyLong_CheckExact(other.ptr())) &&
            PyObject_RichCompareBool(other.ptr(), nb::int_(2).ptr(), Py_EQ) == 1)
          return nb::cast(square(self));
        auto o = other_operand(other, self.device());
        if (!o) return nb::borrow(Py_NotImplemented);
        return nb::cast(power(self, *o));
      },
      nb::arg("other"), nb::arg("mod") = nb::none());
  cls.def(
      "__rpow__",
      [](const ndarray& self, nb::handle other, nb::handle mod) -> nb::object {
        if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
        auto o = other_operand(other, self.device());
        if (!o) return nb::borrow(Py_NotImplemented);
        return nb::cast(power(*o, self));
      },
      nb::arg("other"), nb::arg("mod") = nb::none());
  cls.def("__divmod__", [](const ndarray& self, nb::handle other) -> nb::object {
    auto o = other_operand(other, self.device());
    if (!o) return nb::borrow(Py_NotImplemented);
    auto [q, r] = divmod(self, *o);
    return nb::make_tuple(std::move(q), std::move(r));
  });
  cls.def("__rdivmod__", [](const ndarray& self, nb::handle other) -> nb::object {
    auto o = other_operand(other, self.device());
    if (!o) return nb::borrow(Py_NotImplemented);
    auto [q, r] = divmod(*o, self);
    return nb::make_tuple(std::move(q), std::move(r));
  });
  cls.def("__neg__", [](const ndarray& a) { return negative(a); });
  cls.def("__pos__", [](const ndarray& a) { return positive(a); });
  cls.def("__abs__", [](const ndarray& a) { return absolute(a); });
  cls.def("__invert__", [](const ndarray& a) { return invert(a); });

  // Methods and complex parts.
  cls.def(
      "clip",
      [](nb::handle self, nb::handle min, nb::handle max, nb::handle out) {
        return clip_bounds(self, min, max, out, nb::none(), nb::str("same_kind"));
      },
      nb::arg("min") = nb::none(), nb::arg("max") = nb::none(), nb::arg("out") = nb::none());
  cls.def(
      "round", [](nb::handle self, int decimals, nb::handle out) { return around_py(self, decimals, out); },
      nb::arg("decimals") = 0, nb::arg("out") = nb::none());
  // ndarray.conj()/.real of a non-complex array hand back the array itself (NumPy).
  auto conj_method = [](nb::handle self) {
    const ndarray& a = nb::cast<const ndarray&>(self);
    return is_complex(a.dtype()) ? nb::cast(conjugate(a)) : nb::borrow(self);
  };
  cls.def("conj", conj_method);
  cls.def("conjugate", conj_method);
  cls.def_prop_rw(
      "real", [](nb::handle self) { return complex_part(self, real); },
      [](const ndarray& a, nb::handle value) { copyto(real(a), operand_from_py(value, a.device()), Casting::unsafe); });
  cls.def_prop_rw(
      "imag", [](const ndarray& a) { return imag(a); },
      [](const ndarray& a, nb::handle value) {
        if (!is_complex(a.dtype())) throw TypeError("array does not have imaginary part to set");
        copyto(imag(a), operand_from_py(value, a.device()), Casting::unsafe);
      });
}

}  // namespace copper::python
