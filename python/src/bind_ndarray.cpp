// The ndarray class: attributes, host transfer, devices, dtype functions.
#include <Python.h>

#include <cstdio>

#include "bindings.h"
#include "interop.h"
#include "copper/fusion.hpp"

namespace copper::python {

namespace {

// CuPy's device_id of a memory block: the GPU's index, and -1 for host memory (CUDA's
// cudaCpuDeviceId), so CPU arrays never pass for GPU 0's.
int memory_device_id(Device d) { return d.type == DeviceType::cuda ? d.index : -1; }

std::string to_hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

// `size` bytes at p as a 1-d uint8 array (ValueError when they run past its block).
ndarray bytes_at(const MemoryPointer& p, std::int64_t size) {
  if (size < 0 || p.offset < 0 || p.offset + size > static_cast<std::int64_t>(p.mem->nbytes()))
    throw ValueError("the " + std::to_string(size) + " bytes at offset " + std::to_string(p.offset) +
                     " do not fit in the " + std::to_string(p.mem->nbytes()) + "-byte memory block");
  return ndarray(p.mem, uint8, Shape{size}, Strides{1}, p.offset);
}

void copy_bytes(const MemoryPointer& dst, const MemoryPointer& src, std::int64_t size) {
  if (size) copyto(bytes_at(dst, size), bytes_at(src, size), Casting::unsafe);
}

}  // namespace

namespace {

// ndarray.flags, as NumPy's (copper arrays are always writeable).
struct Flags {
  bool c_contiguous, f_contiguous, owndata, aligned;
  bool fnc() const { return f_contiguous && !c_contiguous; }
  bool forc() const { return f_contiguous || c_contiguous; }
  bool behaved() const { return aligned; }
  bool carray() const { return aligned && c_contiguous; }
  // NumPy tests (aligned | writeable | f_contiguous) != 0 here, so any non-C array counts.
  bool farray() const { return !c_contiguous; }
};

// NumPy's alignment rule: the first element and every stride that is used are multiples
// of the C type's alignment (complex: that of its parts).
bool is_aligned(const ndarray& a) {
  if (a.size() == 0) return true;
  const std::int64_t align = is_complex(a.dtype()) ? a.itemsize() / 2 : a.itemsize();
  if (reinterpret_cast<std::uintptr_t>(a.data()) % align) return false;
  for (int i = 0; i < a.ndim(); ++i)
    if (a.shape()[i] > 1 && a.strides()[i] % align) return false;
  return true;
}

Flags flags_of(const ndarray& a) { return Flags{a.is_c_contiguous(), a.is_f_contiguous(), !a.base(), is_aligned(a)}; }

// NumPy's ComplexWarning for casts that drop imaginary parts.
void warn_complex_discarded() {
  nb::object category = numpy().attr("exceptions").attr("ComplexWarning");
  if (PyErr_WarnEx(category.ptr(), "Casting complex values to real discards the imaginary part", 1) < 0)
    throw nb::python_error();
}

// CuPy's ndarray(shape, dtype=float, memptr=None, strides=None, order='C').
void construct(ndarray* self, nb::handle shape, nb::handle dtype, nb::handle memptr, nb::handle strides,
               nb::handle order) {
  const Shape s = shape_from_py(shape);
  const DType t = native_dtype_from_py(dtype);
  const Order o = order_from_py(order, Order::C) == Order::F ? Order::F : Order::C;
  std::optional<Strides> st;
  if (!strides.is_none()) st = nb::cast<Strides>(strides);
  if (memptr.is_none()) {
    ndarray a = empty(s, t, o);
    if (!st) {
      new (self) ndarray(std::move(a));
      return;
    }
    // Strides without memory: the array's own elements' worth, which the strides must not leave.
    try {
      new (self) ndarray(s, t, a.memptr(), st, o);
    } catch (const ValueError&) {
      throw ValueError("ndarray() with strides " + nb::cast<std::string>(nb::str(strides)) +
                       " and no memptr must stay within the " + std::to_string(a.nbytes()) +
                       " bytes of its elements");
    }
    return;
  }
  new (self) ndarray(s, t, nb::cast<const MemoryPointer&>(memptr), st, o);
}

// CuPy's ndarray.get(stream=None, order='C', out=None, blocking=True): the copy waits for
// the device either way, so stream and blocking change nothing.
nb::object get_py(const ndarray& a, nb::handle order, nb::handle out) {
  if (!out.is_none()) {
    if (!nb::cast<bool>(out.attr("flags").attr("c_contiguous")) && !nb::cast<bool>(out.attr("flags").attr("f_contiguous")))
      throw RuntimeError("Cannot set to non-contiguous array");
    if (nb::cast<Shape>(out.attr("shape")) != a.shape()) throw ValueError("Shape mismatch");
    if (dtype_from_py(out.attr("dtype")) != a.dtype()) throw TypeError("dtype mismatch");
    const bool fortran = !nb::cast<bool>(out.attr("flags").attr("c_contiguous"));
    Py_buffer view;
    if (PyObject_GetBuffer(out.ptr(), &view, PyBUF_WRITABLE | PyBUF_ANY_CONTIGUOUS) != 0) throw nb::python_error();
    try {
      // C order of a's transpose is F order of a.
      (fortran ? transpose(a) : a).copy_to_host(view.buf);
    } catch (...) {
      PyBuffer_Release(&view);
      throw;
    }
    PyBuffer_Release(&view);
    return nb::borrow(out);
  }
  Order o = order_from_py(order, Order::C);
  if (o == Order::A || o == Order::K) o = a.is_f_contiguous() ? Order::F : Order::C;
  if (o == Order::F) return to_numpy(transpose(a)).attr("T");
  return to_numpy(a);
}

}  // namespace

// CuPy's Memory (MemoryPointer.mem): the buffer a pointer points into.
struct MemoryBlock {
  std::shared_ptr<Buffer> buffer;
};

void bind_memory_pointer(nb::module_& m) {
  nb::class_<MemoryBlock>(m, "Memory", "A block of device memory (host memory on the CPU), as CuPy's Memory.")
      .def_prop_ro("size", [](const MemoryBlock& b) { return b.buffer->nbytes(); })
      .def_prop_ro("ptr", [](const MemoryBlock& b) { return MemoryPointer{b.buffer, 0}.ptr(); })
      .def_prop_ro("device_id", [](const MemoryBlock& b) { return memory_device_id(b.buffer->device()); })
      .def_prop_ro("device", [](const MemoryBlock& b) { return b.buffer->device(); });
  nb::class_<MemoryPointer>(m, "MemoryPointer",
                            "Where an array's memory starts, as CuPy's MemoryPointer: `ptr` is the device "
                            "address (the host address for CPU arrays), `mem` the block it points into. "
                            "Holding one keeps the memory alive.")
      .def_prop_ro("ptr", &MemoryPointer::ptr)
      .def_prop_ro("device_id", [](const MemoryPointer& p) { return memory_device_id(p.device()); })
      .def_prop_ro("device", &MemoryPointer::device)
      .def_prop_ro("mem", [](const MemoryPointer& p) { return MemoryBlock{p.mem}; })
      .def_ro("offset", &MemoryPointer::offset)
      .def("__int__", &MemoryPointer::ptr)
      .def("__add__", [](const MemoryPointer& p, std::int64_t n) { return p + n; })
      .def("__radd__", [](const MemoryPointer& p, std::int64_t n) { return p + n; })
      .def("__sub__", [](const MemoryPointer& p, std::int64_t n) { return p - n; })
      .def("copy_from_device",
           [](const MemoryPointer& dst, const MemoryPointer& src, std::int64_t size) { copy_bytes(dst, src, size); },
           nb::arg("src"), nb::arg("size"))
      .def("copy_from_host",
           [](const MemoryPointer& dst, std::uintptr_t mem, std::int64_t size) {
             copy_bytes(dst, array(reinterpret_cast<const void*>(mem), Shape{size}, uint8, dst.device()).memptr(), size);
           },
           nb::arg("mem"), nb::arg("size"))
      .def("copy_to_host",
           [](const MemoryPointer& src, std::uintptr_t mem, std::int64_t size) {
             bytes_at(src, size).copy_to_host(reinterpret_cast<void*>(mem));
           },
           nb::arg("mem"), nb::arg("size"))
      .def("memset",
           [](const MemoryPointer& p, int value, std::int64_t size) {
             if (size) copyto(bytes_at(p, size), Scalar(static_cast<std::int64_t>(value & 0xff)), Casting::unsafe);
           },
           nb::arg("value"), nb::arg("size"))
      .def("__repr__", [](const MemoryPointer& p) {
        return "<copper.MemoryPointer 0x" + to_hex(p.ptr()) + " on " + p.device().str() + ">";
      });
}

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
  // copper.x.allow_synchronize's per-thread flag.
  m.def("_synchronize_allowed", &synchronize_allowed);
  m.def("_set_synchronize_allowed", &set_synchronize_allowed);

  nb::class_<Flags>(m, "Flags")
      .def_ro("c_contiguous", &Flags::c_contiguous)
      .def_ro("f_contiguous", &Flags::f_contiguous)
      .def_ro("owndata", &Flags::owndata)
      .def_ro("aligned", &Flags::aligned)
      .def_prop_ro("writeable", [](const Flags&) { return true; })
      .def_prop_ro("writebackifcopy", [](const Flags&) { return false; })
      .def_prop_ro("fnc", &Flags::fnc)
      .def_prop_ro("forc", &Flags::forc)
      .def_prop_ro("behaved", &Flags::behaved)
      .def_prop_ro("carray", &Flags::carray)
      .def_prop_ro("farray", &Flags::farray)
      .def("__getitem__",
           [](const Flags& f, const std::string& key) {
             if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return f.c_contiguous;
             if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f.f_contiguous;
             if (key == "OWNDATA" || key == "O") return f.owndata;
             if (key == "WRITEABLE" || key == "W") return true;
             if (key == "ALIGNED" || key == "A") return f.aligned;
             if (key == "WRITEBACKIFCOPY" || key == "X") return false;
             if (key == "FNC") return f.fnc();
             if (key == "FORC") return f.forc();
             if (key == "BEHAVED" || key == "B") return f.behaved();
             if (key == "CARRAY" || key == "CA") return f.carray();
             if (key == "FARRAY" || key == "FA") return f.farray();
             throw nb::key_error(key.c_str());
           })
      .def("__repr__", [](const Flags& f) {
        auto b = [](bool v) { return v ? "True" : "False"; };
        return std::string("  C_CONTIGUOUS : ") + b(f.c_contiguous) + "\n  F_CONTIGUOUS : " + b(f.f_contiguous) +
               "\n  OWNDATA : " + b(f.owndata) + "\n  WRITEABLE : True\n  ALIGNED : " + b(f.aligned) +
               "\n  WRITEBACKIFCOPY : False\n";
      });
  bind_memory_pointer(m);

  cls.def("__init__", &construct, nb::arg("shape").none(), nb::arg("dtype") = nb::none(),
          nb::arg("memptr") = nb::none(), nb::arg("strides") = nb::none(), nb::arg("order").none() = "C");
  // Setting shape reshapes in place, as NumPy's does: only where no copy is needed.
  cls.def_prop_rw(
         "shape", [](const ndarray& a) { return nb::tuple(nb::cast(a.shape())); },
         [](ndarray& a, nb::handle shape) {
           const ndarray r = reshape(a, shape_from_py(shape));
           if (r.buffer() != a.buffer())
             throw nb::attribute_error(
                 "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.");
           a = ndarray(r.buffer(), r.dtype(), r.shape(), r.strides(), r.offset(), a.base());
         })
      .def_prop_ro("strides", [](const ndarray& a) { return nb::tuple(nb::cast(a.strides())); })
      .def_prop_ro("dtype", [](const ndarray& a) { return dtype_to_py(a.dtype()); })
      .def_prop_ro("ndim", &ndarray::ndim)
      .def_prop_ro("size", &ndarray::size)
      .def_prop_ro("nbytes", &ndarray::nbytes)
      .def_prop_ro("itemsize", &ndarray::itemsize)
      .def_prop_ro("device", &ndarray::device)
      .def_prop_ro("flags", &flags_of)
      .def_prop_ro("base", &base_object)
      .def_prop_ro("data", &ndarray::memptr)
      .def_prop_ro("data_ptr", [](const ndarray& a) { return reinterpret_cast<std::uintptr_t>(exported_data(a)); })
      .def("__len__",
           [](const ndarray& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def(
          "get", [](const ndarray& a, nb::handle, nb::handle order, nb::handle out, bool) { return get_py(a, order, out); },
          nb::arg("stream") = nb::none(), nb::arg("order").none() = "C", nb::arg("out") = nb::none(),
          nb::arg("blocking") = true)
      .def("item",
           [](const ndarray& a, nb::args args) {
             // NumPy's forms: item(), item(i) (flat), item(i, j, ...) and item((i, j, ...)).
             nb::handle list = args.size() == 1 && nb::isinstance<nb::tuple>(args[0]) ? args[0] : nb::handle(args);
             std::vector<std::int64_t> index;
             for (nb::handle h : list) {
               if (PyBool_Check(h.ptr())) throw TypeError("an integer is required");
               PyObject* i = PyNumber_Index(h.ptr());
               if (!i) throw nb::python_error();
               index.push_back(nb::cast<std::int64_t>(nb::steal(i)));
             }
             return scalar_to_py(index.empty() ? a.item() : a.item(index));
           })
      .def(
          "astype",
          [](nb::handle self, nb::handle dtype, nb::handle order, nb::handle casting, bool, bool copy) {
            const ndarray& a = nb::cast<const ndarray&>(self);
            Casting c = casting.is_none() ? Casting::unsafe : casting_from_py(casting);
            const DType t = native_dtype_from_py(dtype);
            ndarray r = a.astype(t, order_from_py(order, Order::K), c, copy);
            if (is_complex(a.dtype()) && !is_complex(t) && t != bool_) warn_complex_discarded();
            // copy=False hands back the array itself when nothing had to change (NumPy).
            return r.buffer() == a.buffer() && r.strides() == a.strides() ? nb::borrow(self) : nb::cast(std::move(r));
          },
          nb::arg("dtype"), nb::arg("order").none() = "K", nb::arg("casting") = nb::none(), nb::arg("subok") = true,
          nb::arg("copy") = true)
      .def("copy", [](const ndarray& a, nb::handle order) { return a.copy(order_from_py(order, Order::C)); },
           nb::arg("order").none() = "C")
      .def(
          "tobytes",
          [](const ndarray& a, nb::handle order) {
            // NumPy's bytes of the elements in C (or F, or A: F for Fortran-ordered arrays) order.
            nb::object o = order.is_none() ? nb::str("C") : nb::borrow(order);
            return get_py(a, o, nb::none()).attr("tobytes")(o);
          },
          nb::arg("order").none() = "C")
      // bytes(a): the elements' bytes in C order (what NumPy's buffer protocol gives); a 0-d
      // integer array is an integer to bytes() (Python asks __index__ first), as NumPy's.
      .def("__bytes__",
           [](nb::handle self) {
             const ndarray& a = nb::cast<const ndarray&>(self);
             if (a.ndim() == 0 && is_integer(a.dtype()))
               return nb::module_::import_("builtins").attr("bytes")(self.attr("__index__")());
             return get_py(a, nb::str("C"), nb::none()).attr("tobytes")();
           })
      .def("__copy__", [](const ndarray& a) { return a.copy(Order::K); })
      .def("__deepcopy__", [](const ndarray& a, nb::handle) { return a.copy(Order::K); })
      .def("__array__",
           [](const ndarray&, nb::args, nb::kwargs) -> nb::object {
             throw TypeError(
                 "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy "
                 "array explicitly.");
           })
      .def("__bool__",
           [](const ndarray& a) {
             if (a.size() == 0)
               throw ValueError(
                   "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is "
                   "not empty.");
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

  m.def(
      "byte_bounds",
      [](const ndarray& a) {
        // NumPy's byte_bounds: the first byte an array's elements use and one past the last.
        std::intptr_t lo = static_cast<std::intptr_t>(a.memptr().ptr()), hi = lo + a.itemsize();
        if (a.size() == 0) hi = lo;
        for (int i = 0; i < a.ndim() && a.size(); ++i) {
          const std::intptr_t span = (a.shape()[i] - 1) * a.strides()[i];
          (span < 0 ? lo : hi) += span;
        }
        return nb::make_tuple(lo, hi);
      },
      nb::arg("a"));
  m.def("asnumpy", [](nb::handle a) -> nb::object {
    if (nb::isinstance<ndarray>(a)) return to_numpy(nb::cast<const ndarray&>(a));
    if (auto gpu = from_cuda_array_interface(a)) return to_numpy(*gpu);  // another library's GPU array
    return numpy().attr("asarray")(a);
  });
}

}  // namespace copper::python
