// The GPU runtime through the C++ API (copper/cuda.hpp): streams, events, device
// synchronization, the memory pool and out-of-memory recovery. GPU cases skip where
// copper finds no usable GPU; there the CPU-only cases check that streams, events and
// device 0 act on the CPU device and that GPU-only calls refuse clearly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "copper/copper.hpp"
#include "copper/cuda.hpp"

namespace {
using namespace copper;
namespace cu = copper::cuda;

const Device gpu0{DeviceType::cuda, 0};
constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t GiB = std::size_t{1} << 30;

bool mentions_gpu(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text.find("cuda") != std::string::npos || text.find("gpu") != std::string::npos;
}

// `call` raises copper::RuntimeError whose message names CUDA or the GPU.
void expect_no_gpu_error(const std::function<void()>& call, const char* what) {
  try {
    call();
    ADD_FAILURE() << what << ": no exception";
  } catch (const RuntimeError& e) {
    EXPECT_TRUE(mentions_gpu(e.what())) << what << ": " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": not a RuntimeError: " << e.what();
  }
}

TEST(CudaRuntimeWithoutGpu, GpuOnlyCallsRefuseClearly) {
  if (cu::is_available()) GTEST_SKIP() << "checks the behaviour without a usable GPU";
  EXPECT_GE(cu::device_count(), 0);
  expect_no_gpu_error([] { cu::Stream s(false, 1); }, "Stream on device 1");
  expect_no_gpu_error([] { cu::Event e(true, 1); }, "Event on device 1");
  expect_no_gpu_error([] { cu::synchronize(1); }, "synchronize(1)");
  expect_no_gpu_error([] { cu::set_device(1); }, "set_device(1)");
  expect_no_gpu_error([] { cu::Stream().begin_capture(); }, "begin_capture");
  expect_no_gpu_error([] { cu::memory_stats(); }, "memory_stats");
  expect_no_gpu_error([] { cu::set_memory_limit(MiB); }, "set_memory_limit");
  expect_no_gpu_error([] { cu::reset_peak_memory(); }, "reset_peak_memory");
  expect_no_gpu_error([] { cu::device_properties(); }, "device_properties");
  expect_no_gpu_error([] { zeros({3}, float64, gpu0); }, "zeros on cuda:0");
  const Device before = default_device();
  expect_no_gpu_error([] { set_default_device(gpu0); }, "set_default_device(cuda:0)");
  EXPECT_EQ(default_device(), before);
  EXPECT_EQ(zeros({2}, float64, cpu).to_vector<double>(), (std::vector<double>{0, 0}));
}

// Without a GPU, streams, events and device 0 act on the CPU device.
TEST(CudaRuntimeWithoutGpu, StreamsAndEventsActOnTheCpu) {
  if (cu::is_available()) GTEST_SKIP() << "checks the behaviour without a usable GPU";
  EXPECT_EQ(cu::current_device(), 0);
  const cu::Stream null = cu::Stream::null();
  EXPECT_EQ(null.handle(), 0u);
  EXPECT_EQ(null, cu::Stream::null());
  EXPECT_EQ(cu::current_stream(), null);
  cu::Stream s(true);
  EXPECT_NE(s.handle(), 0u);
  EXPECT_TRUE(s.done());
  cu::Event start, end;
  {
    cu::StreamScope scope(s);
    EXPECT_EQ(cu::current_stream(), s);
    start.record();
    ndarray x = arange(Scalar(100000), float64, cpu);
    (void)sum(multiply(x, x));
    end.record();
  }
  EXPECT_EQ(cu::current_stream(), null);
  end.synchronize();
  EXPECT_TRUE(end.done());
  EXPECT_GE(cu::elapsed_time(start, end), 0.0f);
  EXPECT_THROW(cu::elapsed_time(cu::Event(), end), ValueError);
  s.synchronize();
  cu::synchronize();
  cu::free_all_blocks();
  const Device before = default_device();
  cu::set_device(0);
  EXPECT_EQ(default_device(), cpu);
  set_default_device(before);
}

class CudaRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cu::is_available()) GTEST_SKIP() << "no GPU usable by copper";
    cu::MemoryStats s = cu::memory_stats(0);
    saved_limit_ = s.limit == s.total ? 0 : s.limit;
  }
  void TearDown() override {
    if (cu::is_available()) cu::set_memory_limit(saved_limit_, 0);
  }
  std::size_t saved_limit_ = 0;
};

std::vector<double> halves(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 0.5 * static_cast<double>(i);
  return v;
}

TEST_F(CudaRuntime, DevicesAndTheLegacyStream) {
  EXPECT_GE(cu::device_count(), 1);
  {
    DeviceScope scope(gpu0);
    EXPECT_EQ(cu::current_device(), 0);
  }
  EXPECT_EQ(cu::Stream::null(0).handle(), 0u);
  EXPECT_EQ(cu::Stream::null(0).device(), 0);
  EXPECT_EQ(cu::current_stream(0).handle(), 0u);  // nothing made current on this thread
  cu::Stream::null(0).synchronize();
  EXPECT_TRUE(cu::Stream::null(0).done());
}

TEST_F(CudaRuntime, StreamScopesNestAndRestore) {
  const std::uintptr_t outer = cu::current_stream(0).handle();
  cu::Stream a(false, 0);
  cu::Stream b(true, 0);
  EXPECT_NE(a.handle(), 0u);
  EXPECT_NE(b.handle(), 0u);
  EXPECT_NE(a.handle(), b.handle());
  EXPECT_EQ(a.device(), 0);
  cu::Stream copy = a;
  EXPECT_TRUE(copy == a);
  EXPECT_FALSE(a == b);
  {
    cu::StreamScope s1(a);
    EXPECT_EQ(cu::current_stream(0).handle(), a.handle());
    {
      cu::StreamScope s2(b);
      EXPECT_EQ(cu::current_stream(0).handle(), b.handle());
      {
        cu::StreamScope again(a);
        EXPECT_EQ(cu::current_stream(0).handle(), a.handle());
      }
      EXPECT_EQ(cu::current_stream(0).handle(), b.handle());
    }
    EXPECT_EQ(cu::current_stream(0).handle(), a.handle());
  }
  EXPECT_EQ(cu::current_stream(0).handle(), outer);
  cu::set_current_stream(b);
  EXPECT_EQ(cu::current_stream(0).handle(), b.handle());
  cu::set_current_stream(cu::Stream::null(0));
  EXPECT_EQ(cu::current_stream(0).handle(), 0u);
}

TEST_F(CudaRuntime, WorkOnANonBlockingStreamIsRightAfterSync) {
  const std::int64_t n = 1 << 20;
  ndarray x = array(halves(n), Shape{n}, gpu0);
  cu::Stream::null(0).synchronize();  // a non-blocking stream does not wait for the upload's stream
  cu::Stream s(true, 0);
  ndarray y, total;
  {
    cu::StreamScope scope(s);
    y = x * 2.0 + 1.0;  // i + 1, exact
    total = sum(y);
  }
  s.synchronize();
  EXPECT_TRUE(s.done());
  std::vector<double> expected(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) expected[static_cast<std::size_t>(i)] = static_cast<double>(i + 1);
  EXPECT_EQ(y.to_vector<double>(), expected);
  // n(n+1)/2 = 549756338176 < 2^53: every partial sum is an exact integer.
  EXPECT_EQ(total.to_vector<double>()[0], static_cast<double>(n) * static_cast<double>(n + 1) / 2);
}

TEST_F(CudaRuntime, EventsTimeWorkInOrder) {
  ndarray x = ones({1 << 24}, float32, gpu0);
  cu::Event e0(true, 0), e1(true, 0), e2(true, 0);
  e0.record();
  for (int i = 0; i < 20; ++i) x *= 1.0001f;
  e1.record();
  for (int i = 0; i < 20; ++i) x *= 1.0001f;
  e2.record(cu::current_stream(0));
  e2.synchronize();
  EXPECT_TRUE(e0.done());
  EXPECT_TRUE(e1.done());
  EXPECT_TRUE(e2.done());
  const float t01 = cu::elapsed_time(e0, e1), t12 = cu::elapsed_time(e1, e2), t02 = cu::elapsed_time(e0, e2);
  EXPECT_GT(t01, 0.0f);
  EXPECT_GT(t12, 0.0f);
  EXPECT_GE(t02, t01);
  EXPECT_GE(t02, t12);
  // Three spans of the same timestamps: only float rounding separates them.
  EXPECT_NEAR(t01 + t12, t02, 1e-2 + 1e-3 * t02);
}

TEST_F(CudaRuntime, AStreamWaitsForAnEventOfAnother) {
  const std::int64_t n = 1 << 22;
  ndarray x = array(halves(n), Shape{n}, gpu0);
  cu::Stream::null(0).synchronize();
  cu::Stream producer(true, 0), consumer(true, 0);
  cu::Event ready(false, 0);
  ndarray y;
  {
    cu::StreamScope scope(producer);
    y = x;
    for (int i = 0; i < 10; ++i) y = y * 2.0;  // i * 512, exact
    ready.record(producer);
  }
  ready.wait(consumer);
  std::vector<double> got;
  {
    cu::StreamScope scope(consumer);
    ndarray z = y + 1.0;
    got = z.to_vector<double>();  // a host read waits for the current stream
  }
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; i += 4097) EXPECT_EQ(got[static_cast<std::size_t>(i)], 512.0 * i + 1.0) << i;
  EXPECT_EQ(got.back(), 512.0 * (n - 1) + 1.0);
}

TEST_F(CudaRuntime, SynchronizeWaitsForEverything) {
  ndarray x = full({1 << 20}, 3.0, float64, gpu0);
  ndarray y = x * x;
  cu::synchronize(0);
  cu::synchronize();
  copper::synchronize(gpu0);
  EXPECT_EQ(sum(y).item().to_double(), 9.0 * (1 << 20));
}

TEST_F(CudaRuntime, UsedMemoryFollowsAllocations) {
  cu::synchronize(0);
  const cu::MemoryStats before = cu::memory_stats(0);
  EXPECT_GT(before.total, 0u);
  EXPECT_GT(before.limit, 0u);
  std::size_t during_used = 0;
  {
    ndarray x = empty({1 << 20}, float32, gpu0);
    const cu::MemoryStats during = cu::memory_stats(0);
    during_used = during.used;
    EXPECT_EQ(during.used - before.used, 4 * MiB);
    EXPECT_GE(during.peak, during.used);
    ndarray none = empty({0, 3}, float64, gpu0);
    EXPECT_EQ(cu::memory_stats(0).used, during.used);
  }
  const cu::MemoryStats after = cu::memory_stats(0);
  EXPECT_EQ(after.used, before.used);
  EXPECT_GE(after.peak, during_used);
  cu::reset_peak_memory(0);
  EXPECT_EQ(cu::memory_stats(0).peak, after.used);
}

TEST_F(CudaRuntime, MemoryLimitRaisesOutOfMemoryNamingTheBytes) {
  cu::synchronize(0);
  const std::size_t used = cu::memory_stats(0).used;
  cu::set_memory_limit(used + MiB, 0);
  EXPECT_EQ(cu::memory_stats(0).limit, used + MiB);
  try {
    empty({1 << 20}, float64, gpu0);
    ADD_FAILURE() << "8 MiB allocated under a 1 MiB limit";
  } catch (const OutOfMemoryError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("8388608 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("in use"), std::string::npos) << text;
  }
  EXPECT_EQ(sum(full({1000}, 2.5, float64, gpu0)).item().to_double(), 2500.0);  // 8000 bytes fit
  cu::set_memory_limit(0, 0);
  EXPECT_EQ(cu::memory_stats(0).limit, cu::memory_stats(0).total);
  EXPECT_EQ(sum(ones({1 << 20}, float64, gpu0)).item().to_double(), double(1 << 20));
}

TEST_F(CudaRuntime, InPlaceMultiplyAllocatesNothing) {
  ndarray x = full({1 << 22}, 1.5, float32, gpu0);
  // The device's floating-point error record (errstate, 4 bytes) is allocated by the first
  // checked float op and kept: make it before measuring what the multiply itself allocates.
  x *= 1;
  cu::synchronize(0);
  cu::reset_peak_memory(0);
  const cu::MemoryStats before = cu::memory_stats(0);
  x *= 5;
  cu::synchronize(0);
  const cu::MemoryStats after = cu::memory_stats(0);
  EXPECT_EQ(after.peak, before.peak);
  EXPECT_EQ(after.used, before.used);
  EXPECT_EQ(x.to_vector<float>(), std::vector<float>(1 << 22, 7.5f));
}

TEST_F(CudaRuntime, OutOfMemoryThenKeepsComputing) {
  const std::size_t total = cu::memory_stats(0).total;
  const std::size_t asked = total + GiB;
  try {
    empty({static_cast<std::int64_t>(asked)}, uint8, gpu0);
    ADD_FAILURE() << "allocated more than the card holds";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(asked) + " bytes"), std::string::npos) << e.what();
  }
  cu::free_all_blocks(0);
  ndarray x = arange(1000000, int64, gpu0);
  EXPECT_EQ(sum(x).item().to_double(), 499999500000.0);
}

TEST_F(CudaRuntime, MixingDevicesInOneOpIsAValueError) {
  ndarray c = full({4}, 2.0, float64, cpu);
  ndarray g = full({4}, 3.0, float64, gpu0);
  try {
    add(c, g);
    ADD_FAILURE() << "added a CPU array to a GPU array";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("arrays are on different devices (cpu and cuda:0)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(c += g, ValueError);
  EXPECT_EQ(c.to_vector<double>(), std::vector<double>(4, 2.0));
  EXPECT_EQ((asarray(g, std::nullopt, cpu) + c).to_vector<double>(), std::vector<double>(4, 5.0));
}

}  // namespace
