// Custom CUDA kernels from C++ source strings (copper::RawKernel / copper::RawModule),
// in five lessons: a grid-stride loop, a histogram with atomics, a tiled matrix multiply
// in shared memory, a 2-D blur on a 2-D grid, and a block reduction with warp shuffles.
// Each result is checked against copper's own ops or a host computation.
//
// The kernels need a GPU. Without one the example only compiles them (NVRTC for sm_90)
// and says so. COPPER_DEMO_SIZE scales the problems (default 1000).
#include <copper/copper.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "custom_kernel_sources.h"

namespace cu = copper;

namespace {

int failures = 0;

void report(const std::string& lesson, double error, double tolerance) {
  const bool ok = error <= tolerance;
  failures += ok ? 0 : 1;
  std::cout << "  " << lesson << ": max error " << error << (ok ? "  ok" : "  MISMATCH") << "\n";
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
  return m;
}

std::int64_t blocks_for(std::int64_t n, std::int64_t block) { return std::max<std::int64_t>(1, (n + block - 1) / block); }

void run_lessons(std::int64_t size) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto random_floats = [&](std::size_t n) {
    std::vector<float> v(n);
    for (auto& x : v) x = uniform(gen);
    return v;
  };

  // 1. Grid-stride loop: a fixed grid of 256-thread blocks covers any n.
  {
    const std::int64_t n = size * size;
    std::vector<float> hx = random_floats(n), hy = random_floats(n);
    cu::ndarray x = cu::array(hx), y = cu::array(hy), out = cu::empty({n}, cu::float32);
    cu::RawKernel scaled_add(lessons::kScaledAdd, "scaled_add");
    // A C++ float passes 4 bytes and a long long 8, matching the kernel's parameters.
    scaled_add({std::min<std::int64_t>(blocks_for(n, 256), 1024)}, {256}, {x, y, out, 2.5f, static_cast<long long>(n)});
    cu::ndarray expected = x * 2.5f + y;  // float32: the weak scalar adapts
    report("grid-stride a*x + y", max_abs_diff(out.to_vector<float>(), expected.to_vector<float>()), 1e-6);
  }

  // 2. Histogram: shared-memory counts per block, then one atomicAdd per bin and block.
  {
    const std::int64_t n = size * size;
    const int nbins = 64;
    std::uniform_int_distribution<int> value(0, nbins - 1);
    std::vector<int> hv(n);
    for (auto& v : hv) v = value(gen);
    cu::ndarray values = cu::array(hv), bins = cu::zeros({nbins}, cu::uint32);
    cu::RawKernel histogram(lessons::kHistogram, "histogram");
    histogram({std::min<std::int64_t>(blocks_for(n, 256), 256)}, {256}, {values, static_cast<long long>(n), bins, nbins},
              nbins * sizeof(unsigned int));
    std::vector<double> expected(nbins, 0.0);
    for (int v : hv) expected[v] += 1;
    const std::vector<double> got = bins.to_vector<double>();
    double error = 0;
    for (int b = 0; b < nbins; ++b) error = std::max(error, std::abs(got[b] - expected[b]));
    report("histogram with atomics", error, 0);
  }

  // 3. Tiled matmul: a template instantiated through a name expression.
  {
    const int m = static_cast<int>(size / 4 + 3), k = static_cast<int>(size / 3 + 5), n = static_cast<int>(size / 5 + 7);
    cu::ndarray a = cu::array(random_floats(static_cast<std::size_t>(m) * k), cu::Shape{m, k});
    cu::ndarray b = cu::array(random_floats(static_cast<std::size_t>(k) * n), cu::Shape{k, n});
    cu::ndarray c = cu::empty({m, n}, cu::float32);
    cu::RawModule module(lessons::kTiledMatmul, {"-std=c++17"}, {"matmul_tiled<16>"});
    cu::RawKernel matmul_tiled = module.get_function("matmul_tiled<16>");
    matmul_tiled({blocks_for(n, 16), blocks_for(m, 16)}, {16, 16}, {a, b, c, m, n, k});
    // float32 sums of k products of values in [-1, 1]: rounding differs from cuBLAS's order.
    report("tiled matmul vs copper::matmul",
           max_abs_diff(c.to_vector<float>(), cu::matmul(a, b).to_vector<float>()), 1e-5 * k);
  }

  // 4. Box blur on a 2-D grid of 16 x 16 blocks.
  {
    const int height = static_cast<int>(size / 2 + 1), width = static_cast<int>(size + 3);
    std::vector<float> img = random_floats(static_cast<std::size_t>(height) * width);
    cu::ndarray in = cu::array(img, cu::Shape{height, width}), out = cu::empty({height, width}, cu::float32);
    cu::RawKernel box_blur(lessons::kBoxBlur, "box_blur");
    box_blur({blocks_for(width, 16), blocks_for(height, 16)}, {16, 16}, {in, out, height, width});
    std::vector<float> expected(img.size());
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        float s = 0;  // the kernel's order of additions, so float32 results agree closely
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            s += img[static_cast<std::size_t>(std::clamp(y + dy, 0, height - 1)) * width + std::clamp(x + dx, 0, width - 1)];
        expected[static_cast<std::size_t>(y) * width + x] = s / 9.0f;
      }
    report("2-D box blur", max_abs_diff(out.to_vector<float>(), expected), 1e-6);
  }

  // 5. Block reduction: warp shuffles, then one atomicAdd per block.
  {
    const std::int64_t n = size * size + 17;
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<float> hx(n);
    for (auto& v : hx) v = unit(gen);
    cu::ndarray x = cu::array(hx), total = cu::zeros({1}, cu::float32);
    cu::RawKernel block_sum(lessons::kBlockSum, "block_sum");
    block_sum({std::min<std::int64_t>(blocks_for(n, 256), 512)}, {256}, {x, static_cast<long long>(n), total});
    const double got = total.to_vector<double>()[0];
    const double expected = cu::sum(x.astype(cu::float64)).item().to_double();
    // float32 sums of positive values: at most 512 atomic adds into the total, each off by
    // half a float32 ulp (6e-8 relative), dominate; 2e-5 of the total bounds them.
    report("block reduction with shuffles (relative)", std::abs(got - expected) / expected, 2e-5);
  }
}

void compile_only() {
  cu::RawKernel(lessons::kScaledAdd, "scaled_add").compile();
  cu::RawKernel(lessons::kHistogram, "histogram").compile();
  cu::RawModule(lessons::kTiledMatmul, {"-std=c++17"}, {"matmul_tiled<16>"}).compile();
  cu::RawKernel(lessons::kBoxBlur, "box_blur").compile();
  cu::RawKernel(lessons::kBlockSum, "block_sum").compile();
}

}  // namespace

int main() {
  const char* env = std::getenv("COPPER_DEMO_SIZE");
  const std::int64_t size = std::max<std::int64_t>(8, env ? std::atoll(env) : 1000);
  if (cu::default_device().type != cu::DeviceType::cuda) {
    std::cout << "custom kernels run on a GPU; the default device is " << cu::default_device().str() << "\n";
    try {
      compile_only();
      std::cout << "all five lessons compiled with NVRTC (sm_90)\ncustom kernels: ok (compiled only)\n";
    } catch (const cu::CompileError& e) {
      std::cout << "a lesson does not compile:\n" << e.what() << "\n";
      return 1;
    } catch (const cu::RuntimeError& e) {
      std::cout << "custom kernels: skipped (" << e.what() << ")\n";
    }
    return 0;
  }
  std::cout << "custom kernels on " << cu::default_device().str() << ", size " << size << "\n";
  run_lessons(size);
  std::cout << (failures ? "custom kernels: MISMATCH\n" : "custom kernels: ok\n");
  return failures ? 1 : 0;
}
