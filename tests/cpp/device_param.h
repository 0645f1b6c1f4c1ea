// Every C++ test runs once per available device: the CPU always, each GPU when present.
#pragma once
#include <gtest/gtest.h>

#include <vector>

#include "copper/device.hpp"

namespace copper {
std::vector<Device> test_devices();  // defined in test_devices.cpp
}

class DeviceTest : public ::testing::TestWithParam<copper::Device> {
 protected:
  copper::Device device() const { return GetParam(); }
};

#define INSTANTIATE_DEVICE_TEST(Suite)                                                  \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, ::testing::ValuesIn(copper::test_devices()), \
                           [](const auto& info) { return info.param.type == copper::DeviceType::cpu ? std::string("cpu") : "cuda" + std::to_string(info.param.index); })
