// copper.ufunc's methods with NumPy's signatures: reduce, accumulate, reduceat, outer
// and at. Each converts its arguments and calls the C++ ufunc object's method.
#include "reduction_args.h"
#include "ufunc_type.h"

namespace copper::python {

namespace {

// An out= argument of a reduction: None, an array, or a 1-tuple holding one.
std::optional<ndarray> reduce_out(nb::handle out) {
  if (!out.is_valid() || out.is_none()) return std::nullopt;
  if (nb::isinstance<nb::tuple>(out)) {
    nb::tuple t = nb::borrow<nb::tuple>(out);
    if (t.size() != 1) throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
    return reduce_out(t[0]);
  }
  if (!nb::isinstance<ndarray>(out)) throw TypeError("output must be an array");
  return nb::cast<const ndarray&>(out);
}

ndarray array_arg(nb::handle x, nb::handle out) {
  if (nb::isinstance<ndarray>(x)) return nb::cast<const ndarray&>(x);
  const Device device = out.is_valid() && nb::isinstance<ndarray>(out) ? nb::cast<const ndarray&>(out).device()
                                                                      : default_device();
  return array_from_py(x, std::nullopt, device);
}

nb::object result(ndarray r, nb::handle out) {
  if (out.is_valid() && !out.is_none()) return nb::borrow(nb::isinstance<nb::tuple>(out) ? nb::borrow<nb::tuple>(out)[0] : out);
  return nb::cast(std::move(r));
}

int axis_arg(nb::handle axis) {
  if (axis.is_none()) throw TypeError("'NoneType' object cannot be interpreted as an integer");
  return nb::cast<int>(axis);
}

}  // namespace

void bind_ufunc_methods(nb::handle type) {
  nb::cpp_function_def(
      [](nb::handle self, nb::handle array, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,
         nb::handle initial, nb::handle where) -> nb::object {
        const ufunc u(ufunc_id(self));
        const ndarray a = array_arg(array, out);
        UfuncReduceOptions opts;
        opts.dtype = optional_dtype(dtype);
        opts.out = reduce_out(out);
        opts.keepdims = keepdims;
        set_initial(opts, initial);
        opts.where = where_arg(where, a.device());
        const auto axes = axes_from_py(axis);
        return result(u.reduce(a, axes ? Axes(*axes) : Axes(), opts), out);
      },
      nb::scope(type), nb::name("reduce"), nb::is_method(), nb::arg("array"), nb::arg("axis").none() = 0,
      nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false,
      nb::arg("initial").none() = no_value(), nb::arg("where").none() = true);

  nb::cpp_function_def(
      [](nb::handle self, nb::handle array, nb::handle axis, nb::handle dtype, nb::handle out) -> nb::object {
        const ufunc u(ufunc_id(self));
        const ndarray a = array_arg(array, out);
        return result(u.accumulate(a, axis_arg(axis), optional_dtype(dtype), reduce_out(out)), out);
      },
      nb::scope(type), nb::name("accumulate"), nb::is_method(), nb::arg("array"), nb::arg("axis").none() = 0,
      nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());

  nb::cpp_function_def(
      [](nb::handle self, nb::handle array, nb::handle indices, nb::handle axis, nb::handle dtype,
         nb::handle out) -> nb::object {
        const ufunc u(ufunc_id(self));
        const ndarray a = array_arg(array, out);
        const ndarray idx = array_arg(indices, nb::handle());
        return result(u.reduceat(a, idx, axis_arg(axis), optional_dtype(dtype), reduce_out(out)), out);
      },
      nb::scope(type), nb::name("reduceat"), nb::is_method(), nb::arg("array"), nb::arg("indices"),
      nb::arg("axis").none() = 0, nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());

  // outer(A, B, **kwargs): A gets B.ndim trailing axes, then the ufunc's own call
  // (every keyword of __call__ works).
  nb::cpp_function_def(
      [](nb::handle self, nb::handle a, nb::handle b, nb::kwargs kwargs) -> nb::object {
        const ufunc u(ufunc_id(self));
        if (u.nin() != 2) throw ValueError("outer product only supported for binary functions");
        const ndarray bb = array_arg(b, nb::handle());
        ndarray aa = nb::isinstance<ndarray>(a) ? nb::cast<const ndarray&>(a) : array_from_py(a, std::nullopt, bb.device());
        Shape shape = aa.shape();
        shape.insert(shape.end(), static_cast<std::size_t>(bb.ndim()), 1);
        nb::object call = nb::borrow(self);
        return call(*nb::make_tuple(aa.reshape(shape), nb::cast(bb)), **kwargs);
      },
      nb::scope(type), nb::name("outer"), nb::is_method(), nb::arg("A"), nb::arg("B"), nb::arg("kwargs"));

  // at(a, indices, b=None): in place, unbuffered; `a` must be a copper array.
  nb::cpp_function_def(
      [](nb::handle self, nb::handle a, nb::handle indices, nb::handle b) {
        const ufunc u(ufunc_id(self));
        if (!nb::isinstance<ndarray>(a)) throw TypeError("ufunc.at requires a copper array as its first operand");
        const ndarray& arr = nb::cast<const ndarray&>(a);
        const Index index = index_key_from_py(indices, arr.device());
        if (b.is_none()) return u.at(arr, index);
        u.at(arr, index, operand_from_py(b, arr.device()));
      },
      nb::scope(type), nb::name("at"), nb::is_method(), nb::arg("a"), nb::arg("indices").none(),
      nb::arg("b").none() = nb::none());
}

}  // namespace copper::python
