// DLPack export and import (include/copper/interop.hpp). Exports hold a reference to the
// array's memory in the managed tensor; imports wrap the producer's memory with
// from_external, whose release calls the producer's deleter.
#include <memory>
#include <string>
#include <vector>

#include "copper/creation.hpp"
#include "copper/interop.hpp"
#include "copper/fusion.hpp"

namespace copper {
namespace {

// The managed tensor and everything its DLTensor points to, freed together by the deleter.
template <class Managed>
struct Exported {
  Managed managed{};
  ndarray array;  // keeps the memory alive
  std::vector<std::int64_t> shape, strides;
};

template <class Managed>
Managed* export_array(const ndarray& source) {
  // Byte strides that are not whole elements cannot be expressed: export a compact copy.
  bool whole_elements = true;
  for (std::int64_t s : source.strides()) whole_elements = whole_elements && s % source.itemsize() == 0;
  auto owner = std::make_unique<Exported<Managed>>();
  owner->array = whole_elements ? source : ascontiguousarray(source);
  const ndarray& a = owner->array;
  owner->shape = a.shape();
  for (std::int64_t s : a.strides()) owner->strides.push_back(s / a.itemsize());
  // Never null pointers for shape/strides, even at ndim 0 (some consumers read them).
  owner->shape.reserve(1);
  owner->strides.reserve(1);
  DLTensor& t = owner->managed.dl_tensor;
  t.data = exported_data(a);
  t.device = dlpack_device(a);
  t.ndim = a.ndim();
  t.dtype = dlpack_dtype(a.dtype());
  t.shape = owner->shape.data();
  t.strides = owner->strides.data();
  t.byte_offset = 0;
  owner->managed.manager_ctx = owner.get();
  owner->managed.deleter = [](Managed* self) {
    if (self) delete static_cast<Exported<Managed>*>(self->manager_ctx);
  };
  return &owner.release()->managed;
}

// The import shared by both struct versions: checks first, then takes ownership.
template <class Managed>
ndarray import_tensor(Managed* m) {
  if (!m) throw ValueError("from_dlpack: null DLPack tensor");
  const DLTensor& t = m->dl_tensor;
  const DType dtype = dtype_from_dlpack(t.dtype);
  const Device device = device_from_dlpack(t.device);
  if (t.ndim < 0) throw BufferError("from_dlpack: negative ndim");
  Shape shape(t.shape, t.shape + t.ndim);
  Strides strides;
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i] * itemsize(dtype));
  }
  if (!t.data && shape_size(shape) != 0) throw BufferError("from_dlpack: null data pointer for a non-empty tensor");
  void* data = static_cast<char*>(t.data) + t.byte_offset;
  return from_external(data, dtype, shape, strides, device, [m] {
    if (m->deleter) m->deleter(m);
  });
}

}  // namespace

DLDevice dlpack_device(const ndarray& a) {
  const Device d = a.device();
  if (d.type == DeviceType::cpu) return DLDevice{kDLCPU, 0};
  return DLDevice{kDLCUDA, d.index};
}

DLDataType dlpack_dtype(DType t) {
  const auto bits = static_cast<std::uint8_t>(8 * itemsize(t));
  switch (kind(t)) {
    case Kind::bool_: return DLDataType{kDLBool, 8, 1};
    case Kind::int_: return DLDataType{kDLInt, bits, 1};
    case Kind::uint_: return DLDataType{kDLUInt, bits, 1};
    case Kind::float_: return DLDataType{kDLFloat, bits, 1};
    case Kind::complex_: return DLDataType{kDLComplex, bits, 1};
  }
  throw TypeError("dlpack: unsupported dtype");
}

DType dtype_from_dlpack(DLDataType t) {
  auto unsupported = [&] {
    return BufferError("from_dlpack: copper has no dtype for DLPack type (code " + std::to_string(t.code) +
                       ", bits " + std::to_string(t.bits) + ", lanes " + std::to_string(t.lanes) + ")");
  };
  if (t.lanes != 1) throw unsupported();
  switch (t.code) {
    case kDLBool:
      if (t.bits == 8) return bool_;
      break;
    case kDLInt:
      if (t.bits == 8) return int8;
      if (t.bits == 16) return int16;
      if (t.bits == 32) return int32;
      if (t.bits == 64) return int64;
      break;
    case kDLUInt:
      if (t.bits == 8) return uint8;
      if (t.bits == 16) return uint16;
      if (t.bits == 32) return uint32;
      if (t.bits == 64) return uint64;
      break;
    case kDLFloat:
      if (t.bits == 16) return float16;
      if (t.bits == 32) return float32;
      if (t.bits == 64) return float64;
      break;
    case kDLComplex:
      if (t.bits == 64) return complex64;
      if (t.bits == 128) return complex128;
      break;
    default:
      break;
  }
  throw unsupported();
}

Device device_from_dlpack(DLDevice d) {
  switch (d.device_type) {
    case kDLCPU:
    case kDLCUDAHost:  // pinned host memory: ordinary memory to the CPU
      return cpu;
    case kDLCUDA:
    case kDLCUDAManaged:
      return Device{DeviceType::cuda, d.device_id};
    default:
      throw BufferError("from_dlpack: copper cannot address DLPack device type " +
                        std::to_string(static_cast<int>(d.device_type)));
  }
}

DLManagedTensorVersioned* to_dlpack(const ndarray& a, bool copied) {
  DLManagedTensorVersioned* m = export_array<DLManagedTensorVersioned>(a);
  m->version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m->flags = copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0;
  return m;
}

DLManagedTensor* to_dlpack_legacy(const ndarray& a) { return export_array<DLManagedTensor>(a); }

ndarray from_dlpack(DLManagedTensorVersioned* t) {
  if (t && t->version.major != DLPACK_MAJOR_VERSION)
    throw BufferError("from_dlpack: DLPack version " + std::to_string(t->version.major) + "." +
                      std::to_string(t->version.minor) + " is not supported (copper reads 1.x)");
  return import_tensor(t);
}

ndarray from_dlpack(DLManagedTensor* t) { return import_tensor(t); }

}  // namespace copper
