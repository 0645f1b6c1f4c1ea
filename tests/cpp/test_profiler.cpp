// copper::profiler::benchmark (copper/profiler.hpp): CPU times always, GPU times for the
// default device's GPU (none on the CPU), CuPy's text layout, warm-up and max_duration.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Profiler : public DeviceTest {};

TEST_P(Profiler, TimesEveryRunOnCpuAndGpu) {
  DeviceScope scope(device());  // the timed GPU is the default device's
  ndarray x = ones({1000}, float64, device());
  int calls = 0;
  profiler::BenchmarkOptions options;
  options.n_repeat = 6;
  options.n_warmup = 2;
  options.name = "scale";
  auto r = profiler::benchmark(
      [&] {
        ++calls;
        x = x * 1.0;
      },
      options);
  EXPECT_EQ(calls, 8);
  ASSERT_EQ(r.cpu_times.size(), 6u);
  for (double t : r.cpu_times) EXPECT_GE(t, 0.0);
  if (device().type == DeviceType::cpu) {
    EXPECT_TRUE(r.devices.empty());
    EXPECT_TRUE(r.gpu_times.empty());
  } else {
    ASSERT_EQ(r.devices, std::vector<int>{device().index});
    ASSERT_EQ(r.gpu_times.size(), 1u);
    ASSERT_EQ(r.gpu_times[0].size(), 6u);
    for (double t : r.gpu_times[0]) EXPECT_GT(t, 0.0);
  }
  const std::string num = R"(\s*-?\d+\.\d{3})";
  const std::string stats = num + R"( us   \+/- )" + num + R"( \(min: )" + num + " / max: " + num + R"(\) us)";
  const std::regex layout("scale               :    CPU:" + stats + "(     GPU-0:" + stats + ")?");
  EXPECT_TRUE(std::regex_match(r.to_string(), layout)) << r.to_string();
  EXPECT_EQ(r.to_string(false).find("GPU"), std::string::npos);
}

TEST_P(Profiler, MaxDurationStopsEarlyAndBadCountsRaise) {
  profiler::BenchmarkOptions options;
  options.n_repeat = 1000000;
  options.n_warmup = 0;
  options.max_duration = 0.01;
  auto r = profiler::benchmark([] {}, options);
  EXPECT_GE(r.cpu_times.size(), 1u);
  EXPECT_LT(r.cpu_times.size(), 1000000u);
  options.n_repeat = -1;
  EXPECT_THROW(profiler::benchmark([] {}, options), ValueError);
  options.n_repeat = 1;
  auto once = profiler::benchmark([] {}, options);
  EXPECT_EQ(once.to_string().find("+/-"), std::string::npos);
}

INSTANTIATE_DEVICE_TEST(Profiler);

}  // namespace
