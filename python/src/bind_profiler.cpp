// copper._core._profiler: benchmark() over a Python callable; copper/profiler.py shapes
// the result as CuPy's (NumPy arrays of seconds, str()).
#include <cmath>

#include "bindings.h"
#include "copper/profiler.hpp"

namespace copper::python {

void bind_profiler(nb::module_& m) {
  nb::module_ prof = m.def_submodule("_profiler", "timing utilities (see copper.profiler)");
  nb::class_<profiler::BenchmarkResult>(prof, "BenchmarkResult")
      .def_ro("name", &profiler::BenchmarkResult::name)
      .def_ro("devices", &profiler::BenchmarkResult::devices)
      .def_ro("cpu_times", &profiler::BenchmarkResult::cpu_times)
      .def_ro("gpu_times", &profiler::BenchmarkResult::gpu_times)
      .def("to_str", &profiler::BenchmarkResult::to_string, nb::arg("show_gpu") = true);
  prof.def(
      "benchmark",
      [](nb::callable func, nb::tuple args, nb::dict kwargs, int n_repeat, std::string name, int n_warmup,
         double max_duration, std::optional<std::vector<int>> devices) {
        profiler::BenchmarkOptions options;
        options.n_repeat = n_repeat;
        options.n_warmup = n_warmup;
        options.max_duration = max_duration;
        options.devices = std::move(devices);
        options.name = std::move(name);
        // Called straight through the C API: the timing should include the user's call only.
        PyObject* callable = func.ptr();
        PyObject* positional = args.ptr();
        PyObject* keywords = PyDict_Size(kwargs.ptr()) ? kwargs.ptr() : nullptr;
        return profiler::benchmark(
            [&] {
              PyObject* result = PyObject_Call(callable, positional, keywords);
              if (!result) throw nb::python_error();
              Py_DECREF(result);
            },
            options);
      },
      nb::arg("func"), nb::arg("args"), nb::arg("kwargs"), nb::arg("n_repeat"), nb::arg("name"), nb::arg("n_warmup"),
      nb::arg("max_duration"), nb::arg("devices").none());
}

}  // namespace copper::python
