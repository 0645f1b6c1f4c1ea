// numpy.fft: discrete Fourier transforms on CPU (FFTW) and GPU (cuFFT) arrays, with
// NumPy 2's arguments, precision rules (float32/complex64 stay single precision, other
// inputs compute in double; float16 computes in single) and errors.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper::backend {
class FftPlanCache;
struct FftPinnedPlans;
}  // namespace copper::backend

namespace copper::fft {

// norm: "backward" (forward transforms unscaled, inverse ones scaled by 1/n), "ortho"
// (1/sqrt(n) both ways) or "forward" (1/n on forward transforms). ValueError otherwise.
// n: the transform length along `axis` (the input is cropped or zero-padded to it);
// nullopt takes the input's length (irfft, hfft: 2 * (length - 1)).
// out=: an array of the result's shape that the result casts to ('same_kind').
ndarray fft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
            const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray ifft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
             const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray rfft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
             const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray irfft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray hfft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
             const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray ihfft(const ndarray& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);

// s: the transform lengths along `axes` (nullopt: the input's shape there). An entry of
// -1 takes the input's length; an entry of `fft::none` (NumPy's deprecated None) takes
// the 1-d function's default. axes nullopt: the last len(s) axes, or every axis.
// Repeated axes transform that axis again, as NumPy does.
inline constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min();
using Sizes = std::vector<std::int64_t>;
using Axes = std::optional<std::vector<int>>;
ndarray fftn(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::nullopt,
             const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray ifftn(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::nullopt,
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray rfftn(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::nullopt,
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray irfftn(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::nullopt,
               const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray fft2(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::vector<int>{-2, -1},
             const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray ifft2(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::vector<int>{-2, -1},
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray rfft2(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::vector<int>{-2, -1},
              const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);
ndarray irfft2(const ndarray& a, std::optional<Sizes> s = std::nullopt, Axes axes = std::vector<int>{-2, -1},
               const std::string& norm = "backward", std::optional<ndarray> out = std::nullopt);

// Sample frequencies [0, 1, ..., n/2-1, -n/2, ..., -1] / (d n) (rfftfreq: [0, ..., n/2] / (d n)),
// float64 unless dtype names another real floating dtype.
ndarray fftfreq(std::int64_t n, double d = 1.0, Device device = default_device(),
                std::optional<DType> dtype = std::nullopt);
ndarray rfftfreq(std::int64_t n, double d = 1.0, Device device = default_device(),
                 std::optional<DType> dtype = std::nullopt);
// The zero-frequency term moved to the centre (ifftshift undoes it), over `axes` (all by default).
ndarray fftshift(const ndarray& x, Axes axes = std::nullopt);
ndarray ifftshift(const ndarray& x, Axes axes = std::nullopt);

// ---- plan caches (CuPy's cupy.fft.config.get_plan_cache()) ----------------------------
// A plan the backend built (a cuFFT handle on a GPU, an FFTW plan on the CPU). Plan1d
// transforms one axis, PlanNd two or three; `handle` is the backend's own object.
class Plan {
 public:
  Plan(Device device, int rank, std::size_t work_size, std::string description, std::shared_ptr<void> handle)
      : device_(device), rank_(rank), work_size_(work_size), description_(std::move(description)),
        handle_(std::move(handle)) {}
  virtual ~Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  Device device() const { return device_; }
  int rank() const { return rank_; }
  // Bytes of work area one execution needs (taken from the memory pool per call).
  std::size_t work_size() const { return work_size_; }
  const std::string& description() const { return description_; }
  void* handle() const { return handle_.get(); }

 private:
  Device device_;
  int rank_;
  std::size_t work_size_;
  std::string description_;
  std::shared_ptr<void> handle_;
};
class Plan1d final : public Plan {
 public:
  using Plan::Plan;
};
class PlanNd final : public Plan {
 public:
  using Plan::Plan;
};

using PlanKey = std::vector<std::int64_t>;
struct PlanCacheEntry {
  PlanKey key;
  std::shared_ptr<const Plan> plan;
};
// "key: (...), plan type: Plan1d, <description>, memory usage: N": one line of info().
std::string describe(const PlanCacheEntry& entry);

// One device's plan cache: least recently used plans go first when the count limit
// (default 16; 0 disables caching) or the work-area byte limit (-1: none) is reached.
// One cache per device, shared by every thread. A handle: copies refer to the same cache.
class PlanCache {
 public:
  explicit PlanCache(Device device = default_device());
  Device device() const { return device_; }
  std::int64_t get_size() const;
  void set_size(std::int64_t size);  // ValueError below 0
  std::int64_t get_curr_size() const;
  std::int64_t get_memsize() const;
  void set_memsize(std::int64_t bytes);  // -1: unlimited
  std::int64_t get_curr_memsize() const;
  std::int64_t hits() const;    // lookups that found a plan
  std::int64_t misses() const;  // lookups that built one
  void clear();
  std::vector<PlanCacheEntry> entries() const;  // most recently used first
  // The plan cached under key (made the most recently used), or nullptr.
  std::shared_ptr<const Plan> get(const PlanKey& key) const;
  bool erase(const PlanKey& key);
  std::string info() const;  // CuPy's show_info() text

 private:
  Device device_;
};
PlanCache get_plan_cache(Device device = default_device());

// ---- plans a program holds (CuPy's cupyx.scipy.fftpack.get_fft_plan) ------------------
// The backend plans of one device that transforms run under `PlanSet::Use` take: such a
// transform looks in the set first and adds to it the plans it finds in the cache or
// makes, so they outlive the cache's evictions and are never made again while the set
// lives. A plan found in the set leaves the cache and its statistics alone. A handle:
// copies share the plans.
class PlanSet {
 public:
  explicit PlanSet(Device device = default_device());
  Device device() const { return device_; }
  std::int64_t size() const;                    // plans held
  std::size_t work_size() const;                // the largest work area of those plans
  std::vector<PlanCacheEntry> entries() const;  // ordered by key

  // Makes the set the one the calling thread's transforms on its device use, until
  // destroyed (scopes nest). Transforms on other devices ignore it.
  class Use {
   public:
    explicit Use(const PlanSet& set);
    ~Use();
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    std::unique_ptr<void, void (*)(void*)> scope_;
  };

 private:
  Device device_;
  std::shared_ptr<backend::FftPinnedPlans> pins_;
};

}  // namespace copper::fft
