// Arrays out to other libraries: ndarray.__dlpack__ / __dlpack_device__ (versioned and
// legacy capsules, with the protocol's stream hand-off), __cuda_array_interface__
// (version 3, GPU arrays only), and the capsule import under copper.from_dlpack.
#include <Python.h>

#include "bindings.h"
#include "interop.h"
#include "copper/interop.hpp"
#include "copper/fusion.hpp"

namespace copper::python {
namespace {

constexpr const char* kVersioned = "dltensor_versioned";
constexpr const char* kUsedVersioned = "used_dltensor_versioned";
constexpr const char* kLegacy = "dltensor";
constexpr const char* kUsedLegacy = "used_dltensor";

// A capsule nobody consumed still owns its tensor: its destructor calls the deleter.
template <class Managed>
void capsule_destructor(PyObject* capsule, const char* name) {
  if (!PyCapsule_IsValid(capsule, name)) return;  // renamed "used_...": the consumer owns it
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m && m->deleter) m->deleter(m);
}
void versioned_destructor(PyObject* c) { capsule_destructor<DLManagedTensorVersioned>(c, kVersioned); }
void legacy_destructor(PyObject* c) { capsule_destructor<DLManagedTensor>(c, kLegacy); }

// A copy the caller forbade: the standard asks for BufferError, CuPy raises ValueError;
// this class is both.
[[noreturn]] void raise_copy_refused(const std::string& what) {
  static PyObject* cls = [] {
    PyObject* bases = PyTuple_Pack(2, PyExc_BufferError, PyExc_ValueError);
    PyObject* c = PyErr_NewException("copper.DLPackCopyError", bases, nullptr);
    Py_DECREF(bases);
    return c;
  }();
  PyErr_SetString(cls, what.c_str());
  throw nb::python_error();
}

Device dl_device_from_py(nb::handle dl_device) {
  if (!nb::isinstance<nb::tuple>(dl_device) || nb::len(dl_device) != 2)
    throw BufferError("dl_device must be a tuple (device_type, device_id)");
  const int type = nb::cast<int>(dl_device[0]);
  const int id = nb::cast<int>(dl_device[1]);
  if (type == kDLCPU) return cpu;
  if (type == kDLCUDA) {
    if (id < 0 || id >= cuda::device_count())
      throw BufferError("dl_device (2, " + std::to_string(id) + "): no such GPU (" +
                        std::to_string(cuda::device_count()) + " found)");
    return Device{DeviceType::cuda, id};
  }
  throw BufferError("copper cannot export to DLPack device type " + std::to_string(type));
}

// The consumer's stream waits for copper's work on the exported array (GPU arrays).
// None means the legacy default stream, -1 "do not synchronize", 0 is ambiguous and
// read as 1 with a warning (PyTorch once sent it), as CuPy does.
void hand_off_stream(const ndarray& out, nb::handle stream) {
  if (out.device().type != DeviceType::cuda) {
    if (!stream.is_none()) throw BufferError("stream must be None for arrays on the CPU");
    return;
  }
  std::intptr_t s = 1;
  if (!stream.is_none()) {
    if (!PyLong_Check(stream.ptr())) throw TypeError("stream must be an integer (a CUDA stream handle) or None");
    s = nb::cast<std::intptr_t>(stream);
  }
  if (s == -1) return;
  if (s == 0) {
    PyErr_WarnEx(PyExc_UserWarning, "Stream 0 is ambiguous in DLPack; using the legacy default stream (1)", 1);
    s = 1;
  }
  if (s < -1) throw BufferError("stream must be -1, 1, 2 or a CUDA stream handle");
  cuda::external_stream_wait(static_cast<std::uintptr_t>(s), out.device().index);
}

nb::object dlpack_capsule(const ndarray& self, nb::handle stream, nb::handle max_version, nb::handle dl_device,
                          nb::handle copy) {
  const Device own = self.device();
  const Device target = dl_device.is_none() ? own : dl_device_from_py(dl_device);
  const bool copy_true = !copy.is_none() && nb::cast<bool>(copy);
  const bool copy_false = !copy.is_none() && !nb::cast<bool>(copy);
  ndarray out = self;
  bool copied = false;
  if (target != own) {
    if (copy_false)
      raise_copy_refused("__dlpack__: exporting " + own.str() + " memory to " + target.str() +
                         " needs a copy, and copy=False forbids it");
    out = asarray(self, std::nullopt, target);  // a host copy waits for the device
    copied = true;
  } else if (copy_true) {
    out = self.copy();
    copied = true;
  }
  exported_data(out);  // deferred work on it is enqueued first, so the hand-off below orders it
  hand_off_stream(out, stream);
  const bool versioned = !max_version.is_none() && nb::cast<int>(max_version[0]) >= 1;
  if (versioned) {
    DLManagedTensorVersioned* m = to_dlpack(out, copied);
    PyObject* cap = PyCapsule_New(m, kVersioned, versioned_destructor);
    if (!cap) {
      m->deleter(m);
      throw nb::python_error();
    }
    return nb::steal(cap);
  }
  DLManagedTensor* m = to_dlpack_legacy(out);
  PyObject* cap = PyCapsule_New(m, kLegacy, legacy_destructor);
  if (!cap) {
    m->deleter(m);
    throw nb::python_error();
  }
  return nb::steal(cap);
}

// Consumes a capsule (renamed "used_..." once the array owns the tensor).
ndarray array_from_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, kVersioned)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersioned));
    ndarray a = from_dlpack(m);
    PyCapsule_SetName(c, kUsedVersioned);
    return a;
  }
  if (PyCapsule_IsValid(c, kLegacy)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacy));
    ndarray a = from_dlpack(m);
    PyCapsule_SetName(c, kUsedLegacy);
    return a;
  }
  if (PyCapsule_IsValid(c, kUsedVersioned) || PyCapsule_IsValid(c, kUsedLegacy))
    throw ValueError("A DLPack tensor object cannot be consumed multiple times");
  throw TypeError("expected a DLPack capsule (\"dltensor\" or \"dltensor_versioned\"), got " +
                  std::string(nb::str(nb::type_name(capsule.type())).c_str()));
}

nb::dict cuda_array_interface(const ndarray& a) {
  if (a.device().type != DeviceType::cuda)
    throw nb::attribute_error(
        "__cuda_array_interface__ exists only for arrays on a GPU (this one is on the CPU); use __dlpack__ or "
        ".get()");
  nb::dict d;
  nb::object typestr = dtype_to_py(a.dtype()).attr("str");
  d["shape"] = nb::tuple(nb::cast(a.shape()));
  d["typestr"] = typestr;
  nb::list descr;
  descr.append(nb::make_tuple("", typestr));
  d["descr"] = descr;
  d["data"] = nb::make_tuple(a.size() == 0 ? std::uintptr_t{0} : reinterpret_cast<std::uintptr_t>(exported_data(a)), false);
  d["strides"] = a.is_c_contiguous() ? nb::none() : nb::object(nb::tuple(nb::cast(a.strides())));
  d["version"] = 3;
  // The consumer waits for this stream before reading: copper's work on it is pending.
  d["stream"] = cuda::current_stream_protocol_handle(a.device().index);
  return d;
}

}  // namespace

void bind_interop(nb::module_& m, ArrayClass& cls) {
  cls.def("__dlpack__", &dlpack_capsule, nb::kw_only(), nb::arg("stream") = nb::none(),
          nb::arg("max_version") = nb::none(), nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none())
      .def("__dlpack_device__",
           [](const ndarray& a) {
             DLDevice d = dlpack_device(a);
             return nb::make_tuple(static_cast<int>(d.device_type), d.device_id);
           })
      .def("toDlpack", [](const ndarray& a) { return dlpack_capsule(a, nb::none(), nb::none(), nb::none(), nb::none()); })
      .def_prop_ro("__cuda_array_interface__", &cuda_array_interface);
  m.def("_from_dlpack_capsule", &array_from_capsule, nb::arg("capsule"));
  m.def("_from_cuda_array_interface", [](nb::handle obj) -> nb::object {
    auto a = from_cuda_array_interface(obj);
    return a ? nb::cast(*a) : nb::none();
  });
  m.def("_current_stream_protocol_handle", &cuda::current_stream_protocol_handle);
}

}  // namespace copper::python
