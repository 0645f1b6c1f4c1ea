// Where an array's memory lives and where its operations run.
#pragma once
#include <string>

namespace copper {

enum class DeviceType { cpu, cuda };

struct Device {
  DeviceType type = DeviceType::cpu;
  int index = 0;
  bool operator==(const Device&) const = default;
  std::string str() const;  // "cpu", "cuda:0"
};

inline const Device cpu{DeviceType::cpu, 0};

// The device new arrays go to: the GPU when one is present and usable, else the CPU.
// COPPER_DEVICE=cpu|cuda|cuda:N overrides the automatic choice.
Device default_device();
void set_default_device(Device d);
Device parse_device(const std::string& spec);  // "cpu", "cuda", "cuda:1"; throws ValueError

// RAII: new arrays go to `d` while the guard lives.
class DeviceScope {
 public:
  explicit DeviceScope(Device d) : saved_(default_device()) { set_default_device(d); }
  ~DeviceScope() { set_default_device(saved_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  Device saved_;
};

}  // namespace copper
