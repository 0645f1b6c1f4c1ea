// copper.RawKernel and copper.RawModule (CuPy's): CUDA C++ source compiled with NVRTC
// and launched as kernel(grid, block, args, shared_mem=0). The launch path converts
// the Python arguments straight into KernelArgs here, with no Python-level wrapper.
#include <Python.h>

#include <nanobind/stl/map.h>

#include <fstream>
#include <iterator>

#include "bindings.h"
#include "copper/raw_kernel.hpp"

namespace copper::python {
namespace {

std::int64_t int64_from_py(nb::handle h, const char* what) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    throw TypeError(std::string(what) + " must be an int or a tuple of 1 to 3 ints, not " +
                    nb::type_name(h.type()).c_str());
  nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) return overflow > 0 ? INT64_MAX : INT64_MIN;  // reported as too large / below 1
  return v;
}

// An int, or a tuple/list of 1 to 3 ints, as CUDA's dim3.
Dim3 dim3_from_py(nb::handle h, const char* what) {
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    if (n < 1 || n > 3)
      throw ValueError(std::string(what) + " must have 1 to 3 sizes, got " + std::to_string(n));
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    std::int64_t d[3] = {1, 1, 1};
    for (Py_ssize_t i = 0; i < n; ++i) d[i] = int64_from_py(items[i], what);
    return Dim3(d[0], d[1], d[2]);
  }
  return Dim3(int64_from_py(h, what));
}

bool is_numpy_generic(nb::handle h) {
  static nb::handle generic = nb::object(numpy().attr("generic")).release();
  return PyObject_IsInstance(h.ptr(), generic.ptr()) == 1;
}

// A NumPy void scalar (a structured dtype's element, such as
// np.dtype([('x', 'f4'), ('y', 'f4')]) for a float2) passes its bytes as they are: the
// caller lays the fields out as the kernel's struct is laid out (align=True matches C).
KernelArg struct_arg(nb::handle h, const std::string& where) {
  nb::object dtype = h.attr("dtype");
  if (nb::cast<bool>(dtype.attr("hasobject")))
    throw TypeError(where + " is a structured scalar with Python-object fields (" +
                    nb::cast<std::string>(nb::str(dtype)) + "), which has no meaning on the GPU");
  nb::bytes raw = nb::bytes(h.attr("tobytes")());
  return KernelArg::bytes(raw.c_str(), raw.size());
}

// One argument: copper arrays pass their data pointer; Python and NumPy scalars their
// value (Python int -> int64, float -> float64, complex -> complex128, bool -> bool, as
// CuPy; NumPy scalars their own dtype; structured ones their bytes); None a null
// pointer; objects with __cuda_array_interface__ their data pointer.
KernelArg arg_from_py(nb::handle h, std::size_t i, const RawKernel& kernel) {
  if (nb::isinstance<ndarray>(h)) return KernelArg(nb::cast<const ndarray&>(h));
  PyObject* p = h.ptr();
  if (p == Py_None) return KernelArg(nullptr);
  if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p)) return KernelArg(scalar_from_py(h));
  const std::string where = "RawKernel '" + kernel.name() + "': argument " + std::to_string(i);
  if (is_numpy_generic(h)) {
    static nb::handle void_type = nb::object(numpy().attr("void")).release();
    if (PyObject_IsInstance(p, void_type.ptr()) == 1) return struct_arg(h, where);
    return KernelArg(scalar_from_py(h));
  }
  if (nb::hasattr(h, "__cuda_array_interface__")) {
    nb::object data = h.attr("__cuda_array_interface__")["data"];
    return KernelArg::device_pointer(nb::cast<std::uintptr_t>(data[0]));
  }
  if (nb::isinstance(h, numpy().attr("ndarray")))
    throw TypeError(where + " is a numpy.ndarray in host memory; kernel arguments must be arrays on the GPU "
                            "(copper.asarray(x))");
  throw TypeError(where + " has unsupported type " + nb::type_name(h.type()).c_str() +
                  " (expected a copper array, a scalar or None)");
}

void launch_from_py(const RawKernel& kernel, nb::handle grid, nb::handle block, nb::handle args,
                    nb::handle shared_mem, nb::handle stream) {
  if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
    throw TypeError("RawKernel '" + kernel.name() + "': args must be a tuple, not " +
                    nb::type_name(args.type()).c_str());
  const Dim3 g = dim3_from_py(grid, "grid"), b = dim3_from_py(block, "block");
  std::int64_t shared = 0;
  if (!shared_mem.is_none()) {
    if (PyBool_Check(shared_mem.ptr()) || !PyIndex_Check(shared_mem.ptr()))
      throw TypeError("shared_mem must be an int");
    shared = int64_from_py(shared_mem, "shared_mem");
    if (shared < 0) throw ValueError("shared_mem must be non-negative, got " + std::to_string(shared));
  }
  const copper::cuda::Stream* s = nullptr;
  if (!stream.is_none()) {
    if (!nb::isinstance<copper::cuda::Stream>(stream)) throw TypeError("stream must be a copper.cuda.Stream or None");
    s = &nb::cast<const copper::cuda::Stream&>(stream);
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(args.ptr());
  PyObject** items = PySequence_Fast_ITEMS(args.ptr());
  std::vector<KernelArg> packed;
  packed.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) packed.push_back(arg_from_py(items[i], static_cast<std::size_t>(i), kernel));
  kernel.launch(g, b, packed, static_cast<std::size_t>(shared), s);
}

std::vector<std::string> strings_from_py(nb::handle h, const char* what) {
  std::vector<std::string> out;
  if (h.is_none()) return out;
  if (nb::isinstance<nb::str>(h))
    throw TypeError(std::string(what) + " must be a tuple of strings, not a single string");
  for (nb::handle item : nb::iter(h)) {
    if (!nb::isinstance<nb::str>(item)) throw TypeError(std::string(what) + " must contain only strings");
    out.push_back(nb::cast<std::string>(item));
  }
  return out;
}

// CuPy's compiler switches: only what copper implements is accepted.
void check_compiler_flags(const std::string& backend, bool translate_cucomplex, bool jitify) {
  if (backend == "nvcc")
    throw NotImplementedError("copper compiles user kernels with NVRTC only (backend='nvrtc')");
  if (backend != "nvrtc") throw ValueError("Invalid backend " + backend + " (expected 'nvrtc')");
  if (translate_cucomplex) throw NotImplementedError("translate_cucomplex=True is not supported by copper");
  if (jitify) throw NotImplementedError("jitify=True is not supported by copper");
}

nb::tuple strings_to_tuple(const std::vector<std::string>& v) {
  nb::list l;
  for (const auto& s : v) l.append(nb::str(s.c_str(), s.size()));
  return nb::tuple(l);
}

void bind_raw_kernel(nb::module_& m) {
  nb::class_<RawKernel> cls(
      m, "RawKernel",
      "A __global__ function of CUDA C++ source, compiled with NVRTC on first use per GPU and launched as "
      "kernel(grid, block, args, shared_mem=0). GPU only.");
  cls.def(
         "__init__",
         [](RawKernel* self, std::string code, std::string name, nb::handle options, std::string backend,
            bool translate_cucomplex, bool enable_cooperative_groups, bool jitify) {
           check_compiler_flags(backend, translate_cucomplex, jitify);
           new (self) RawKernel(std::move(code), std::move(name), strings_from_py(options, "options"),
                                enable_cooperative_groups);
         },
         nb::arg("code"), nb::arg("name"), nb::arg("options") = nb::tuple(), nb::arg("backend") = "nvrtc",
         nb::arg("translate_cucomplex") = false, nb::kw_only(), nb::arg("enable_cooperative_groups") = false,
         nb::arg("jitify") = false)
      .def(
          "__call__",
          [](const RawKernel& k, nb::handle grid, nb::handle block, nb::handle args, nb::handle shared_mem,
             nb::handle stream) { launch_from_py(k, grid, block, args, shared_mem, stream); },
          nb::arg("grid"), nb::arg("block"), nb::arg("args"), nb::kw_only(), nb::arg("shared_mem") = 0,
          nb::arg("stream") = nb::none(),
          "Launches on the current stream (or `stream`) of the GPU the array arguments live on.")
      .def(
          "compile", [](const RawKernel& k, nb::handle) { k.compile(); }, nb::arg("log_stream") = nb::none(),
          nb::call_guard<nb::gil_scoped_release>(),
          "Compiles now (for sm_90 as a check where no GPU is usable); raises CompileError with NVRTC's log.")
      .def_prop_ro("code", &RawKernel::code)
      .def_prop_ro("name", &RawKernel::name)
      .def_prop_ro("options", [](const RawKernel& k) { return strings_to_tuple(k.options()); })
      .def_prop_ro("backend", [](const RawKernel&) { return "nvrtc"; })
      .def_prop_ro("enable_cooperative_groups", &RawKernel::enable_cooperative_groups)
      .def_prop_ro("attributes", &RawKernel::attributes)
      .def_prop_rw(
          "max_dynamic_shared_size_bytes",
          [](const RawKernel& k) { return k.attribute("max_dynamic_shared_size_bytes"); },
          [](const RawKernel& k, int v) { k.set_max_dynamic_shared_size_bytes(v); })
      .def_prop_rw(
          "preferred_shared_memory_carveout",
          [](const RawKernel& k) { return k.attribute("preferred_shared_memory_carveout"); },
          [](const RawKernel& k, int v) { k.set_preferred_shared_memory_carveout(v); })
      .def("__repr__", [](const RawKernel& k) { return "<copper.RawKernel '" + k.name() + "'>"; });
  for (const char* name : {"max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
                           "num_regs", "ptx_version", "binary_version", "cache_mode_ca"}) {
    cls.def_prop_ro(name, [name](const RawKernel& k) { return k.attribute(name); });
  }
}

void bind_raw_module(nb::module_& m) {
  nb::class_<RawModule>(m, "RawModule",
                        "CUDA C++ source with any number of kernels (templated ones through name_expressions), "
                        "compiled with NVRTC; get_function(name) returns a RawKernel. GPU only.")
      .def(
          "__init__",
          [](RawModule* self, nb::handle code, nb::handle path, nb::handle options, std::string backend,
             bool translate_cucomplex, bool enable_cooperative_groups, nb::handle name_expressions, bool jitify) {
            check_compiler_flags(backend, translate_cucomplex, jitify);
            if (code.is_none() == path.is_none())
              throw ValueError("Exactly one of code and path keyword arguments must be given.");
            if (!path.is_none()) {
              if (!name_expressions.is_none())
                throw ValueError("name_expressions is only valid when compiling from code");
              const std::string file = nb::cast<std::string>(nb::str(path));
              std::ifstream in(file, std::ios::binary);
              if (!in) throw ValueError("cannot read the module file " + file);
              std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
              new (self) RawModule(RawModule::from_image(std::move(image), enable_cooperative_groups));
              return;
            }
            if (!nb::isinstance<nb::str>(code)) throw TypeError("code must be a str");
            new (self) RawModule(nb::cast<std::string>(code), strings_from_py(options, "options"),
                                 strings_from_py(name_expressions, "name_expressions"), enable_cooperative_groups);
          },
          nb::arg("code") = nb::none(), nb::kw_only(), nb::arg("path") = nb::none(),
          nb::arg("options") = nb::tuple(), nb::arg("backend") = "nvrtc", nb::arg("translate_cucomplex") = false,
          nb::arg("enable_cooperative_groups") = false, nb::arg("name_expressions") = nb::none(),
          nb::arg("jitify") = false)
      .def("get_function", &RawModule::get_function, nb::arg("name"))
      .def(
          "get_global",
          [](const RawModule& mod, const std::string& name, nb::handle dtype) {
            return mod.get_global(name, dtype.is_none() ? DType::uint8 : dtype_from_py(dtype));
          },
          nb::arg("name"), nb::arg("dtype") = nb::none(),
          "The __device__/__constant__ variable `name` on the current GPU, as a 1-d array over its bytes "
          "(of `dtype`, uint8 by default); writing to the array changes the variable.")
      .def(
          "compile", [](const RawModule& mod, nb::handle) { mod.compile(); }, nb::arg("log_stream") = nb::none(),
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("code", &RawModule::code)
      .def_prop_ro("options", [](const RawModule& mod) { return strings_to_tuple(mod.options()); })
      .def_prop_ro("name_expressions",
                   [](const RawModule& mod) -> nb::object {
                     if (mod.name_expressions().empty()) return nb::none();
                     return strings_to_tuple(mod.name_expressions());
                   })
      .def_prop_ro("backend", [](const RawModule&) { return "nvrtc"; });
}

}  // namespace

void bind_raw_kernels(nb::module_& m) {
  bind_raw_kernel(m);
  bind_raw_module(m);
}

}  // namespace copper::python
