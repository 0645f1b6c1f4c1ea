// NumPy's `view.base is a`: a view made from a Python array names that Python object as its
// owner. The C++ owner handle (ndarray::base) of such a view points at the ndarray inside
// the owner's Python object and holds a reference to it (PythonOwner deleter), so `base`
// returns that very object. Views returned by methods of an owning array are linked by the
// caster below; conversions link their results explicitly (view_result).
#pragma once
#include <nanobind/nanobind.h>

#include <memory>
#include <type_traits>

#include "copper/ndarray.hpp"

namespace copper::python {

// Links view `r` (made from the Python array `source`) to source's owner object, and returns
// whether it did. No-op when r is not a view of source's memory.
bool link_owner(ndarray& r, PyObject* source) noexcept;
// The Python object `base` returns for view `a` (creating and linking one for a C++ owner).
nanobind::object base_object(nanobind::handle view);
// The Python object for `r`, a result computed from the Python array `source`.
nanobind::object view_result(nanobind::handle source, ndarray r);

}  // namespace copper::python

namespace nanobind::detail {

// Every ndarray returned to Python passes here: a view returned by a method (self = the array
// it was made from) is linked to self's owner before it gets its Python object.
template <>
struct type_caster<copper::ndarray> : type_caster_base<copper::ndarray> {
  template <typename T>
  static handle from_cpp(T&& value, rv_policy policy, cleanup_list* cleanup) noexcept {
    if constexpr (!std::is_pointer_v<std::remove_reference_t<T>>) {
      if (cleanup && cleanup->self() && value.base()) {
        copper::ndarray linked = value;
        if (copper::python::link_owner(linked, cleanup->self()))
          return type_caster_base<copper::ndarray>::from_cpp(std::move(linked), rv_policy::move, cleanup);
      }
    }
    return type_caster_base<copper::ndarray>::from_cpp(std::forward<T>(value), policy, cleanup);
  }
};

}  // namespace nanobind::detail
