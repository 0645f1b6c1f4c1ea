// The devices tests run on: the CPU, plus GPU 0 when the CUDA backend finds one.
// COPPER_TEST_DEVICES=cpu (or cuda) restricts the list.
#include <cstdlib>
#include <string>

#include "device_param.h"

namespace copper {
namespace backend {
bool cuda_available();
}

std::vector<Device> test_devices() {
  std::vector<Device> all{Device{DeviceType::cpu, 0}};
  if (backend::cuda_available()) all.push_back(Device{DeviceType::cuda, 0});
  if (const char* only = std::getenv("COPPER_TEST_DEVICES"); only && *only) {
    std::vector<Device> picked;
    std::string s(only);
    for (const Device& d : all)
      if (s.find(d.type == DeviceType::cpu ? "cpu" : "cuda") != std::string::npos) picked.push_back(d);
    return picked;
  }
  return all;
}
}  // namespace copper
