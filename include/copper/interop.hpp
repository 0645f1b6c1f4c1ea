// Sharing arrays with other libraries without copying: DLPack (export and import of
// DLManagedTensorVersioned and the legacy DLManagedTensor), memory owned by someone
// else, and the stream hand-off between libraries working on one GPU.
#pragma once
#include <cstdint>
#include <functional>

#include "copper/dlpack.h"
#include "copper/ndarray.hpp"

namespace copper {

// An array over memory copper does not own: `data` is the first element (a device
// pointer for GPU memory), `strides` in bytes (empty: C-contiguous). `release` runs once,
// when the last array using the memory goes. Nothing is copied.
ndarray from_external(void* data, DType dtype, const Shape& shape, const Strides& strides, Device device,
                      std::function<void()> release);

// DLPack export. The managed tensor holds a reference to `a`'s memory until its deleter
// runs; the caller owns it (call its deleter, or hand it to a consumer that will).
// `copied` sets DLPACK_FLAG_BITMASK_IS_COPIED (for an export that made a copy).
// Strides are always given, in elements.
DLManagedTensorVersioned* to_dlpack(const ndarray& a, bool copied = false);
DLManagedTensor* to_dlpack_legacy(const ndarray& a);

// DLPack import without a copy. On success the array owns `t` (its deleter runs when the
// memory is released); on failure (unsupported version, dtype or device: TypeError,
// ValueError or RuntimeError) nothing is taken and the caller still owns `t`.
// copper arrays are always writable: a read-only tensor is imported as is.
ndarray from_dlpack(DLManagedTensorVersioned* t);
ndarray from_dlpack(DLManagedTensor* t);

DLDevice dlpack_device(const ndarray& a);  // (kDLCPU, 0) or (kDLCUDA, index)
DLDataType dlpack_dtype(DType t);
DType dtype_from_dlpack(DLDataType t);  // TypeError for types copper lacks (bfloat16, lanes > 1, ...)
Device device_from_dlpack(DLDevice d);  // ValueError for device types copper cannot address

namespace cuda {
// The stream hand-off between libraries on one GPU (DLPack's `stream`, the CUDA array
// interface's `stream`). Handles are CUstream values as integers; 1 is the legacy default
// stream and 2 the per-thread default stream, as both protocols define them.

// The stream handle of copper's current stream on `device`, as the protocols spell it
// (the legacy default stream is 1, never 0).
std::uintptr_t current_stream_protocol_handle(int device);
// `stream` (another library's) waits for the work enqueued so far on copper's current
// stream of `device`: an event recorded there, then cuStreamWaitEvent. No host wait.
void external_stream_wait(std::uintptr_t stream, int device);
// copper's current stream of `device` waits for the work enqueued so far on `stream`.
void wait_for_external_stream(std::uintptr_t stream, int device);
// The GPU a device pointer belongs to (cuPointerGetAttribute); RuntimeError if it is not
// GPU memory the driver knows.
int pointer_device(const void* ptr);
}  // namespace cuda

}  // namespace copper
