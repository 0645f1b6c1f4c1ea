// Conversions between Python objects and copper values, shared by every binding file.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <initializer_list>
#include <span>

#include "copper/copper.hpp"

namespace copper::python {
namespace nb = nanobind;

nb::handle numpy();                         // the imported numpy module
DType dtype_from_py(nb::handle obj);        // anything numpy.dtype() accepts; TypeError otherwise
std::optional<DType> optional_dtype(nb::handle obj);  // None -> nullopt
nb::object dtype_to_py(DType t);            // a numpy.dtype object
Device device_from_py(nb::handle obj);      // None -> default device; "cpu", "cuda:0", Device
Casting casting_from_py(nb::handle obj);    // "same_kind", ...

// Python ints, floats, complex and bools become weak scalars; copper arrays pass
// through; NumPy scalars, NumPy arrays and sequences are copied to `device` (strong).
operand operand_from_py(nb::handle obj, Device device);
bool is_python_scalar(nb::handle obj);
Scalar scalar_from_py(nb::handle obj);      // Python or NumPy scalar; TypeError otherwise
nb::object scalar_to_py(const Scalar& s);   // to a Python bool/int/float/complex
// A copper array from any array-like (copper array: as is; else through numpy.asarray).
ndarray array_from_py(nb::handle obj, std::optional<DType> dtype, Device device);
// Whether `a`, made by array_from_py(obj, ...), uses obj's memory rather than a copy of it
// (a copper array, or another library's GPU array imported without a copy).
bool shares_memory_with_source(nb::handle obj, const ndarray& a);
nb::object to_numpy(const ndarray& a);
Shape shape_from_py(nb::handle obj);        // int or sequence of ints
std::optional<std::vector<int>> axes_from_py(nb::handle obj);  // None, int, or tuple
// The device of the first copper array among `objects` (invalid handles skipped), else the default.
Device device_of(std::span<const nb::handle> objects);
inline Device device_of(std::initializer_list<nb::handle> objects) {
  return device_of(std::span<const nb::handle>(objects.begin(), objects.size()));
}

}  // namespace copper::python
