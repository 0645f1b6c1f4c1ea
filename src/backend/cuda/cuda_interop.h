// The CUDA side of sharing GPU memory with other libraries: the stream hand-off of
// DLPack and the CUDA array interface, and which GPU a foreign pointer lives on.
#pragma once
#include <cstdint>

namespace copper::backend::cuda {

// Copper's current stream of `device` as the protocols name it: 1 for the legacy default
// stream (copper's null handle), else the CUstream value.
std::uintptr_t current_stream_protocol_handle(int device);
// `stream` waits for the work enqueued so far on copper's current stream of `device`.
void external_stream_wait(std::uintptr_t stream, int device);
// Copper's current stream of `device` waits for the work enqueued so far on `stream`.
void wait_for_external_stream(std::uintptr_t stream, int device);
int pointer_device(const void* ptr);

}  // namespace copper::backend::cuda
