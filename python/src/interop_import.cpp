// Other libraries' arrays in: the CUDA array interface (version 3) and DLPack producers
// on a GPU, wrapped without a copy and kept alive while copper uses their memory.
#include <Python.h>

#include <memory>

#include "interop.h"
#include "copper/interop.hpp"

namespace copper::python {
namespace {

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

Shape int_tuple(nb::handle seq) {
  Shape out;
  for (nb::handle v : seq) out.push_back(nb::cast<std::int64_t>(v));
  return out;
}

}  // namespace

std::function<void()> python_owner_release(nb::handle owner) {
  PyObject* p = owner.ptr();
  Py_INCREF(p);
  // The reference drops when released or, if the array was never made (an error after
  // this point), when the callback itself is destroyed.
  std::shared_ptr<PyObject> ref(p, [](PyObject* o) {
    if (!Py_IsInitialized() || interpreter_finalizing()) return;  // the object goes with the interpreter
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(o);
    PyGILState_Release(state);
  });
  return [ref]() mutable { ref.reset(); };
}

std::optional<ndarray> from_cuda_array_interface(nb::handle obj) {
  // hasattr is False for objects whose property raises AttributeError (CPU tensors).
  if (nb::isinstance<ndarray>(obj) || !nb::hasattr(obj, "__cuda_array_interface__")) return std::nullopt;
  nb::object iface = obj.attr("__cuda_array_interface__");
  if (!nb::isinstance<nb::dict>(iface)) throw TypeError("__cuda_array_interface__ must be a dict");
  nb::dict d = nb::borrow<nb::dict>(iface);
  auto get = [&](const char* key) -> nb::object {
    return d.contains(key) ? nb::object(d[key]) : nb::none();
  };
  const int version = get("version").is_none() ? 0 : nb::cast<int>(get("version"));
  if (version > 3) throw TypeError("__cuda_array_interface__ version " + std::to_string(version) + " is not supported (copper reads up to 3)");
  if (!get("mask").is_none()) throw ValueError("copper does not support masked arrays (__cuda_array_interface__ mask)");
  const std::string typestr = nb::cast<std::string>(get("typestr"));
  if (!typestr.empty() && typestr[0] == '>')
    throw ValueError("copper does not support big-endian data (typestr '" + typestr + "')");
  const DType dtype = dtype_from_py(nb::str(typestr.c_str()));
  const Shape shape = int_tuple(get("shape"));
  nb::object strides_obj = get("strides");
  const Strides strides = strides_obj.is_none() ? Strides{} : int_tuple(strides_obj);
  nb::object data = get("data");
  const auto ptr = nb::cast<std::uintptr_t>(data[0]);
  void* p = reinterpret_cast<void*>(ptr);
  // Empty arrays may have a null pointer: they live on copper's current GPU.
  const int device = (ptr == 0 || shape_size(shape) == 0) ? cuda::current_device() : cuda::pointer_device(p);
  nb::object stream = get("stream");
  if (!stream.is_none() && version >= 3) {
    const auto s = nb::cast<std::intptr_t>(stream);
    if (s == 0) throw ValueError("__cuda_array_interface__: stream 0 is not allowed (use 1 or 2 for the default streams)");
    cuda::wait_for_external_stream(static_cast<std::uintptr_t>(s), device);
  }
  return from_external(p, dtype, shape, strides, Device{DeviceType::cuda, device}, python_owner_release(obj));
}

bool is_gpu_dlpack_producer(nb::handle obj) {
  static nb::handle np_ndarray = nb::object(numpy().attr("ndarray")).release();
  if (nb::isinstance<ndarray>(obj) || PyObject_IsInstance(obj.ptr(), np_ndarray.ptr()) == 1) return false;
  if (!nb::hasattr(obj, "__dlpack_device__") || !nb::hasattr(obj, "__dlpack__")) return false;
  nb::object dev = obj.attr("__dlpack_device__")();
  const int type = nb::cast<int>(dev[0]);
  return type == kDLCUDA || type == kDLCUDAManaged;
}

ndarray from_dlpack_object(nb::handle obj) {
  static nb::handle fn = nb::object(nb::module_::import_("copper._dlpack").attr("from_dlpack")).release();
  return nb::cast<ndarray>(fn(obj));
}

bool shares_memory_with_source(nb::handle obj, const ndarray& a) {
  if (nb::isinstance<ndarray>(obj)) return a.buffer() == nb::cast<const ndarray&>(obj).buffer();
  if (a.device().type != DeviceType::cuda) return false;
  if (nb::hasattr(obj, "__cuda_array_interface__")) {
    nb::object data = obj.attr("__cuda_array_interface__")["data"];
    return a.size() > 0 && reinterpret_cast<std::uintptr_t>(a.data()) == nb::cast<std::uintptr_t>(data[0]);
  }
  return is_gpu_dlpack_producer(obj);
}

}  // namespace copper::python
