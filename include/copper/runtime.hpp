// Process-wide settings: CPU threads, synchronization.
#pragma once

#include "copper/device.hpp"

namespace copper {

// Threads the CPU backend uses; the default is COPPER_NUM_THREADS or the core count.
int get_num_threads();
void set_num_threads(int n);
// Waits for all work queued on `device` (a no-op for the CPU, which runs synchronously).
void synchronize(Device device = default_device());

// CuPy's allow_synchronize (cupyx): while the calling thread disallows it, what makes the
// host wait for a device raises DeviceSynchronized: copies of arrays to the host (get,
// item, printing) and synchronize calls, on either backend, so code checked on the CPU
// raises where it would on a GPU. Allowed by default.
bool synchronize_allowed();
void set_synchronize_allowed(bool allowed);
// Raises DeviceSynchronized (naming `what`) while the calling thread disallows synchronizing.
void check_synchronize_allowed(const char* what);

}  // namespace copper
