// Device names and the process-wide default device.
#include "copper/device.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "backend/registry.h"
#include "copper/errors.hpp"

namespace copper {

std::string Device::str() const {
  return type == DeviceType::cpu ? std::string("cpu") : "cuda:" + std::to_string(index);
}

Device parse_device(const std::string& spec) {
  if (spec == "cpu") return Device{DeviceType::cpu, 0};
  if (spec == "cuda" || spec == "gpu") return Device{DeviceType::cuda, 0};
  if (spec.rfind("cuda:", 0) == 0) {
    try {
      std::size_t used = 0;
      int index = std::stoi(spec.substr(5), &used);
      if (used == spec.size() - 5 && index >= 0) return Device{DeviceType::cuda, index};
    } catch (const std::exception&) {
    }
  }
  throw ValueError("invalid device '" + spec + "': expected 'cpu', 'cuda' or 'cuda:N'");
}

namespace {
// The first GPU when a usable CUDA backend exists, the CPU otherwise; COPPER_DEVICE overrides.
Device initial_device() {
  if (const char* env = std::getenv("COPPER_DEVICE"); env && *env) return parse_device(env);
  return backend::cuda_available() ? Device{DeviceType::cuda, 0} : cpu;
}
thread_local bool has_override = false;
thread_local Device override_device;
}  // namespace

Device default_device() {
  if (has_override) return override_device;
  static const Device initial = initial_device();
  return initial;
}

void set_default_device(Device d) {
  backend::backend_for(d);  // fails now, not at first use, if the device is unusable
  has_override = true;
  override_device = d;
}

}  // namespace copper
