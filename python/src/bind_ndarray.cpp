// The ndarray class: attributes, host transfer, devices, dtype functions.
#include <Python.h>

#include "bindings.h"
#include "interop.h"

namespace copper::python {

namespace {
struct Flags {
  bool c_contiguous, f_contiguous, owndata;
};
}  // namespace

void bind_dtypes(nb::module_& m) {
  m.def("result_type_of", [](nb::args args) {
    // Arrays and dtypes are strong; Python scalars are weak (NEP 50).
    std::vector<operand> ops;
    for (nb::handle a : args) {
      if (nb::isinstance<ndarray>(a)) {
        ops.emplace_back(nb::cast<const ndarray&>(a));
      } else if (is_python_scalar(a) && !nb::hasattr(a, "dtype")) {
        ops.emplace_back(scalar_from_py(a));
      } else {
        // A scalar type (numpy.float32) has a class-level dtype descriptor, not a dtype.
        bool has_dtype = nb::hasattr(a, "dtype") && !nb::isinstance<nb::type_object>(a);
        DType t = has_dtype ? dtype_from_py(a.attr("dtype")) : dtype_from_py(a);
        ops.emplace_back(empty(Shape{0}, t, cpu));
      }
    }
    return dtype_to_py(result_type(ops));
  });
  m.def("promote_types", [](nb::handle a, nb::handle b) {
    return dtype_to_py(promote_types(dtype_from_py(a), dtype_from_py(b)));
  });
  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to, nb::handle casting) {
        DType f = nb::isinstance<ndarray>(from) ? nb::cast<const ndarray&>(from).dtype()
                  : nb::hasattr(from, "dtype") && !nb::isinstance<nb::type_object>(from)
                      ? dtype_from_py(from.attr("dtype"))
                      : dtype_from_py(from);
        return can_cast(f, dtype_from_py(to), casting_from_py(casting));
      },
      nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe");
}

void bind_ndarray(nb::module_& m, ArrayClass& cls) {
  nb::class_<Device>(m, "Device")
      .def("__init__", [](Device* d, nb::handle spec) { new (d) Device(device_from_py(spec)); })
      .def_prop_ro("type", [](const Device& d) { return d.type == DeviceType::cpu ? "cpu" : "cuda"; })
      .def_prop_ro("id", [](const Device& d) { return d.index; })
      .def("__eq__", [](const Device& a, const Device& b) { return a == b; })
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.type) * 1000 + d.index; })
      .def("__str__", &Device::str)
      .def("__repr__", [](const Device& d) { return "<copper.Device " + d.str() + ">"; });
  m.def("get_default_device", &default_device);
  m.def("set_default_device", [](nb::handle d) { set_default_device(device_from_py(d)); });
  m.def("get_num_threads", &get_num_threads);
  m.def("set_num_threads", &set_num_threads);
  m.def("synchronize", [](nb::handle d) { synchronize(device_from_py(d)); }, nb::arg("device") = nb::none());

  nb::class_<Flags>(m, "Flags")
      .def_ro("c_contiguous", &Flags::c_contiguous)
      .def_ro("f_contiguous", &Flags::f_contiguous)
      .def_ro("owndata", &Flags::owndata)
      .def_prop_ro("writeable", [](const Flags&) { return true; })
      .def("__getitem__",
           [](const Flags& f, const std::string& key) {
             if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return f.c_contiguous;
             if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f.f_contiguous;
             if (key == "OWNDATA" || key == "O") return f.owndata;
             if (key == "WRITEABLE" || key == "W") return true;
             throw nb::key_error(key.c_str());
           })
      .def("__repr__", [](const Flags& f) {
        auto b = [](bool v) { return v ? "True" : "False"; };
        return std::string("  C_CONTIGUOUS : ") + b(f.c_contiguous) + "\n  F_CONTIGUOUS : " + b(f.f_contiguous) +
               "\n  OWNDATA : " + b(f.owndata) + "\n  WRITEABLE : True";
      });

  cls.def_prop_ro("shape", [](const ndarray& a) { return nb::tuple(nb::cast(a.shape())); })
      .def_prop_ro("strides", [](const ndarray& a) { return nb::tuple(nb::cast(a.strides())); })
      .def_prop_ro("dtype", [](const ndarray& a) { return dtype_to_py(a.dtype()); })
      .def_prop_ro("ndim", &ndarray::ndim)
      .def_prop_ro("size", &ndarray::size)
      .def_prop_ro("nbytes", &ndarray::nbytes)
      .def_prop_ro("itemsize", &ndarray::itemsize)
      .def_prop_ro("device", &ndarray::device)
      .def_prop_ro("flags",
                   [](const ndarray& a) { return Flags{a.is_c_contiguous(), a.is_f_contiguous(), !a.base()}; })
      .def_prop_ro("base",
                   [](const ndarray& a) -> nb::object {
                     if (!a.base()) return nb::none();
                     return nb::cast(*a.base());
                   })
      .def_prop_ro("data_ptr", [](const ndarray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); })
      .def("__len__",
           [](const ndarray& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def("get", [](const ndarray& a) { return to_numpy(a); })
      .def("item",
           [](const ndarray& a) { return scalar_to_py(a.item()); })
      .def(
          "astype",
          [](const ndarray& a, nb::handle dtype, nb::handle casting, bool copy) {
            Casting c = casting.is_none() ? Casting::unsafe : casting_from_py(casting);
            return a.astype(dtype_from_py(dtype), c, copy);
          },
          nb::arg("dtype"), nb::arg("casting") = nb::none(), nb::arg("copy") = true)
      .def("copy", [](const ndarray& a) { return a.copy(); })
      .def("__copy__", [](const ndarray& a) { return a.copy(); })
      .def("__deepcopy__", [](const ndarray& a, nb::handle) { return a.copy(); })
      .def("__array__",
           [](const ndarray&, nb::args, nb::kwargs) -> nb::object {
             throw TypeError(
                 "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy "
                 "array explicitly.");
           })
      .def("__bool__",
           [](const ndarray& a) {
             if (a.size() != 1)
               throw ValueError(
                   "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
             return a.item().to_bool();
           })
      .def("__int__", [](const ndarray& a) { return nb::int_(scalar_to_py(a.item())); })
      .def("__float__", [](const ndarray& a) { return nb::float_(scalar_to_py(a.item())); })
      .def("__complex__",
           [](const ndarray& a) {
             auto c = a.item().to_complex();
             return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
           })
      .def("__index__", [](const ndarray& a) {
        if ((!is_integer(a.dtype()) && a.dtype() != bool_) || a.size() != 1)
          throw TypeError("only integer scalar arrays can be converted to a scalar index");
        return nb::int_(scalar_to_py(a.item()));
      });

  m.def("asnumpy", [](nb::handle a) -> nb::object {
    if (nb::isinstance<ndarray>(a)) return to_numpy(nb::cast<const ndarray&>(a));
    if (auto gpu = from_cuda_array_interface(a)) return to_numpy(*gpu);  // another library's GPU array
    return numpy().attr("asarray")(a);
  });
}

}  // namespace copper::python
