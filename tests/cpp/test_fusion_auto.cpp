// Automatic fusion through the C++ API (copper/fusion.hpp): deferred chains give the eager
// values, reads run them, temporaries held by no one need no memory, and the switch works.
// The expected values are computed here in plain C++ loops over random inputs, on the CPU
// and, where one is usable, on the GPU (cuda_fused_chain.cpp's generated kernels).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "copper/copper.hpp"
#include "copper/cuda.hpp"

namespace {
using namespace copper;

struct FusionOn {
  bool was = fusion_enabled();
  FusionOn() { set_fusion(true); }
  ~FusionOn() { set_fusion(was); }
};

std::vector<Device> devices() {
  std::vector<Device> d{cpu};
  if (copper::cuda::is_available()) d.push_back(Device{DeviceType::cuda, 0});
  return d;
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> d;
  std::vector<double> v(n);
  for (double& x : v) x = d(gen);
  return v;
}

TEST(FusionAuto, SeedChainIsDeferredAndExact) {
  FusionOn on;
  for (Device device : devices()) {
    SCOPED_TRACE(device.str());
    const auto x0 = random_values(100000, 1);
    ndarray x = array<double>(x0, std::nullopt, device);
    x *= 5;
    x *= x;
    x += x;
    EXPECT_EQ(deferred_ops(), 3u);
    const auto got = x.to_vector<double>();
    EXPECT_EQ(deferred_ops(), 0u);
    for (std::size_t i = 0; i < x0.size(); ++i) {
      double e = x0[i] * 5;
      e *= e;
      e += e;
      ASSERT_EQ(got[i], e) << i;
    }
  }
}

TEST(FusionAuto, TemporariesAndHeldResults) {
  FusionOn on;
  for (Device device : devices()) {
    SCOPED_TRACE(device.str());
    const auto a0 = random_values(30000, 2), b0 = random_values(30000, 3);
    ndarray a = array<double>(a0, std::nullopt, device), b = array<double>(b0, std::nullopt, device);
    ndarray kept = a * b;                      // held: written to memory
    ndarray y = copper::sqrt(copper::abs((kept + a) * 0.5));   // (kept + a) and the product: held by no one
    EXPECT_EQ(deferred_ops(), 5u);
    const auto gy = y.to_vector<double>(), gk = kept.to_vector<double>();
    // The sum, product and abs died with the statement: only they are kept out of memory,
    // in two slots (the abs is written once the sum's last use, the product, is done).
    EXPECT_EQ(last_chain_scratch_slots(), 2u);
    for (std::size_t i = 0; i < a0.size(); ++i) {
      ASSERT_EQ(gk[i], a0[i] * b0[i]);
      ASSERT_EQ(gy[i], std::sqrt(std::abs((a0[i] * b0[i] + a0[i]) * 0.5)));
    }
  }
}

// sqrt(sum(x * x, axis=-1)): the square and the sum are recorded together, and the sum's
// kernel computes the squares as it reads them on the GPU; the rows' sums are those of
// the same rows summed eagerly.
TEST(FusionAuto, ReductionTakesTheFormulaThatFeedsIt) {
  FusionOn on;
  for (Device device : devices()) {
    SCOPED_TRACE(device.str());
    const std::int64_t rows = 37, cols = 1031;
    const auto x0 = random_values(static_cast<std::size_t>(rows * cols), 4);
    ndarray x = array<double>(x0, std::nullopt, device).reshape({rows, cols});
    ndarray held = x + 1.0;  // held: the reduction's kernel stores it on the way
    ndarray s = copper::sum(x * x, -1);
    EXPECT_EQ(deferred_ops(), 3u);
    ndarray norm = copper::sqrt(s);
    set_fusion(false);
    ndarray want = copper::sqrt(copper::sum(x * x, -1));
    set_fusion(true);
    EXPECT_EQ(norm.to_vector<double>(), want.to_vector<double>());
    const auto h = held.to_vector<double>();
    for (std::size_t i = 0; i < x0.size(); ++i) ASSERT_EQ(h[i], x0[i] + 1.0);
  }
}

TEST(FusionAuto, SwitchingOffRunsPendingWork) {
  const bool was = fusion_enabled();
  set_fusion(true);
  ndarray x = array<double>({1, 2, 3}, cpu);
  x += 1;
  EXPECT_EQ(deferred_ops(), 1u);
  set_fusion(false);
  EXPECT_EQ(deferred_ops(), 0u);
  x += 1;
  EXPECT_EQ(deferred_ops(), 0u);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{3, 4, 5}));
  set_fusion(was);
}

}  // namespace

// Several threads record into the one pending chain, and read results another thread made:
// a deferred result gets its memory (its address) when its chain runs, which may be on any
// thread, and every reader sees the values, never a placeholder.
TEST(FusionAuto, ThreadsShareResultsWhileTheirChainsRun) {
  FusionOn on;
  for (Device device : devices()) {
    SCOPED_TRACE(device.str());
    const auto a0 = random_values(5000, 4);
    const ndarray a = array<double>(a0, std::nullopt, device);
    std::mutex m;
    std::vector<std::pair<ndarray, double>> made;  // (a * k + 1, k), newest last
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < 60; ++i) {
          if (t == 0 || i % 3 == 0) {
            const double k = t * 100 + i;
            ndarray y = a * k + 1.0;  // deferred, no memory yet
            std::lock_guard lock(m);
            made.emplace_back(std::move(y), k);
            continue;
          }
          std::pair<ndarray, double> pick;
          {
            std::lock_guard lock(m);
            if (made.empty()) continue;
            pick = made[static_cast<std::size_t>(i) % made.size()];
          }
          ndarray z = (pick.first * 3.0 - 1.0) * 0.5;  // reads another thread's result
          const auto got = z.to_vector<double>();
          for (std::size_t j = 0; j < a0.size(); j += 97)
            if (got[j] != ((a0[j] * pick.second + 1.0) * 3.0 - 1.0) * 0.5) ++wrong;
        }
      });
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
    for (auto& [y, k] : made) {
      const auto got = y.to_vector<double>();
      for (std::size_t j = 0; j < a0.size(); j += 101) ASSERT_EQ(got[j], a0[j] * k + 1.0);
    }
  }
}
