// Whether a generated kernel's cubin is already in the disk cache (kernel_cache.h), so
// that loading it costs a file read instead of an NVRTC compile: automatic fusion compiles
// new chain kernels in the background but loads cached ones at once.
#pragma once
#include <string>

namespace copper::backend::cuda {

bool kernel_on_disk(int device, const std::string& source, const char* entry);

}  // namespace copper::backend::cuda
