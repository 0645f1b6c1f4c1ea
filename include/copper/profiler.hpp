// Timing a callable on the CPU and on the GPUs, as CuPy's cupyx.profiler.benchmark:
// each repeat records an event on the current stream of every timed device, calls the
// function, records a second event and waits for it, so the GPU time is the device
// time of that call's work and the CPU time is the host time the call took.
//
//   auto r = copper::profiler::benchmark([&] { y = x * 2; }, {.n_repeat = 100});
//   std::cout << r.to_string() << "\n";   // "func : CPU: ... us +/- ... GPU-0: ..."
#pragma once
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace copper::profiler {

struct BenchmarkOptions {
  int n_repeat = 10000;
  int n_warmup = 10;  // untimed calls first
  // Seconds the timed repeats may take in all; the run stops after the repeat that passes it.
  double max_duration = std::numeric_limits<double>::infinity();
  // GPUs to time; unset: the default device's GPU, or none when the default device is the CPU.
  std::optional<std::vector<int>> devices;
  std::string name = "func";
};

struct BenchmarkResult {
  std::string name;
  std::vector<int> devices;
  std::vector<double> cpu_times;               // seconds, one per repeat run
  std::vector<std::vector<double>> gpu_times;  // [device][repeat], seconds
  // CuPy's layout: "name : CPU: mean us +/- std (min: .. / max: ..) us GPU-0: ...".
  std::string to_string(bool show_gpu = true) const;
};

BenchmarkResult benchmark(const std::function<void()>& func, const BenchmarkOptions& options = {});

}  // namespace copper::profiler
