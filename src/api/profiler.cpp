// copper::profiler::benchmark (include/copper/profiler.hpp): events come from the public
// copper::cuda API, so this file builds with or without the CUDA backend.
#include "copper/profiler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "copper/cuda.hpp"
#include "copper/device.hpp"
#include "copper/errors.hpp"

namespace copper::profiler {
namespace {

std::vector<int> timed_devices(const BenchmarkOptions& options) {
  if (options.devices) return *options.devices;
  const Device d = default_device();
  if (d.type == DeviceType::cuda) return {d.index};
  return {};
}

std::string statistics(const std::string& label, const std::vector<double>& seconds) {
  const double n = static_cast<double>(seconds.size());
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  for (double s : seconds) {
    sum += s * 1e6;
    lo = std::min(lo, s * 1e6);
    hi = std::max(hi, s * 1e6);
  }
  const double mean = sum / n;
  double var = 0;
  for (double s : seconds) var += (s * 1e6 - mean) * (s * 1e6 - mean);
  const double std_dev = std::sqrt(var / n);  // population deviation, as NumPy's std()
  char text[160];
  std::snprintf(text, sizeof text, "    %s: %9.3f us", label.c_str(), mean);
  std::string out = text;
  if (seconds.size() > 1) {
    std::snprintf(text, sizeof text, "   +/- %6.3f (min: %9.3f / max: %9.3f) us", std_dev, lo, hi);
    out += text;
  }
  return out;
}

}  // namespace

std::string BenchmarkResult::to_string(bool show_gpu) const {
  char head[64];
  std::snprintf(head, sizeof head, "%-20s:", name.c_str());
  std::string out = head;
  if (cpu_times.empty()) return out + " (no runs)";
  out += statistics("CPU", cpu_times);
  if (show_gpu) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      out += ' ';
      out += statistics("GPU-" + std::to_string(devices[i]), gpu_times[i]);
    }
  }
  return out;
}

BenchmarkResult benchmark(const std::function<void()>& func, const BenchmarkOptions& options) {
  if (options.n_repeat < 0) throw ValueError("n_repeat must not be negative");
  if (options.n_warmup < 0) throw ValueError("n_warmup must not be negative");
  BenchmarkResult r;
  r.name = options.name;
  r.devices = timed_devices(options);
  const std::size_t nd = r.devices.size();
  std::vector<copper::cuda::Event> starts, ends;
  for (int d : r.devices) {
    starts.emplace_back(true, d);
    ends.emplace_back(true, d);
  }
  for (int i = 0; i < options.n_warmup; ++i) func();
  r.cpu_times.reserve(static_cast<std::size_t>(options.n_repeat));
  r.gpu_times.assign(nd, {});
  using clock = std::chrono::steady_clock;
  double spent = 0;
  for (int i = 0; i < options.n_repeat; ++i) {
    for (auto& e : starts) e.record();
    const auto t0 = clock::now();
    func();
    const auto t1 = clock::now();
    for (auto& e : ends) e.record();
    for (std::size_t k = 0; k < nd; ++k) {
      ends[k].synchronize();
      r.gpu_times[k].push_back(copper::cuda::elapsed_time(starts[k], ends[k]) * 1e-3);
    }
    r.cpu_times.push_back(std::chrono::duration<double>(t1 - t0).count());
    spent += std::chrono::duration<double>(clock::now() - t0).count();
    if (spent > options.max_duration) break;
  }
  return r;
}

}  // namespace copper::profiler
