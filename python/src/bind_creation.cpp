// Array creation from Python with NumPy 2's signatures (order=, copy=, ndmin=, subok=,
// like=); copper's `device` is keyword-only, so no NumPy call can land in it.
#include <Python.h>

#include "bindings.h"
#include "interop.h"

namespace copper::python {

namespace {

Order c_or_f(nb::handle order) {
  const Order o = order_from_py(order, Order::C);
  if (o != Order::C && o != Order::F) throw ValueError("only 'C' or 'F' order is permitted");
  return o;
}

std::optional<Device> optional_device(nb::handle device) {
  if (device.is_none()) return std::nullopt;
  return device_from_py(device);
}

bool is_scalar_fill(nb::handle v) {
  static nb::handle generic = nb::object(numpy().attr("generic")).release();
  return is_python_scalar(v) || PyObject_IsInstance(v.ptr(), generic.ptr()) == 1;
}

// NumPy's full/full_like: the fill value is copied in with casting='unsafe', broadcast when it is an array.
ndarray fill_with(ndarray out, nb::handle fill_value) {
  if (is_scalar_fill(fill_value)) {
    if (out.size()) copyto(out, scalar_from_py(fill_value), Casting::unsafe);
  } else {
    copyto(out, operand_from_py(fill_value, out.device()), Casting::unsafe);
  }
  return out;
}

// The dtype NumPy's full gives without dtype=: the fill value's (asarray(fill_value).dtype).
DType fill_dtype(nb::handle fill_value) {
  if (nb::isinstance<ndarray>(fill_value)) return nb::cast<const ndarray&>(fill_value).dtype();
  if (is_scalar_fill(fill_value)) return scalar_from_py(fill_value).dtype();
  return dtype_from_py(numpy().attr("asarray")(fill_value).attr("dtype"));
}

// The prototype of a _like function: a copper array, else the layout of numpy.asarray(a).
ndarray prototype_from_py(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return nb::cast<const ndarray&>(a);
  return layout_of_numpy(numpy().attr("asarray")(a));
}

ndarray like_py(nb::handle a, nb::handle dtype, nb::handle order, nb::handle shape, nb::handle device) {
  ndarray proto = prototype_from_py(a);
  std::optional<Device> dev = optional_device(device);
  if (!dev && !proto.valid()) dev = default_device();  // a host prototype: the default device
  std::optional<Shape> s = shape.is_none() ? std::nullopt : std::optional<Shape>(shape_from_py(shape));
  return empty_like(proto, optional_native_dtype(dtype), order_from_py(order, Order::K), s, dev);
}

// The Python object for a conversion's result: `obj` itself when nothing changed (NumPy:
// asarray(a) is a), else the new array, linked to obj when it is a view of it (`r.base is obj`).
nb::object same_or_new(nb::handle obj, ndarray r) {
  const ndarray& a = nb::cast<const ndarray&>(obj);
  if (r.buffer() == a.buffer() && r.offset() == a.offset() && r.dtype() == a.dtype() && r.shape() == a.shape() &&
      r.strides() == a.strides())
    return nb::borrow(obj);
  return view_result(obj, std::move(r));
}

bool holds_copper_arrays(nb::handle obj) {
  if (nb::isinstance<ndarray>(obj)) return true;
  if (!nb::isinstance<nb::list>(obj) && !nb::isinstance<nb::tuple>(obj)) return false;
  for (nb::handle item : obj)
    if (holds_copper_arrays(item)) return true;
  return false;
}

ndarray stacked(nb::handle obj, Device device) {
  if (nb::isinstance<ndarray>(obj)) return asarray(nb::cast<const ndarray&>(obj), std::nullopt, std::nullopt, device);
  if ((!nb::isinstance<nb::list>(obj) && !nb::isinstance<nb::tuple>(obj)) || !holds_copper_arrays(obj))
    return host_array_from_py(obj, std::nullopt, device, Order::K, 0, std::nullopt);
  std::vector<ndarray> items;
  for (nb::handle item : obj) items.push_back(stacked(item, device));
  return stack(items);
}

// A (nested) list or tuple holding copper arrays, joined on the device as NumPy would
// build it (NumPy itself would have to copy each array to the host); nullopt otherwise.
std::optional<ndarray> stacked_arrays(nb::handle obj, Device device) {
  if (!nb::isinstance<nb::list>(obj) && !nb::isinstance<nb::tuple>(obj)) return std::nullopt;
  if (!holds_copper_arrays(obj)) return std::nullopt;
  return stacked(obj, device);
}

void check_ndmin(int ndmin) {
  if (ndmin > 64)
    throw ValueError("ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=64)");
}

// NumPy's array() (copy=True) and asarray() (copy=None), with copper's device= and CuPy's blocking=.
nb::object convert(nb::handle obj, nb::handle dtype, nb::handle copy, Order order, int ndmin, nb::handle device) {
  check_ndmin(ndmin);
  const std::optional<bool> c = copy_flag_from_py(copy);
  if (nb::isinstance<ndarray>(obj)) {
    const ndarray& a = nb::cast<const ndarray&>(obj);
    return same_or_new(obj, array(a, optional_native_dtype(dtype), c, order, ndmin, optional_device(device)));
  }
  // Other libraries' GPU arrays come in without a copy (python/src/interop_import.cpp), then
  // follow the rules for copper arrays.
  std::optional<ndarray> imported = from_cuda_array_interface(obj);
  if (!imported && is_gpu_dlpack_producer(obj)) imported = from_dlpack_object(obj);
  if (imported)
    return nb::cast(array(*imported, optional_native_dtype(dtype), c, order, ndmin, optional_device(device)));
  if (c == false)
    throw ValueError("Unable to avoid copy while creating an array as requested: the data is in host memory");
  if (auto stacked = stacked_arrays(obj, device_from_py(device)))  // sequences of copper arrays
    return nb::cast(array(*stacked, optional_native_dtype(dtype), std::nullopt, order, ndmin));
  return nb::cast(host_array_from_py(obj, optional_native_dtype(dtype), device_from_py(device), order, ndmin, c));
}

}  // namespace

void bind_creation(nb::module_& m) {
  auto filled_with = [](auto fn) {
    return [fn](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle like) {
      check_like(like);
      return fn(shape_from_py(shape), native_dtype_from_py(dtype), c_or_f(order),
                device_from_py(device));
    };
  };
  m.def("empty", filled_with([](const Shape& s, DType t, Order o, Device d) { return empty(s, t, o, d); }),
        nb::arg("shape").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def("zeros", filled_with([](const Shape& s, DType t, Order o, Device d) { return zeros(s, t, o, d); }),
        nb::arg("shape").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def("ones", filled_with([](const Shape& s, DType t, Order o, Device d) { return ones(s, t, o, d); }),
        nb::arg("shape").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
        nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle order, nb::handle device,
         nb::handle like) {
        check_like(like);
        const DType t = dtype.is_none() ? fill_dtype(fill_value) : native_dtype_from_py(dtype);
        return fill_with(empty(shape_from_py(shape), t, c_or_f(order), device_from_py(device)), fill_value);
      },
      nb::arg("shape").none(), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C",
      nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());

  m.def(
      "empty_like",
      [](nb::handle a, nb::handle dtype, nb::handle order, bool, nb::handle shape, nb::handle device) {
        return like_py(a, dtype, order, shape, device);
      },
      nb::arg("prototype"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok") = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  auto constant_like = [](int value) {
    return [value](nb::handle a, nb::handle dtype, nb::handle order, bool, nb::handle shape, nb::handle device) {
      ndarray out = like_py(a, dtype, order, shape, device);
      if (out.size()) copyto(out, Scalar(value), Casting::unsafe);
      return out;
    };
  };
  m.def("zeros_like", constant_like(0), nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
        nb::arg("subok") = true, nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def("ones_like", constant_like(1), nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
        nb::arg("subok") = true, nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "full_like",
      [](nb::handle a, nb::handle fill_value, nb::handle dtype, nb::handle order, bool, nb::handle shape,
         nb::handle device) { return fill_with(like_py(a, dtype, order, shape, device), fill_value); },
      nb::arg("a"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
      nb::arg("subok") = true, nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());

  m.def(
      "array",
      [](nb::handle obj, nb::handle dtype, nb::handle copy, nb::handle order, bool, int ndmin, int ndmax,
         nb::handle like, nb::handle device, bool) {
        check_like(like);
        if (ndmax != 0 && !nb::isinstance<ndarray>(obj))  // numpy.array discovers at most ndmax levels
          obj = numpy().attr("array")(obj, nb::arg("ndmax") = ndmax);
        return convert(obj, dtype, copy, order_from_py(order, Order::K), ndmin, device);
      },
      nb::arg("object"), nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("copy").none() = true,
      nb::arg("order").none() = "K", nb::arg("subok") = false, nb::arg("ndmin") = 0, nb::arg("ndmax") = 0,
      nb::arg("like") = nb::none(), nb::arg("device") = nb::none(), nb::arg("blocking") = false);
  auto asarray_py = [](nb::handle a, nb::handle dtype, nb::handle order, nb::handle device, nb::handle copy,
                       nb::handle like, bool) {
    check_like(like);
    return convert(a, dtype, copy, order_from_py(order, Order::K), 0, device);
  };
  for (const char* name : {"asarray", "asanyarray"}) {
    m.def(name, asarray_py, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = nb::none(),
          nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("copy").none() = nb::none(),
          nb::arg("like") = nb::none(), nb::arg("blocking") = false);
  }
  auto contiguous_py = [](Order order) {
    return [order](nb::handle a, nb::handle dtype, nb::handle like) {
      check_like(like);
      return convert(a, dtype, nb::none(), order, 1, nb::none());
    };
  };
  m.def("ascontiguousarray", contiguous_py(Order::C), nb::arg("a"), nb::arg("dtype") = nb::none(), nb::kw_only(),
        nb::arg("like") = nb::none());
  m.def("asfortranarray", contiguous_py(Order::F), nb::arg("a"), nb::arg("dtype") = nb::none(), nb::kw_only(),
        nb::arg("like") = nb::none());
  m.def(
      "require",
      [](nb::handle a, nb::handle dtype, nb::handle requirements, nb::handle like) -> nb::object {
        check_like(like);
        std::vector<std::string> reqs;
        if (!requirements.is_none()) {
          if (nb::isinstance<nb::str>(requirements)) reqs.push_back(nb::cast<std::string>(requirements));
          else
            for (nb::handle r : requirements) reqs.push_back(nb::cast<std::string>(r));
        }
        nb::object arr = convert(a, dtype, nb::none(), Order::K, 0, nb::none());
        if (reqs.empty()) return arr;
        return same_or_new(arr, require(nb::cast<const ndarray&>(arr), std::nullopt, reqs));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("requirements") = nb::none(), nb::kw_only(),
      nb::arg("like") = nb::none());
  m.def(
      "copy",
      [](nb::handle a, nb::handle order, bool) {
        if (!nb::isinstance<ndarray>(a))
          return host_array_from_py(a, std::nullopt, default_device(), order_from_py(order, Order::K), 0, true);
        return copy(nb::cast<const ndarray&>(a), order_from_py(order, Order::K));
      },
      nb::arg("a"), nb::arg("order").none() = "K", nb::arg("subok") = false);
}

}  // namespace copper::python
