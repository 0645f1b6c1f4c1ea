// allow_synchronize (include/copper/runtime.hpp): one flag per thread, checked where the
// host would wait for a device.
#include <string>

#include "copper/errors.hpp"
#include "copper/runtime.hpp"

namespace copper {

namespace {
thread_local bool allowed = true;
}  // namespace

bool synchronize_allowed() { return allowed; }

void set_synchronize_allowed(bool value) { allowed = value; }

void check_synchronize_allowed(const char* what) {
  if (!allowed) [[unlikely]]
    throw DeviceSynchronized(std::string("Device synchronization was detected while disallowed (") + what + ")");
}

}  // namespace copper
