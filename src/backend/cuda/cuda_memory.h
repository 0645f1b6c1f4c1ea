// Device memory: the driver's stream-ordered pool (cuMemAllocAsync) with the
// release threshold raised so freed blocks stay cached, plus copper's own
// accounting for a user limit and statistics. Exhaustion: synchronize, return
// cached blocks to the driver, retry once, then OutOfMemoryError.
#pragma once
#include <cstddef>
#include <memory>

#include "copper/cuda.hpp"
#include "copper/ndarray.hpp"

namespace copper::backend::cuda {

std::shared_ptr<Buffer> allocate_device(int device, std::size_t nbytes);
copper::cuda::MemoryStats memory_stats(int device);
void set_memory_limit(int device, std::size_t bytes);
void free_all_blocks(int device);
void reset_peak_memory(int device);

// Parses COPPER_GPU_MEMORY_LIMIT's forms: "1073741824", "8GB", "512MiB", "50%" (of total).
std::size_t parse_memory_limit(const char* text, std::size_t total);

}  // namespace copper::backend::cuda
