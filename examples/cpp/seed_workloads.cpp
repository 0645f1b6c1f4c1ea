// The seed workloads in C++, timed with std::chrono (median of repeats after a warm-up).
// NumPy has no C++ side, so the reference column is the same work as a plain
// single-threaded loop over std::vector: what copper must at least match per thread.
//
//   ones((1000,1000,1000)); x *= 5; x *= 5, x *= x, x += x; sqrt(sum(x**2, axis=-1))
//   on (1000,100,1000); arange(6).reshape(2,3).astype(float32).sum(axis=1); x *= 5 sweep.
//
// Options (or environment variables): --size N (COPPER_DEMO_SIZE, cube edge, default 1000
// or less when memory is short), --repeats R (COPPER_DEMO_REPEATS, 3),
// --sweep-max N (COPPER_DEMO_SWEEP_MAX, 1e8). Exits 1 if any result is wrong.
#include <copper/copper.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace cu = copper;

namespace {

struct Options {
  std::int64_t edge = 0;  // 0: choose from available memory
  int repeats = 3;
  double sweep_max = 1e8;
};

double env_or(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : fallback;
}

Options parse_options(int argc, char** argv) {
  Options o;
  o.edge = static_cast<std::int64_t>(env_or("COPPER_DEMO_SIZE", 0));
  o.repeats = static_cast<int>(env_or("COPPER_DEMO_REPEATS", 3));
  o.sweep_max = env_or("COPPER_DEMO_SWEEP_MAX", 1e8);
  // Accepts --name=value and --name value, as the Python demo does.
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    }
    if (arg == "--size") o.edge = static_cast<std::int64_t>(std::atof(value.c_str()));
    else if (arg == "--repeats") o.repeats = std::atoi(value.c_str());
    else if (arg == "--sweep-max") o.sweep_max = std::atof(value.c_str());
    else {
      std::fprintf(stderr, "usage: %s [--size N] [--repeats R] [--sweep-max N]\n", argv[0]);
      std::exit(2);
    }
  }
  o.repeats = std::max(o.repeats, 1);
  return o;
}

double available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(1 << 10, '\n');
  }
  return 8.0 * (1LL << 30);  // unknown: assume a small machine
}

std::int64_t choose_edge(std::int64_t requested) {
  if (requested > 0) return requested;
  const double budget = 0.75 * available_memory_bytes();  // one cube at a time, plus headroom
  std::int64_t edge = 1000;
  if (1e9 * 8 > budget) {
    edge = std::max<std::int64_t>(10, static_cast<std::int64_t>(std::cbrt(budget / 8)) / 10 * 10);
    std::printf("note: %.1f GiB available, too little for the 8 GB cube; using (%lld,%lld,%lld) "
                "(set COPPER_DEMO_SIZE to choose)\n",
                budget / (1 << 30), static_cast<long long>(edge), static_cast<long long>(edge),
                static_cast<long long>(edge));
  }
  return edge;
}

// Median ms of one call over `repeats` batches of `loops` calls, after one warm-up call.
double median_ms(const std::function<void()>& fn, int repeats, int loops = 1) {
  using clock = std::chrono::steady_clock;
  fn();
  cu::synchronize();
  std::vector<double> samples;
  for (int r = 0; r < repeats; ++r) {
    auto start = clock::now();
    for (int i = 0; i < loops; ++i) fn();
    cu::synchronize();
    samples.push_back(std::chrono::duration<double, std::milli>(clock::now() - start).count() / loops);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int failures = 0;

void row(const std::string& name, const cu::Shape& shape, double loop_ms, double copper_ms, bool ok,
         const std::string& detail = "") {
  std::printf("%-48s %-16s %10.3f %10.3f %7.2fx  %s\n", name.c_str(), cu::shape_str(shape).c_str(), loop_ms,
              copper_ms, loop_ms / copper_ms, ok ? "ok" : ("WRONG " + detail).c_str());
  std::fflush(stdout);
  if (!ok) ++failures;
}

void error_row(const std::string& name, const std::exception& e) {
  std::printf("%-48s error: %s\n", name.c_str(), e.what());
  ++failures;
}

// Every element equals `value` (checked through min and max).
bool all_equal(const cu::ndarray& x, double value, std::string& detail) {
  double lo = cu::amin(x).item().to_double(), hi = cu::amax(x).item().to_double();
  detail = "min " + std::to_string(lo) + " max " + std::to_string(hi) + ", expected " + std::to_string(value);
  return lo == value && hi == value;
}

void times5(std::vector<double>& v) {
  for (double& e : v) e *= 5;
}
void chain(std::vector<double>& v) {
  for (double& e : v) e *= 5;
  for (double& e : v) e *= e;
  for (double& e : v) e += e;
}

void cube_workloads(std::int64_t edge, int repeats) {
  const cu::Shape shape{edge, edge, edge};
  const auto n = static_cast<std::size_t>(edge * edge * edge);
  std::string detail;
  try {
    double copper_ms = median_ms([&] { cu::ones(shape); }, repeats);
    bool ok = all_equal(cu::ones(shape), 1.0, detail);
    double loop_ms = median_ms([&] { std::vector<double> v(n, 1.0); }, repeats);
    row("ones(" + cu::shape_str(shape) + ")", shape, loop_ms, copper_ms, ok, detail);
  } catch (const std::exception& e) {
    error_row("ones", e);
  }

  // In-place results depend on how many times they ran: warm-up plus repeats.
  double expected_times5 = 1, expected_chain = 1;
  for (int r = 0; r < repeats + 1; ++r) {
    expected_times5 *= 5;
    expected_chain *= 5;
    expected_chain *= expected_chain;
    expected_chain += expected_chain;
  }
  try {
    cu::ndarray x = cu::ones(shape);
    double copper_ms = median_ms([&] { x *= 5; }, repeats);
    bool ok = all_equal(x, expected_times5, detail);
    x = cu::ndarray();  // free before the reference allocates its own
    std::vector<double> v(n, 1.0);
    double loop_ms = median_ms([&] { times5(v); }, repeats);
    row("x *= 5", shape, loop_ms, copper_ms, ok, detail);
  } catch (const std::exception& e) {
    error_row("x *= 5", e);
  }
  try {
    cu::ndarray x = cu::ones(shape);
    double copper_ms = median_ms(
        [&] {
          x *= 5;
          x *= x;
          x += x;
        },
        repeats);
    bool ok = all_equal(x, expected_chain, detail);
    x = cu::ndarray();
    std::vector<double> v(n, 1.0);
    double loop_ms = median_ms([&] { chain(v); }, repeats);
    row("x *= 5; x *= x; x += x", shape, loop_ms, copper_ms, ok, detail);
  } catch (const std::exception& e) {
    error_row("x *= 5; x *= x; x += x", e);
  }
}

void norm_workload(std::int64_t edge, int repeats) {
  const std::int64_t rows = edge * std::max<std::int64_t>(1, edge / 10), cols = edge;
  const cu::Shape shape{edge, std::max<std::int64_t>(1, edge / 10), edge};
  try {
    // Deterministic values in [0, 1) without a random generator: a fixed-point sequence.
    std::vector<double> host(static_cast<std::size_t>(rows * cols));
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<double>((i * 2654435761u) % 1000003) / 1000003;
    cu::ndarray x = cu::array(host.data(), shape, cu::float64);
    auto norms = [&] { return cu::sqrt(cu::sum(cu::square(x), -1)); };  // x**2 in NumPy spelling
    double copper_ms = median_ms([&] { norms(); }, repeats);
    std::vector<double> want(static_cast<std::size_t>(rows));
    auto reference = [&] {
      for (std::int64_t r = 0; r < rows; ++r) {
        double s = 0;
        for (std::int64_t c = 0; c < cols; ++c) s += host[r * cols + c] * host[r * cols + c];
        want[r] = std::sqrt(s);
      }
    };
    double loop_ms = median_ms(reference, repeats);
    std::vector<double> got = norms().to_vector<double>();
    // Sums of `edge` squares in [0, 1) in a different order: a few ulps apart at most.
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]) / want[i]);
    row("sqrt(sum(x**2, axis=-1))", shape, loop_ms, copper_ms, got.size() == want.size() && worst < 1e-13,
        "max relative difference " + std::to_string(worst));
  } catch (const std::exception& e) {
    error_row("sqrt(sum(x**2, axis=-1))", e);
  }
}

void small_pipeline(int repeats) {
  const std::string name = "arange(6).reshape(2,3).astype('f').sum(axis=1)";
  try {
    auto pipeline = [] { return cu::sum(cu::arange(6).reshape({2, 3}).astype(cu::float32), 1); };
    double copper_ms = median_ms([&] { pipeline(); }, repeats, 1000);
    cu::ndarray result = pipeline();
    bool ok = result.dtype() == cu::float32 && result.to_vector<float>() == std::vector<float>{3, 12};
    double loop_ms = median_ms(
        [] {
          std::vector<float> sums(2, 0.0f);
          for (int i = 0; i < 6; ++i) sums[i / 3] += static_cast<float>(i);
          volatile float keep = sums[0] + sums[1];
          (void)keep;
        },
        repeats, 1000);
    row(name, {2, 3}, loop_ms, copper_ms, ok, "got " + cu::array_repr(result));
    std::printf("  -> %s\n", cu::array_repr(result).c_str());
  } catch (const std::exception& e) {
    error_row(name, e);
  }
}

void sweep(double sweep_max, int repeats) {
  std::printf("\nsize sweep of x *= 5 (float64), up to %.0e elements\n", sweep_max);
  for (std::int64_t n = 1000; n <= sweep_max; n *= 10) {
    const std::string name = "x *= 5 [" + std::to_string(n) + " elements]";
    try {
      const int loops = static_cast<int>(std::max<std::int64_t>(1, 10'000'000 / n));
      cu::ndarray x = cu::ones({n});
      x *= 5;
      std::string detail;
      bool ok = all_equal(x, 5.0, detail);
      double copper_ms = median_ms([&] { x *= 5; }, repeats, loops);
      x = cu::ndarray();
      std::vector<double> v(static_cast<std::size_t>(n), 1.0);
      double loop_ms = median_ms([&] { times5(v); }, repeats, loops);
      row(name, {n}, loop_ms, copper_ms, ok, detail);
    } catch (const std::exception& e) {
      error_row(name, e);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opts = parse_options(argc, argv);
  const std::int64_t edge = choose_edge(opts.edge);
  const double sweep_max = std::min(opts.sweep_max, static_cast<double>(edge) * edge * edge);
  std::printf("copper (C++) on %s, %d threads; median of %d runs after one warm-up\n",
              cu::default_device().str().c_str(), cu::get_num_threads(), opts.repeats);
  std::printf("reference: the same work as a plain one-thread C++ loop; speedup = loop time / copper time\n\n");
  std::printf("%-48s %-16s %10s %10s %8s  check\n", "workload", "shape", "loop ms", "copper ms", "speedup");

  cube_workloads(edge, opts.repeats);
  norm_workload(edge, opts.repeats);
  small_pipeline(opts.repeats);
  sweep(sweep_max, opts.repeats);

  if (failures) {
    std::printf("\n%d workload(s) failed\n", failures);
    return 1;
  }
  std::printf("\nall results match\n");
  return 0;
}
