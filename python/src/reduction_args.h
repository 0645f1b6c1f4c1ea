// Python arguments shared by the reduction, statistics and histogram bindings.
#pragma once
#include "convert.h"

namespace copper::python {

// operator.index(obj), raising NumPy's TypeError for floats, tuples, ...
int index_from_py(nb::handle obj);
// axis: None (all), an int, or a tuple/list of ints; NumPy's rules for 0-d arrays.
Axes axes_arg(nb::handle axis, int ndim);
// axis: None or one int.
std::optional<int> single_axis_arg(nb::handle axis);
// out: None or a copper array (TypeError otherwise).
// `out=`: None or a copper array; anything else is NumPy's TypeError (its ufunc wording by
// default; take/compress/choose pass theirs).
std::optional<ndarray> out_arg(nb::handle out, const char* not_an_array = "return arrays must be of ArrayType");
// What a function given out= returns: the caller's own out object (NumPy returns out
// itself, so `f(x, out=o) is o`), else the new result.
nb::object with_out(ndarray result, nb::handle out);
// A copper array as it is; anything else (NumPy arrays, lists, scalars) copied to the default device.
ndarray array_arg(nb::handle a);
// A reduction's where=: True (the default) -> nullopt; a copper array as it is; Python
// bools, lists and tuples as bool arrays (NumPy converts those with dtype=bool); other
// arrays as they are, so a float mask raises NumPy's casting TypeError.
std::optional<ndarray> where_arg(nb::handle where, Device device);
// A reduction's initial= into its options: left out (no_value(), the default) takes the
// identity, None takes it away (NumPy's "no initial value": an empty slice raises), else
// the scalar starts each slice.
template <class Options>
void set_initial(Options& o, nb::handle initial) {
  if (initial.is(no_value())) return;
  if (initial.is_none()) o.use_identity = false;
  else o.initial = scalar_from_py(initial);
}
// An optional array argument: None -> nullopt, else array_arg on `device`.
std::optional<ndarray> optional_array_arg(nb::handle a, Device device = default_device());

}  // namespace copper::python
