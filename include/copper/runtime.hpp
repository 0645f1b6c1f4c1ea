// Process-wide settings: CPU threads, synchronization.
#pragma once

#include "copper/device.hpp"

namespace copper {

// Threads the CPU backend uses; the default is COPPER_NUM_THREADS or the core count.
int get_num_threads();
void set_num_threads(int n);
// Waits for all work queued on `device` (a no-op for the CPU, which runs synchronously).
void synchronize(Device device = default_device());

}  // namespace copper
