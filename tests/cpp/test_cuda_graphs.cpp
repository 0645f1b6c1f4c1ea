// CUDA graphs through the C++ API (copper/cuda.hpp): Stream::begin_capture/end_capture and
// Graph::launch replay copper ops with the inputs' current values in one launch call;
// host waits and host copies refuse during a capture without spoiling it. GPU only: every
// case skips where copper finds no usable GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "copper/copper.hpp"

namespace {
using namespace copper;
namespace cu = copper::cuda;

const Device gpu0{DeviceType::cuda, 0};

#define REQUIRE_GPU() \
  if (!cu::is_available()) GTEST_SKIP() << "needs a GPU usable by copper"

// Writes `values` into `dst` in place (its address stays, as a graph needs).
void put(const ndarray& dst, const std::vector<double>& values) { copyto(dst, array(values, std::nullopt, gpu0)); }

TEST(CudaGraphs, ReplaysElementwiseReductionAndMatmulWithNewInputs) {
  REQUIRE_GPU();
  DeviceScope on_gpu(gpu0);
  const std::int64_t n = 6;
  ndarray x = zeros({n}), y = zeros({n}), total = zeros({});
  ndarray a = zeros({2, 3}), b = zeros({3, 2}), c = zeros({2, 2});
  auto ops = [&] {
    add(x, 1.0, {.out = y});
    multiply(y, 2.0, {.out = y});
    sum(y, {}, {.out = total});
    matmul(a, b, c);
  };
  ops();  // warm: kernels compiled, cuBLAS handle made
  cu::Stream s;
  cu::Graph graph = [&] {
    cu::StreamScope scope(s);
    s.begin_capture();
    EXPECT_TRUE(s.is_capturing());
    ops();
    return s.end_capture();
  }();
  EXPECT_FALSE(s.is_capturing());
  EXPECT_GE(graph.num_nodes(), 3u);
  EXPECT_EQ(graph.device(), 0);
  for (double base : {1.0, -2.0, 10.0}) {
    std::vector<double> xs(n), as(6), bs(6);
    for (int i = 0; i < n; ++i) xs[i] = base + i;
    for (int i = 0; i < 6; ++i) as[i] = base * i, bs[i] = i - base;
    put(x, xs);
    put(a.reshape({6}), as);
    put(b.reshape({6}), bs);
    graph.launch();
    double expected_total = 0;
    std::vector<double> ys = y.to_vector<double>();
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(ys[i], (xs[i] + 1) * 2);
      expected_total += (xs[i] + 1) * 2;
    }
    EXPECT_EQ(total.to_vector<double>()[0], expected_total);  // small integers: exact
    std::vector<double> cs = c.to_vector<double>();
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        double e = 0;
        for (int k = 0; k < 3; ++k) e += as[i * 3 + k] * bs[k * 2 + j];
        EXPECT_DOUBLE_EQ(cs[i * 2 + j], e);
      }
  }
}

TEST(CudaGraphs, OneLaunchCallPerReplay) {
  REQUIRE_GPU();
  DeviceScope on_gpu(gpu0);
  // The eager count below needs each op to launch at once; deferred ops launch nothing.
  struct FusionOff {
    bool was = fusion_enabled();
    FusionOff() { set_fusion(false); }
    ~FusionOff() { set_fusion(was); }
  } eager;
  ndarray x = zeros({1000}, float32);
  const int n_ops = 16;
  auto ops = [&] {
    for (int i = 0; i < n_ops; ++i) add(x, 1, {.out = x});
  };
  ops();
  std::uint64_t before = cu::launch_count();
  ops();
  EXPECT_GE(cu::launch_count() - before, static_cast<std::uint64_t>(n_ops));
  cu::synchronize();  // the eager ops ran on the default stream, which a non-blocking s does not wait for
  cu::Stream s(true);
  cu::StreamScope scope(s);
  s.begin_capture();
  ops();
  cu::Graph graph = s.end_capture();
  before = cu::launch_count();
  graph.launch(s);
  EXPECT_EQ(cu::launch_count() - before, 1u);
  s.synchronize();
  for (float v : x.to_vector<float>()) EXPECT_EQ(v, 3.0f * n_ops);
}

TEST(CudaGraphs, MemoryAllocatedDuringCaptureBelongsToTheGraphToo) {
  REQUIRE_GPU();
  DeviceScope on_gpu(gpu0);
  ndarray x = array(std::vector<double>{1, 2, 3}, std::nullopt, gpu0);
  cu::Stream s;
  std::optional<ndarray> y;
  std::optional<cu::Graph> graph;
  {
    cu::StreamScope scope(s);
    s.begin_capture();
    {
      ndarray tmp = x * 3.0;  // freed inside the capture, kept by the graph
      y = tmp + 1.0;
    }
    graph = s.end_capture();
  }
  graph->launch(s);
  s.synchronize();
  EXPECT_EQ(y->to_vector<double>(), (std::vector<double>{4, 7, 10}));
  put(x, {0, -1, 5});
  graph->launch(s);
  s.synchronize();
  EXPECT_EQ(y->to_vector<double>(), (std::vector<double>{1, -2, 16}));
  graph.reset();  // waits for its last launch, then lets go of its memory
  EXPECT_EQ(y->to_vector<double>(), (std::vector<double>{1, -2, 16}));
}

TEST(CudaGraphs, HostWaitsRefuseWithoutSpoilingTheCapture) {
  REQUIRE_GPU();
  DeviceScope on_gpu(gpu0);
  ndarray x = array(std::vector<double>{1, 2}, std::nullopt, gpu0);
  cu::Stream s;
  cu::StreamScope scope(s);
  s.begin_capture();
  add(x, 1.0, {.out = x});
  auto expect_refused = [](const std::function<void()>& call, const char* what) {
    try {
      call();
      ADD_FAILURE() << what << ": no exception";
    } catch (const RuntimeError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot run while a CUDA graph capture is in progress on cuda:0"),
                std::string::npos)
          << what << ": " << e.what();
    }
  };
  expect_refused([&] { x.to_vector<double>(); }, "to_vector");
  expect_refused([&] { array(std::vector<double>{1.0}, std::nullopt, gpu0); }, "array from host");
  expect_refused([] { cu::synchronize(); }, "synchronize");
  expect_refused([&] { s.synchronize(); }, "Stream::synchronize");
  EXPECT_TRUE(s.is_capturing());
  multiply(x, 10.0, {.out = x});
  cu::Graph graph = s.end_capture();
  graph.launch(s);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{20, 30}));
}

TEST(CudaGraphs, CaptureErrors) {
  REQUIRE_GPU();
  EXPECT_THROW(cu::Stream::null(0).begin_capture(), RuntimeError);
  cu::Stream s;
  EXPECT_THROW(s.end_capture(), RuntimeError);
  s.begin_capture();
  EXPECT_THROW(s.begin_capture(), RuntimeError);
  cu::Graph empty = s.end_capture();
  EXPECT_EQ(empty.num_nodes(), 0u);
  cu::Stream other(false, 0);
  empty.launch(other);
  other.synchronize();
}

TEST(CudaGraphs, WithoutGpuEveryCallRefuses) {
  if (cu::is_available()) GTEST_SKIP() << "checks the behaviour without a usable GPU";
  EXPECT_THROW(cu::Stream().begin_capture(), RuntimeError);
  EXPECT_EQ(cu::launch_count(), 0u);
}

}  // namespace
