// Several GPUs: peer access, copies between devices, and device properties.
#pragma once
#include <cstddef>

#include "copper/cuda.hpp"

namespace copper::backend::cuda {

// Whether `device` can read and write `peer`'s memory directly (asked once per pair).
bool can_access_peer(int device, int peer);

// Copies `nbytes` from `src` on `src_device` to `dst` on `dst_device`, enqueued on the
// destination's current stream after the work pending on the source's current stream;
// the source's stream then waits for the copy, so freeing the source in its stream
// order is safe. Peer access is enabled on first use where the GPUs support it; without
// it the driver stages the copy.
void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes);

copper::cuda::DeviceProperties device_properties(int device);

}  // namespace copper::backend::cuda
