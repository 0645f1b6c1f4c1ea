// Arrays of other libraries coming in without a copy: the CUDA array interface and
// DLPack, used by the one conversion path (array_from_py) and by copper.from_dlpack.
#pragma once
#include <functional>
#include <optional>

#include "convert.h"

namespace copper::python {

// A release callback that drops a reference to `owner` (taking the GIL, from any thread;
// a no-op once the interpreter is finalizing). Keeps a producer alive while copper uses
// its memory.
std::function<void()> python_owner_release(nb::handle owner);

// `obj.__cuda_array_interface__` as a copper array over the same GPU memory, after
// copper's current stream waits for the interface's `stream`; nullopt when `obj` has no
// such interface.
std::optional<ndarray> from_cuda_array_interface(nb::handle obj);

// Whether `obj` is another library's array living on a GPU that speaks DLPack.
bool is_gpu_dlpack_producer(nb::handle obj);
// copper.from_dlpack(obj) (python/copper/_dlpack.py).
ndarray from_dlpack_object(nb::handle obj);

}  // namespace copper::python
