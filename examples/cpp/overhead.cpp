// Per-op host overhead of the C++ API on tiny arrays: how long one `x + y` (a new
// array) and one `x *= 5` (in place) take to issue, averaged over many calls with a
// single synchronization at the end. On a GPU this is the cost of enqueueing work;
// the kernels themselves are a few microseconds of GPU time that overlap the loop.
// Prints JSON lines: {"workload": ..., "us_per_op": ...} (bench/gpu_bench.py reads them).
#include <chrono>
#include <cstdio>

#include "copper/copper.hpp"

namespace {

template <class F> double microseconds_per_call(F&& f, int calls) {
  for (int i = 0; i < 1000; ++i) f();  // warm-up: kernels compiled, pool primed
  copper::synchronize(copper::default_device());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) f();
  copper::synchronize(copper::default_device());
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
}

}  // namespace

int main() {
  const copper::Device device = copper::default_device();
  copper::ndarray x = copper::arange(10.0), y = copper::arange(10.0);
  const int calls = 200000;
  const double add_us = microseconds_per_call([&] { copper::ndarray z = x + y; }, calls);
  const double imul_us = microseconds_per_call([&] { x *= 5; }, calls);
  std::printf("{\"workload\": \"x + y (10 f64)\", \"us_per_op\": %.3f, \"device\": \"%s\"}\n", add_us, device.str().c_str());
  std::printf("{\"workload\": \"x *= 5 (10 f64)\", \"us_per_op\": %.3f, \"device\": \"%s\"}\n", imul_us, device.str().c_str());
  return 0;
}
