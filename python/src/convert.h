// Conversions between Python objects and copper values, shared by every binding file.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <initializer_list>
#include <span>

#include "copper/copper.hpp"
#include "ndarray_owner.h"

namespace copper::python {
namespace nb = nanobind;

nb::handle numpy();                         // the imported numpy module
// numpy._NoValue: the default of a keyword whose None means something (clip's bounds,
// a reduction's initial=), so that one left out is told apart.
nb::handle no_value();
DType dtype_from_py(nb::handle obj);        // anything numpy.dtype() accepts; TypeError otherwise
std::optional<DType> optional_dtype(nb::handle obj);  // None -> nullopt
// The dtype= of a function that makes an array: also ValueError for a non-native byte order.
DType native_dtype_from_py(nb::handle obj);
std::optional<DType> optional_native_dtype(nb::handle obj);
nb::object dtype_to_py(DType t);            // a numpy.dtype object
Device device_from_py(nb::handle obj);      // None -> default device; "cpu", "cuda:0", Device
Casting casting_from_py(nb::handle obj);    // "same_kind", ...
// 'C', 'F', 'A', 'K' (either case); None -> if_none. TypeError for non-strings, ValueError
// with NumPy's message for other strings.
Order order_from_py(nb::handle obj, Order if_none);
// NumPy's like=: None, a copper array, or anything with __array_function__ (TypeError
// otherwise). copper answers the call itself either way.
void check_like(nb::handle like);
// NumPy 2's copy=: None -> nullopt (copy when needed), else its truth value.
std::optional<bool> copy_flag_from_py(nb::handle obj);

// Python ints, floats, complex and bools become weak scalars; copper arrays pass
// through; NumPy scalars, NumPy arrays and sequences are copied to `device` (strong).
operand operand_from_py(nb::handle obj, Device device);
bool is_python_scalar(nb::handle obj);
Scalar scalar_from_py(nb::handle obj);      // Python or NumPy scalar; TypeError otherwise
nb::object scalar_to_py(const Scalar& s);   // to a Python bool/int/float/complex
// A copper array from any array-like (copper array: as is; else through numpy.asarray),
// C-contiguous when copied from the host.
ndarray array_from_py(nb::handle obj, std::optional<DType> dtype, Device device);
// A host array-like (not a copper array) copied to `device`, laid out as NumPy's result of
// numpy.array(obj, dtype, copy=copy, order=order, ndmin=ndmin) (with copy=None, as NumPy's
// copy where NumPy would hand back a view). Dtypes copper lacks (object, structured,
// strings) raise ValueError for a conversion (array(), asarray()), else TypeError.
ndarray host_array_from_py(nb::handle obj, std::optional<DType> dtype, Device device, Order order, int ndmin,
                           std::optional<bool> copy, bool conversion = true);
// A copper array with a NumPy array's shape, dtype and strides but no memory: the layout
// source for empty_like and friends given a host prototype.
ndarray layout_of_numpy(nb::handle np_array);
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
