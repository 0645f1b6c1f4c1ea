// Several GPUs through the C++ API: device properties, set_device, copies between GPUs
// (copper::asarray with another cuda device) and the error for ops mixing two GPUs.
// One-GPU cases skip without a GPU; two-GPU cases skip with fewer than two.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "copper/copper.hpp"

namespace {
using namespace copper;
namespace cu = copper::cuda;

const Device gpu0{DeviceType::cuda, 0}, gpu1{DeviceType::cuda, 1};

TEST(MultiGpu, PropertiesAndSetDevice) {
  if (!cu::is_available()) {
    EXPECT_THROW(cu::device_properties(0), RuntimeError);
    EXPECT_THROW(cu::set_device(1), RuntimeError);  // device 0 stands for the CPU without a GPU
    GTEST_SKIP() << "needs a GPU usable by copper";
  }
  const cu::DeviceProperties p = cu::device_properties(0);
  EXPECT_FALSE(p.name.empty());
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_GE(p.max_threads_per_block, 1024);
  EXPECT_GT(p.multi_processor_count, 0);
  EXPECT_GT(p.total_global_mem, std::size_t{1} << 30);
  EXPECT_GT(p.l2_cache_size, 0);
  EXPECT_GT(p.shared_mem_per_block, 0u);
  EXPECT_EQ(cu::compute_capability(0), std::to_string(p.major) + std::to_string(p.minor));
  EXPECT_THROW(cu::device_properties(cu::device_count()), RuntimeError);
  const Device before = default_device();
  cu::set_device(0);
  EXPECT_EQ(default_device(), gpu0);
  EXPECT_EQ(cu::get_device(), 0);
  set_default_device(before);
}

class TwoGpus : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cu::device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  }
};

TEST_F(TwoGpus, CopiesBetweenGpusKeepValuesAndDevices) {
  std::vector<double> values(1000);
  for (int i = 0; i < 1000; ++i) values[i] = i * 0.5 - 7;
  ndarray a = array(values, Shape{10, 100}, gpu0);
  ndarray b = asarray(a, std::nullopt, gpu1);
  EXPECT_EQ(b.device(), gpu1);
  EXPECT_EQ(b.to_vector<double>(), values);
  ndarray t = asarray(transpose(b), float32, gpu0);  // strided source, cast on arrival
  EXPECT_EQ(t.device(), gpu0);
  std::vector<float> tv = t.to_vector<float>();
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 100; ++j) EXPECT_EQ(tv[j * 10 + i], static_cast<float>(values[i * 100 + j]));
  EXPECT_TRUE(cu::can_access_peer(0, 0));
  (void)cu::can_access_peer(0, 1);
}

TEST_F(TwoGpus, NewArraysFollowTheDefaultDeviceAndMixingRaises) {
  ndarray on1 = [] {
    DeviceScope scope(gpu1);
    return ones({4}) * 2.0;
  }();
  EXPECT_EQ(on1.device(), gpu1);
  ndarray on0 = ones({4}, float64, gpu0);
  try {
    add(on0, on1);
    ADD_FAILURE() << "no exception";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("arrays are on different devices (cuda:0 and cuda:1)"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(on1.to_vector<double>(), (std::vector<double>{2, 2, 2, 2}));
}

}  // namespace
